import Foundation

#if canImport(Glibc)
    import Glibc
#elseif canImport(Darwin)
    import Darwin
#endif

/// Makes sure a migration fits on the disk before it writes anything: each pass writes a copy of the
/// store beside it (and keeps the previous pass's until the next is done), so a plan of one pass needs
/// about the store's size again, more passes twice that, with a tenth more for what rebuilt tables and
/// new indexes add. A store that does not fit is refused up front, naming the space needed and free.
enum DiskSpace {
    /// Refuses the plan when the folder of `storePath` lacks the room its `passes` need.
    /// - Parameter available: The free bytes, for tests; nil asks the file system.
    static func check(storePath: String, passes: Int, available: Int64? = nil) throws(RemodelError) {
        guard passes > 0 else { return }
        var info = stat()
        guard stat(storePath, &info) == 0 else { return }
        var size = Int64(info.st_size)
        if stat(storePath + "-wal", &info) == 0 { size += Int64(info.st_size) }
        let needed = size * Int64(passes > 1 ? 2 : 1) + size / 10
        guard let free = available ?? freeBytes(in: FileSystem.folder(of: storePath)), free < needed else { return }
        throw RemodelError(
            .io,
            "the migration needs about \(megabytes(needed)) beside the store (a copy per pass), but its disk has \(megabytes(free)) free: free some space and migrate again; nothing was changed",
            path: storePath, cause: POSIXError(.ENOSPC))
    }

    /// The bytes an unprivileged process may still write in `folder`'s file system.
    private static func freeBytes(in folder: String) -> Int64? {
        var info = statvfs()
        guard statvfs(folder, &info) == 0 else { return nil }
        return Int64(info.f_bavail) * Int64(info.f_frsize)
    }

    private static func megabytes(_ bytes: Int64) -> String {
        bytes < 1 << 20 ? "\(bytes) bytes" : String(format: "%.1f MB", Double(bytes) / 1_048_576)
    }
}
