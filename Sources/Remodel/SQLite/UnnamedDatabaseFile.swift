internal import RemodelSQLite

#if canImport(Glibc)
    package import Glibc
#elseif canImport(Darwin)
    package import Darwin
#endif

/// A new database file that has no name until it is complete: Linux's `O_TMPFILE` makes it in a folder
/// without a directory entry, SQLite writes it through `/proc/self/fd/N`, and ``link(to:)`` gives it
/// its name in one step that fails if a file appeared there meanwhile. A process killed at any moment
/// before that leaves nothing in the folder: the kernel frees the file with its last descriptor.
///
/// SQLite resolves symbolic links in a database's path, which would turn `/proc/self/fd/N` into the
/// name of a deleted file; the connection is opened through a VFS of its own (``vfsName``), the
/// default one with paths taken as given.
///
/// For example:
/// ```swift
/// guard let file = UnnamedDatabaseFile(in: "/data") else { /* fall back to a named temporary file */ }
/// let connection = try SQLiteConnection(unnamed: file, reportedAs: "/data/new.sqlite")
/// …
/// try file.link(to: "/data/new.sqlite")
/// ```
package final class UnnamedDatabaseFile {
    let descriptor: Int32

    /// The path SQLite opens the file by.
    var path: String { "/proc/self/fd/\(descriptor)" }

    /// Makes the file in `folder`; `nil` where the system or the file system cannot (not Linux, or a
    /// file system without `O_TMPFILE`), and the caller writes a named temporary file instead.
    package init?(in folder: String, mode: mode_t = 0o644) {
        #if os(Linux)
            guard Self.vfsRegistered else { return nil }
            let descriptor = open(folder, Self.temporaryFileFlag | O_RDWR | O_CLOEXEC, mode)
            guard descriptor >= 0 else { return nil }
            self.descriptor = descriptor
        #else
            return nil
        #endif
    }

    deinit {
        close(descriptor)
    }

    #if os(Linux)
        /// `O_TMPFILE`, a C macro Swift does not import: `__O_TMPFILE | O_DIRECTORY`, with the generic
        /// Linux value of `__O_TMPFILE` (x86-64, ARM64 and every architecture Swift runs on).
        static let temporaryFileFlag: Int32 = 0o20_000_000 | O_DIRECTORY
    #endif

    /// Flushes the file's bytes to the disk.
    package func synchronize(reportedAs target: String) throws(RemodelError) {
        guard fsync(descriptor) == 0 else {
            throw RemodelError(
                .io, "the new file could not be flushed to disk: \(String(cString: strerror(errno)))", path: target)
        }
    }

    /// Gives the file its name; fails, leaving nothing, when something is already at `target`.
    package func link(to target: String) throws(RemodelError) {
        #if os(Linux)
            guard linkat(AT_FDCWD, path, AT_FDCWD, target, AT_SYMLINK_FOLLOW) == 0 else {
                // As FileSystem.moveNew says it: a launch tells another process's store, made meanwhile, by this.
                if errno == EEXIST {
                    throw RemodelError(
                        .incompatibleStore,
                        "a file appeared here while the store was being built; it was left untouched", path: target)
                }
                throw RemodelError(
                    .io, "the new file could not be given its name: \(String(cString: strerror(errno)))", path: target)
            }
        #endif
    }

    // MARK: - The VFS that takes paths as given

    /// The name of the VFS a connection to an unnamed file is opened with.
    static let vfsName = "remodel-unnamed"

    /// The prefix of the paths the VFS takes as given.
    static let descriptorPrefix = "/proc/self/fd/"

    /// Registers the VFS once: a copy of SQLite's default VFS whose `xFullPathname` keeps a
    /// `/proc/self/fd/N` path as it is instead of following the link (other paths, such as a database
    /// attached to the connection, go to the default VFS's). SQLite opens files with `O_NOFOLLOW`, which
    /// refuses the `/proc` link: its `open` system call is replaced (`xSetSystemCall`, SQLite's hook for
    /// this) by one that leaves that flag out for a `/proc/self/fd/N` path and changes nothing else.
    static let vfsRegistered: Bool = {
        guard let base = sqlite3_vfs_find(nil), let getSystemCall = base.pointee.xGetSystemCall,
            let setSystemCall = base.pointee.xSetSystemCall, let open = getSystemCall(base, "open")
        else { return false }
        baseVFS = base
        originalOpen = unsafeBitCast(open, to: OpenFunction.self)
        let replacement: OpenFunction = { path, flags, mode in
            guard let original = originalOpen else { return -1 }
            if let path, strncmp(path, descriptorPrefix, descriptorPrefix.utf8.count) == 0 {
                return original(path, flags & ~O_NOFOLLOW, mode)
            }
            return original(path, flags, mode)
        }
        guard setSystemCall(base, "open", unsafeBitCast(replacement, to: sqlite3_syscall_ptr.self)) == SQLITE_OK
        else { return false }
        let vfs = UnsafeMutablePointer<sqlite3_vfs>.allocate(capacity: 1)
        vfs.initialize(to: base.pointee)
        vfs.pointee.pNext = nil
        vfs.pointee.zName = UnsafePointer(strdup(vfsName))
        vfs.pointee.xFullPathname = { _, name, size, output in
            guard let name, let output else { return SQLITE_CANTOPEN }
            guard strncmp(name, descriptorPrefix, descriptorPrefix.utf8.count) == 0 else {
                guard let base = baseVFS, let fullPathname = base.pointee.xFullPathname else { return SQLITE_CANTOPEN }
                return fullPathname(base, name, size, output)
            }
            let length = Int(strlen(name))
            guard length < Int(size) else { return SQLITE_CANTOPEN }
            output.update(from: name, count: length + 1)
            return SQLITE_OK
        }
        return sqlite3_vfs_register(vfs, 0) == SQLITE_OK
    }()
}

/// The default VFS the unnamed files' VFS copies, set once when it is registered.
nonisolated(unsafe) private var baseVFS: UnsafeMutablePointer<sqlite3_vfs>?

/// SQLite's `open` system call (`int open(const char *, int, int)`), set once before it is replaced.
private typealias OpenFunction = @convention(c) (UnsafePointer<CChar>?, Int32, Int32) -> Int32
nonisolated(unsafe) private var originalOpen: OpenFunction?

extension SQLiteConnection {
    /// Opens an unnamed file for reading and writing; errors name `reported`.
    package convenience init(unnamed file: UnnamedDatabaseFile, reportedAs reported: String) throws(RemodelError) {
        try self.init(
            name: file.path, flags: SQLITE_OPEN_READWRITE | SQLITE_OPEN_CREATE | SQLITE_OPEN_NOMUTEX,
            vfs: UnnamedDatabaseFile.vfsName, path: reported)
    }
}
