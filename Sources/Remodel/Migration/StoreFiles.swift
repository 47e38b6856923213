import Foundation
#if canImport(Glibc)
    import Glibc
#elseif canImport(Darwin)
    import Darwin
#endif

/// The files of a store on disk, and the few operations that make replacing
/// it safe: unique temporary names beside it, durable writes, atomic rename.
///
/// Names (beside the store `Library.sqlite`):
/// - `Library.sqlite.remodel-migrating`: the store being built; renamed over the original at the end.
/// - `Library.sqlite.remodel-step-N`: the result of step N of a multi-step migration, removed after step N+1.
/// - `Library.sqlite.remodel-backup`: the original, kept with `--keep-backup` (replaced by the next backup).
/// - `-wal`, `-shm`, `-journal` of each of them: SQLite's own sidecar files.
struct StoreFiles {
    let path: String

    var temporaryPath: String { path + Self.temporarySuffix }
    /// What the name of the store built by the last step ends with.
    static let temporarySuffix = ".remodel-migrating"
    var backupPath: String { path + ".remodel-backup" }
    func stepPath(_ step: Int) -> String { path + ".remodel-step-\(step)" }

    static let sidecarSuffixes = ["-wal", "-shm", "-journal"]

    /// Files an interrupted migration may have left: temporary and step stores with their sidecars.
    func leftovers() -> [String] {
        let url = URL(fileURLWithPath: path)
        let folder = url.deletingLastPathComponent().path
        let prefix = url.lastPathComponent + ".remodel-"
        let entries = (try? FileManager.default.contentsOfDirectory(atPath: folder)) ?? []
        return entries.filter { entry in
            entry.hasPrefix(prefix) && !entry.hasPrefix(url.lastPathComponent + ".remodel-backup")
        }.sorted().map { folder + "/" + $0 }
    }

    /// Removes what an interrupted migration left behind. Call only while holding the store's lock.
    func removeLeftovers() {
        for leftover in leftovers() { try? FileManager.default.removeItem(atPath: leftover) }
    }

    /// Removes a store file and its sidecars, ignoring missing ones.
    static func remove(_ path: String) {
        for suffix in [""] + sidecarSuffixes {
            if FileManager.default.fileExists(atPath: path + suffix) {
                try? FileManager.default.removeItem(atPath: path + suffix)
            }
        }
    }

    /// Flushes a file's content to stable storage.
    static func synchronize(file path: String) throws(RemodelError) {
        let descriptor = open(path, O_RDONLY)
        guard descriptor >= 0 else { throw ioError("cannot open to flush", path) }
        defer { close(descriptor) }
        guard fsync(descriptor) == 0 else { throw ioError("cannot flush to disk", path) }
    }

    /// Flushes a folder's entries (after a rename) to stable storage.
    static func synchronize(directoryOf path: String) throws(RemodelError) {
        let folder = URL(fileURLWithPath: path).deletingLastPathComponent().path
        let descriptor = open(folder, O_RDONLY | O_DIRECTORY)
        guard descriptor >= 0 else { throw ioError("cannot open the folder to flush", folder) }
        defer { close(descriptor) }
        guard fsync(descriptor) == 0 else { throw ioError("cannot flush the folder to disk", folder) }
    }

    /// Gives `copy` the permission bits (and, when allowed, the owner and group) of `original`,
    /// so that replacing a store never widens who can read it.
    static func copyPermissions(from original: String, to copy: String) throws(RemodelError) {
        var info = stat()
        guard stat(original, &info) == 0 else { throw ioError("cannot read the permissions", original) }
        _ = chown(copy, info.st_uid, info.st_gid)  // only root may give a file away; otherwise it stays the migrating user's
        guard chmod(copy, info.st_mode & 0o7777) == 0 else { throw ioError("cannot give the migrated store the original's permissions", copy) }
    }

    /// Atomically replaces `destination` with `source` (POSIX `rename`).
    static func replace(_ destination: String, with source: String) throws(RemodelError) {
        guard rename(source, destination) == 0 else { throw ioError("cannot rename \(source) over it", destination) }
    }

    /// Makes `link` a second name of `path` (no copy).
    static func hardLink(_ path: String, as linkPath: String) throws(RemodelError) {
        if FileManager.default.fileExists(atPath: linkPath) { try? FileManager.default.removeItem(atPath: linkPath) }
        guard link(path, linkPath) == 0 else { throw ioError("cannot create the backup \(linkPath)", path) }
    }

    private static func ioError(_ what: String, _ path: String) -> RemodelError {
        let code = errno
        return RemodelError(
            .io, "\(what): \(String(cString: strerror(code)))", path: path, cause: POSIXError(POSIXErrorCode(rawValue: code) ?? .EIO))
    }
}

extension StoreFiles {
    /// Removes one file if it exists.
    static func removeIfPresent(_ path: String) {
        if FileManager.default.fileExists(atPath: path) { try? FileManager.default.removeItem(atPath: path) }
    }
}
