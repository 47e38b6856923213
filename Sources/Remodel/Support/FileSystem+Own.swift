#if canImport(Glibc)
    import Glibc
#elseif canImport(Darwin)
    import Darwin
#endif

/// Remodel writes only files it made (DESIGN.md, Migration 14): every file it opens to write, replaces or removes —
/// the lock beside a store, the backup and its record, the store being built and its side files, what a command
/// writes to a path the user names — is either made new by this call (`O_CREAT | O_EXCL | O_NOFOLLOW`), or an
/// existing regular file with one name that belongs to this user: what Remodel leaves behind. A symbolic link, a
/// second name of a file (a hard link), a FIFO, a folder, a device or another user's file at such a path is
/// refused, naming it, and left as it is: a user's file is never written through one.
extension FileSystem {
    /// What stands at `path` when it is not what Remodel leaves (`a symbolic link to …`, `a folder`); nil when
    /// nothing is there, or a regular file with one name (or a second name of `sameFileAs`, a file Remodel keeps
    /// under two names for a moment) that belongs to this user.
    package static func foreignEntry(at path: String, sameFileAs other: String? = nil) -> String? {
        var status = stat()
        guard lstat(path, &status) == 0 else { return nil }
        return foreignEntry(status, at: path, sameFileAs: other)
    }

    private static func foreignEntry(_ status: stat, at path: String, sameFileAs other: String?) -> String? {
        switch status.st_mode & S_IFMT {
        case S_IFREG: break
        case S_IFLNK:
            var buffer = [UInt8](repeating: 0, count: Int(PATH_MAX) + 1)
            let count = buffer.withUnsafeMutableBytes {
                readlink(path, $0.baseAddress!.assumingMemoryBound(to: CChar.self), $0.count - 1)
            }
            return count > 0
                ? "a symbolic link to \(String(decoding: buffer[..<count], as: UTF8.self))" : "a symbolic link"
        case S_IFDIR: return "a folder"
        case S_IFIFO: return "a FIFO (a named pipe)"
        case S_IFSOCK: return "a socket"
        default: return "a device"
        }
        if status.st_nlink > 1 {
            var second = stat()
            if let other, stat(other, &second) == 0, second.st_dev == status.st_dev, second.st_ino == status.st_ino,
                status.st_nlink == 2
            {
                return nil
            }
            let others = status.st_nlink - 1
            return "a hard link: the same file as \(others) other name\(others == 1 ? "" : "s")"
        }
        if status.st_uid != geteuid() { return "a file of another user (user id \(status.st_uid))" }
        return nil
    }

    /// The refusal of a path where Remodel would write through what stands there.
    static func notOurs(_ path: String, _ what: String) -> RemodelError {
        RemodelError(
            .io,
            "\(path) is \(what), not a file Remodel made: Remodel writes only files it made, so it left it as it is; move it away and try again",
            path: path)
    }

    /// Refuses `path` unless nothing is there or a file Remodel may have left (see ``foreignEntry(at:sameFileAs:)``):
    /// call before replacing or removing it.
    /// - Throws: ``RemodelError/Code/io`` naming the path and what is there.
    package static func requireOwnFile(_ path: String, sameFileAs other: String? = nil) throws(RemodelError) {
        if let what = foreignEntry(at: path, sameFileAs: other) { throw notOurs(path, what) }
    }

    /// Creates a new file at `path`, where there must be nothing (`O_CREAT | O_EXCL | O_NOFOLLOW`), open with
    /// `flags` (`O_WRONLY`, `O_RDWR`).
    /// - Returns: The descriptor, the caller's to close.
    /// - Throws: ``RemodelError/Code/io``: naming what is there, or why the file could not be made (`what`: `the
    ///   copy of the store`).
    static func createNewFile(_ path: String, flags: Int32, mode: mode_t, what: String) throws(RemodelError) -> Int32 {
        let descriptor = open(path, flags | O_CREAT | O_EXCL | O_NOFOLLOW | O_CLOEXEC, mode)
        guard descriptor < 0 else { return descriptor }
        let code = errno
        if code == EEXIST { throw notOurs(path, foreignEntry(at: path) ?? "a file that is already there") }
        let reason = String(cString: strerror(code))
        if code == ENOSPC {
            throw RemodelError(
                .io, "the disk is full: cannot create \(what) (\(reason)); free some space and try again", path: path)
        }
        throw RemodelError(.io, "cannot create \(what): \(reason)", path: path)
    }

    /// How opening a file Remodel may have made before went.
    enum OwnFile {
        /// Open: the descriptor, the caller's to close.
        case opened(Int32)
        /// `open(2)` failed with this `errno` (nothing foreign there: no permission, a read-only file system, …).
        case failed(Int32)
    }

    /// Opens the file at `path` with `flags`, making it when there is none (`O_CREAT`), when it is one Remodel may
    /// have made: what is there is checked on the open descriptor (`fstat`), so nothing can be swapped in between.
    /// A FIFO is opened without blocking, to be refused.
    /// - Throws: ``RemodelError/Code/io`` naming the path and what is there.
    static func openOwnFile(_ path: String, flags: Int32, mode: mode_t) throws(RemodelError) -> OwnFile {
        let descriptor = open(path, flags | O_CREAT | O_NOFOLLOW | O_NONBLOCK | O_CLOEXEC, mode)
        guard descriptor >= 0 else {
            let code = errno
            if let what = foreignEntry(at: path) { throw notOurs(path, what) }
            return .failed(code)
        }
        var status = stat()
        guard fstat(descriptor, &status) == 0 else {
            let code = errno
            close(descriptor)
            return .failed(code)
        }
        if let what = foreignEntry(status, at: path, sameFileAs: nil) {
            close(descriptor)
            throw notOurs(path, what)
        }
        // Writes block as they would have: O_NONBLOCK was for a FIFO's open alone.
        _ = fcntl(descriptor, F_SETFL, fcntl(descriptor, F_GETFL) & ~O_NONBLOCK)
        return .opened(descriptor)
    }

    /// Removes a file Remodel made (`unlink`), leaving anything else where it is: a link, a folder, a FIFO, a file
    /// with other names or of another user (the next operation that needs the path refuses it, naming it).
    /// - Returns: Whether something Remodel made was removed.
    @discardableResult
    static func removeOwnFile(_ path: String) -> Bool {
        var status = stat()
        guard lstat(path, &status) == 0, foreignEntry(status, at: path, sameFileAs: nil) == nil else { return false }
        return unlink(path) == 0
    }
}
