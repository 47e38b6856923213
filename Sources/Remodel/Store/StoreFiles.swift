import Foundation

#if canImport(Glibc)
    import Glibc
#elseif canImport(Darwin)
    import Darwin
#endif

/// The files of a store on disk, and the few operations that make replacing
/// it safe: unique temporary names beside it, durable writes, atomic rename.
///
/// A store path may be a symbolic link (or a chain of them, relative or into
/// another folder): ``target`` is the file the links lead to, the file SQLite
/// opens. Every file below is beside the target, and the migrated store is
/// renamed over the target, so the link stays and keeps leading to the store.
///
/// Names (beside the store `Library.sqlite`):
/// - `Library.sqlite.remodel-migrating`: the store being built; renamed over the original at the end.
/// - `Library.sqlite.remodel-step-N`: the result of step N of a multi-step migration, removed after step N+1.
/// - `Library.sqlite.remodel-backup`: the original, kept with `--keep-backup` (replaced by the next backup).
/// - `Library.sqlite.remodel-lock`: while a migration runs, the file it holds locked so that no other
///   migration of the store starts meanwhile (see `MigrationLock`); removed before the lock is let go.
/// - `-wal`, `-shm`, `-journal` of each of them: SQLite's own sidecar files.
package struct StoreFiles {
    /// The store path as given (it may be a symbolic link).
    let path: String
    /// The store file itself: ``path`` with its symbolic links followed.
    let target: String

    /// Follows the path's symbolic links once.
    /// - Throws: ``/RemodelModel/RemodelError`` with ``/RemodelModel/RemodelError/Code/io`` for a loop of links or an
    ///   unreadable one.
    init(path: String) throws(RemodelError) {
        self.path = path
        self.target = try FileSystem.resolvingLinks(path)
    }

    var temporaryPath: String { target + Self.temporarySuffix }
    /// What the name of the store built by the last step ends with.
    static let temporarySuffix = ".remodel-migrating"
    var backupPath: String { target + ".remodel-backup" }
    /// The file one migration at a time holds locked (`MigrationLock`).
    var lockPath: String { target + Self.lockSuffix }
    static let lockSuffix = ".remodel-lock"
    func stepPath(_ step: Int) -> String { target + ".remodel-step-\(step)" }

    static let sidecarSuffixes = ["-wal", "-shm", "-journal"]

    /// Files an interrupted migration may have left: temporary and step stores with their sidecars. Not the
    /// lock file, which the migration that removes leftovers holds (and removes as it lets go).
    func leftovers() -> [String] {
        let folder = FileSystem.folder(of: target)
        let name = String(FileSystem.lastComponent(of: target))
        let prefix = name + ".remodel-"
        let entries = FileSystem.names(in: folder)
        return entries.filter { entry in
            entry.hasPrefix(prefix) && !entry.hasPrefix(name + ".remodel-backup") && entry != name + Self.lockSuffix
        }.sorted().map { folder + "/" + $0 }
    }

    /// Removes what an interrupted migration left behind: files Remodel made (anything else there is left, and
    /// refused by ``requireOwnFiles(keepingBackup:)``). Call only while holding the store's lock.
    func removeLeftovers() {
        for leftover in leftovers() { FileSystem.removeOwnFile(leftover) }
    }

    /// Refuses, before a migration writes anything, every path beside the store it would write, replace or remove
    /// that holds what Remodel does not leave (DESIGN.md, Migration 14): a leftover of an interrupted migration
    /// (the store being built, a step's store, their `-wal`, `-shm`, `-journal`), and with `keepingBackup` the
    /// backup (which may still be a second name of the store, when a migration stopped between keeping it and
    /// replacing the store); the backup's record is the migrator's to check.
    /// - Throws: ``/RemodelModel/RemodelError/Code/io`` naming the path and what is there.
    func requireOwnFiles(keepingBackup: Bool) throws(RemodelError) {
        for leftover in leftovers() { try FileSystem.requireOwnFile(leftover) }
        for suffix in [""] + Self.sidecarSuffixes { try FileSystem.requireOwnFile(temporaryPath + suffix) }
        guard keepingBackup else { return }
        try FileSystem.requireOwnFile(backupPath, sameFileAs: target)
        try FileSystem.requireOwnFile(Self.backupRecordPath(for: backupPath))
        try FileSystem.requireOwnFile(Self.backupRecordPath(for: backupPath) + ".new")
    }

    /// Where the record of the backup at `backupPath` is (the migration's `BackupRecord`); it is written into
    /// the record's path plus `.new` first, then renamed.
    static func backupRecordPath(for backupPath: String) -> String { backupPath + ".json" }

    /// Removes a store file Remodel made and its sidecars, ignoring missing ones (and leaving what Remodel did not
    /// make: the file that is then made there refuses it, naming it).
    static func remove(_ path: String) {
        for suffix in [""] + sidecarSuffixes { FileSystem.removeOwnFile(path + suffix) }
    }

    /// Flushes a file's content to stable storage.
    package static func synchronize(file path: String) throws(RemodelError) {
        let descriptor = open(path, O_RDONLY)
        guard descriptor >= 0 else { throw ioError("cannot open to flush", path) }
        defer { close(descriptor) }
        guard fsync(descriptor) == 0 else { throw ioError("cannot flush to disk", path) }
    }

    /// Flushes a folder's entries (after a rename) to stable storage.
    package static func synchronize(directoryOf path: String) throws(RemodelError) {
        let folder = FileSystem.folder(of: path)
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
        // Only root may give a file away; otherwise it stays the migrating user's.
        _ = chown(copy, info.st_uid, info.st_gid)
        guard chmod(copy, info.st_mode & 0o7777) == 0 else {
            throw ioError("cannot give the migrated store the original's permissions", copy)
        }
    }

    /// Atomically replaces `destination` with `source` (POSIX `rename`).
    static func replace(_ destination: String, with source: String) throws(RemodelError) {
        guard rename(source, destination) == 0 else {
            throw ioError("cannot put the migrated store (built beside it) in its place", destination)
        }
    }

    /// Makes `link` a second name of `path` (no copy), replacing the backup Remodel kept there before (and
    /// refusing anything else there).
    static func hardLink(_ path: String, as linkPath: String) throws(RemodelError) {
        try FileSystem.requireOwnFile(linkPath, sameFileAs: path)
        FileSystem.removeOwnFile(linkPath)
        guard link(path, linkPath) == 0 else {
            if errno == EEXIST, let what = FileSystem.foreignEntry(at: linkPath) {
                throw FileSystem.notOurs(linkPath, what)
            }
            throw ioError("cannot create the backup \(linkPath)", path)
        }
    }

    static func ioError(_ what: String, _ path: String) -> RemodelError {
        let code = errno
        return RemodelError(
            .io, "\(what): \(String(cString: strerror(code)))", path: path,
            cause: POSIXError(POSIXErrorCode(rawValue: code) ?? .EIO))
    }
}

extension StoreFiles {
    /// Removes one file Remodel made, if it is there.
    static func removeIfPresent(_ path: String) {
        FileSystem.removeOwnFile(path)
    }

    /// Removes a side file of the store itself (its `-wal`, `-shm` or `-journal`: SQLite's, perhaps made by the app's
    /// user), whatever file it is — a log left beside the store that replaces it would be replayed into it — but a
    /// folder. Only its name goes: `unlink` writes through nothing.
    static func removeStoreSidecar(_ path: String) {
        if FileSystem.foreignEntry(at: path) != "a folder" { unlink(path) }
    }
}

extension StoreFiles {
    /// Refuses, before anything is written, a store Remodel must not replace: a file that is
    /// read-only — by its mode bits (no write bit: not even its owner may write it) or for this user
    /// — and a folder where the migrated store cannot be written or renamed over it.
    ///
    /// The mode bits decide as well as `access(2)`: root passes every `access` check, and a store
    /// made read-only stays read-only when root migrates it. In a sticky folder (like `/tmp`) only
    /// the owner of a file (or of the folder) may rename over it, which `access` does not tell.
    func checkReplaceable() throws(RemodelError) {
        var file = stat()
        if stat(target, &file) == 0, file.st_mode & 0o222 == 0 || access(target, W_OK) != 0 {
            throw RemodelError(
                .io, "the store file is read-only, so Remodel will not replace it; make it writable and migrate again",
                path: path,
                cause: POSIXError(.EACCES))
        }
        let folder = FileSystem.folder(of: target)
        var directory = stat()
        guard stat(folder, &directory) == 0, directory.st_mode & 0o222 != 0, access(folder, W_OK | X_OK) == 0 else {
            throw RemodelError(
                .io,
                "the store's folder \(folder) is read-only, so Remodel cannot write the migrated store beside it; make the folder writable and migrate again",
                path: path, cause: POSIXError(.EACCES))
        }
        let user = geteuid()
        if directory.st_mode & S_ISVTX != 0, user != 0, user != file.st_uid, user != directory.st_uid {
            throw RemodelError(
                .io,
                "the store's folder \(folder) is sticky (like /tmp) and the store belongs to another user, so Remodel could not rename the migrated store over it; migrate as the store's owner",
                path: path, cause: POSIXError(.EPERM))
        }
    }
}
