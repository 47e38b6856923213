internal import RemodelSQLite

#if canImport(Glibc)
    import Glibc
#elseif canImport(Darwin)
    import Darwin
#endif

/// The VFS that reads a WAL store with its side files without ever creating one (see
/// ``SQLiteConnection/init(readingSideFiles:reportedAs:)``): SQLite's default VFS, but a log (`-wal`)
/// is opened read-only and never created. A read-only connection of the default VFS creates the log
/// when it cannot find it — as when the last connection of the program writing the store closes,
/// checkpointing and deleting its log, between the reader's look and its read — and leaves it there.
/// Through this VFS the read fails instead ("unable to open"), and the reader looks again.
enum LogReadingVFS {
    static let name = "remodel-reads-log"

    /// Registers the VFS once; `false` when SQLite's default VFS cannot be found (the default VFS is then used).
    static let registered: Bool = {
        guard let base = sqlite3_vfs_find(nil) else { return false }
        logReadingBase = base
        let vfs = UnsafeMutablePointer<sqlite3_vfs>.allocate(capacity: 1)
        vfs.initialize(to: base.pointee)
        vfs.pointee.pNext = nil
        vfs.pointee.zName = UnsafePointer(strdup(name))
        vfs.pointee.xOpen = { _, path, file, flags, outFlags in
            guard let base = logReadingBase, let open = base.pointee.xOpen else { return SQLITE_CANTOPEN }
            var flags = flags
            if flags & SQLITE_OPEN_WAL != 0 {
                flags = flags & ~(SQLITE_OPEN_CREATE | SQLITE_OPEN_READWRITE) | SQLITE_OPEN_READONLY
            }
            return open(base, path, file, flags, outFlags)
        }
        return sqlite3_vfs_register(vfs, 0) == SQLITE_OK
    }()
}

/// The default VFS the log-reading VFS passes its calls to, set once when it is registered.
nonisolated(unsafe) private var logReadingBase: UnsafeMutablePointer<sqlite3_vfs>?
