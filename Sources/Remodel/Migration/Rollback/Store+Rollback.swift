import Foundation

/// What ``Store/rollback(at:lockTimeoutMilliseconds:)`` did.
public struct RollbackReport: Sendable, Hashable {
    /// The store, as given.
    public var path: String
    /// The version the store is at again: the backup's recorded version, when it records one.
    public var restoredVersion: String?
    /// The version of the store the backup replaced (what the migration had made), when it records one.
    public var replacedVersion: String?
}

extension Store {
    /// Puts back the original that a migration kept as its backup (`<store>.remodel-backup`, kept by
    /// ``MigrationOptions/keepBackup`` or a ``DowngradePolicy/allowLoss`` downgrade), when the store has
    /// not been written since that migration made it (`remodel rollback STORE`).
    ///
    /// The migration recorded the store it made beside the backup (its size, SQLite's change counter and
    /// an XXH64 hash of the file); the backup is renamed over the store only when the store is still exactly
    /// that, its write-ahead log empty and no write unfinished, checked under the same lock a migration
    /// takes. A store written since is never overwritten: the rollback refuses and changes nothing.
    /// The backup of a WAL store is in rollback-journal mode (the store left WAL mode before the
    /// migration replaced it); the app sets WAL mode again when it opens it.
    ///
    /// For example:
    /// ```swift
    /// let report = try Store.rollback(at: "library.sqlite")
    /// print("back at \(report.restoredVersion ?? "?")")
    /// ```
    /// - Parameters:
    ///   - path: The store file.
    ///   - lockTimeoutMilliseconds: How long to wait for another process's lock on the store.
    /// - Returns: What was put back.
    /// - Throws: ``/RemodelModel/RemodelError`` with ``RemodelModel/RemodelError/Code/rollbackRefused`` when there is
    ///   no backup, it has no record, or the store was written since (the message says which);
    ///   ``/RemodelModel/RemodelError/Code/locked`` when another process holds the store;
    ///   ``/RemodelModel/RemodelError/Code/io``. The store is then unchanged.
    public static func rollback(at path: String, lockTimeoutMilliseconds: Int = 5_000) throws(RemodelError)
        -> RollbackReport
    {
        let files = try StoreFiles(path: path)
        let backup = files.backupPath
        guard FileManager.default.fileExists(atPath: files.target) else {
            throw RemodelError(.storeMissing, "there is no store here to roll back; nothing was changed", path: path)
        }
        // The backup and its record must be the files a migration left: a link to a user's file is never put in
        // the store's place. (A migration stopped between keeping the backup and replacing the store leaves the
        // backup a second name of the store: the record, which describes another store, then refuses below.)
        try FileSystem.requireOwnFile(backup, sameFileAs: files.target)
        try FileSystem.requireOwnFile(BackupRecord.path(for: backup))
        guard let backupFile = BackupRecord.identity(of: backup) else {
            throw refusal(
                "there is no backup to put back (\(backup)): `remodel migrate --keep-backup` or `--downgrade allow-loss` keeps one",
                path)
        }
        guard let record = BackupRecord.read(for: backup) else {
            throw refusal(
                "the backup \(backup) has no record of the store its migration made (\(BackupRecord.path(for: backup))), so Remodel cannot tell whether the store was written since; if no write since matters, move the backup over the store yourself",
                path)
        }
        guard record.isBackup(backupFile) else {
            throw refusal(
                "the backup \(backup) is not the file the last migration kept (it was replaced or changed since), so it is not put back",
                path)
        }
        if HotJournal.isHot(files.target) {
            throw refusal(
                "a program stopped in the middle of a write to the store (its journal \(files.target)-journal is unfinished): the store was written since the migration that made the backup, and putting the backup back would lose that write",
                path)
        }
        if let log = BackupRecord.identity(of: files.target + "-wal"), log[2] > 0 {
            throw writtenSince("its write-ahead log \(files.target)-wal holds \(log[2]) bytes", path)
        }
        let now = try StoreFingerprint.of(path: files.target)
        if let difference = Self.difference(now, from: record.store) { throw writtenSince(difference, path) }
        let replacedVersion = Self.recordedVersion(files.target)
        let restoredVersion = Self.recordedVersion(backup)

        // Not while a migration of the store runs: wait for it (the check under the lock then sees what it wrote).
        let migrationLock = try MigrationLock.acquire(
            files.lockPath, storePath: path, silenceMilliseconds: lockTimeoutMilliseconds,
            heartbeat: MigrationHeartbeat()
        ) { (_) throws(RemodelError) in }
        defer { migrationLock?.release() }
        let lock = try StoreLock(files: files, timeoutMilliseconds: lockTimeoutMilliseconds)
        defer { lock.release() }
        // Checked again under the lock: a write between the first look and the lock is caught here.
        guard try lock.restore(backupPath: backup, ifStoreIs: record.store) else {
            throw writtenSince("it changed while the rollback took the lock", path)
        }
        BackupRecord.remove(for: backup)
        return RollbackReport(path: path, restoredVersion: restoredVersion, replacedVersion: replacedVersion)
    }

    private static func refusal(_ reason: String, _ path: String) -> RemodelError {
        RemodelError(.rollbackRefused, "cannot roll back: \(reason); nothing was changed", path: path)
    }

    private static func writtenSince(_ how: String, _ path: String) -> RemodelError {
        refusal(
            "the store was written since the migration that made the backup (\(how)), and putting the backup back would lose those writes; export what you need from the store first (`remodel export`), or keep it",
            path)
    }

    /// How the store differs from the one the migration made, or `nil` when it is the same.
    private static func difference(_ now: StoreFingerprint, from made: StoreFingerprint) -> String? {
        if now.changeCounter != made.changeCounter {
            return
                "SQLite's change counter in its header is \(now.changeCounter), the migration left \(made.changeCounter)"
        }
        if now.size != made.size { return "it has \(now.size) bytes, the migration left \(made.size)" }
        if now.hash != made.hash { return "its bytes differ from those the migration left" }
        return nil
    }

    /// The version name a store file records, read without changing it; `nil` when it records none.
    private static func recordedVersion(_ path: String) -> String? {
        let read = try? StoreSnapshot.reading(path) { (snapshot) throws(RemodelError) in
            try StoreMetadata.read(from: try snapshot.connection())
        }
        guard case .success(let metadata)? = read, !metadata.versionName.isEmpty else { return nil }
        return metadata.versionName
    }
}
