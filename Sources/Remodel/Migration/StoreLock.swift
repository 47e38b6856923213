#if canImport(Glibc)
    import Glibc
#elseif canImport(Darwin)
    import Darwin
#endif

/// Keeps every other writer out of a store for the whole migration, and
/// replaces the store's file while still holding that lock.
///
/// The lock is an SQLite write transaction (`BEGIN IMMEDIATE`) on the original:
/// other connections can still read, but any write waits or fails with
/// `SQLITE_BUSY`. After the replace, a connection still open on the old file
/// that tries to write gets `SQLITE_READONLY_DBMOVED` from SQLite, so no write
/// can land in the replaced file by mistake.
final class StoreLock {
    private var connection: SQLiteConnection?
    private let path: String
    private let isWAL: Bool

    init(path: String, timeoutMilliseconds: Int) throws(RemodelError) {
        self.path = path
        // SQLite opens a read-only file read-only without a word, and the rename would then replace it anyway.
        guard access(path, W_OK) == 0 else {
            throw RemodelError(
                .io, "the store file is read-only, so Remodel will not replace it; make it writable and migrate again", path: path)
        }
        let folder = path.lastIndex(of: "/").map { String(path[..<$0]) }.map { $0.isEmpty ? "/" : $0 } ?? "."
        guard access(folder, W_OK) == 0 else {
            throw RemodelError(
                .io, "the store's folder is read-only, so Remodel cannot write the migrated store beside it; make the folder writable and migrate again",
                path: path)
        }
        // Another migrator may replace the file while this one waits for the lock: then the lock is on the
        // old, replaced file. Take it again on the file the path names now (a few times at most).
        var attempt = 0
        while true {
            attempt += 1
            let before = Self.fileIdentity(path)
            let connection = try SQLiteConnection(path: path, mode: .readWrite)
            connection.setBusyTimeout(milliseconds: timeoutMilliseconds)
            let mode = try connection.scalar("PRAGMA journal_mode")
            do {
                try connection.execute("BEGIN IMMEDIATE")
            } catch {
                throw RemodelError(
                    .locked,
                    "another process is writing to the store; Remodel waited \(timeoutMilliseconds) ms for it to finish. Close the other program (or its transaction) and migrate again",
                    path: path, cause: error)
            }
            if attempt >= 3 || (before != nil && before == Self.fileIdentity(path)) {
                self.isWAL = mode == .text("wal")
                self.connection = connection
                return
            }
            try? connection.execute("ROLLBACK")
        }
    }

    /// The device and inode the path names now, read with `stat` (which opens no descriptor:
    /// closing one would drop this process's locks on the file).
    private static func fileIdentity(_ path: String) -> [UInt64]? {
        var info = stat()
        guard stat(path, &info) == 0 else { return nil }
        return [UInt64(info.st_dev), UInt64(info.st_ino)]
    }

    /// Replaces the store with the finished temporary store, durably and atomically.
    ///
    /// The temporary store is flushed to disk, given the original's journal mode, then
    /// renamed over the original; the folder is flushed; the original's `-wal`/`-shm`
    /// are removed. In WAL mode the original's log is first checkpointed and emptied,
    /// so a crash right after the rename can never replay it onto the new store.
    func replaceStore(with temporaryPath: String, backupPath: String?) throws(RemodelError) {
        guard let connection else { return }
        if isWAL {
            try emptyWriteAheadLog(connection)
            let temporary = try SQLiteConnection(path: temporaryPath, mode: .readWrite)
            _ = try temporary.scalar("PRAGMA journal_mode = WAL")
        } else {
            let temporary = try SQLiteConnection(path: temporaryPath, mode: .readWrite)
            _ = try temporary.scalar("PRAGMA journal_mode = DELETE")
        }
        try StoreFiles.copyPermissions(from: path, to: temporaryPath)
        try StoreFiles.synchronize(file: temporaryPath)
        if let backupPath {
            try StoreFiles.hardLink(path, as: backupPath)
        }
        FaultPoint.beforeRename.reach()
        try StoreFiles.replace(path, with: temporaryPath)
        FaultPoint.afterRename.reach()
        try StoreFiles.synchronize(directoryOf: path)
        for suffix in ["-wal", "-shm"] {
            StoreFiles.removeIfPresent(path + suffix)
            FaultPoint.duringSidecarCleanup.reach()
        }
    }

    /// Checkpoints the original's log into the database file and truncates it to zero bytes.
    ///
    /// A checkpoint cannot run inside the lock's transaction, so the lock is let go for the
    /// checkpoint and taken again; `data_version` shows whether another connection wrote
    /// in between, in which case the migration stops (the original is untouched; run it again).
    private func emptyWriteAheadLog(_ connection: SQLiteConnection) throws(RemodelError) {
        let before = try connection.scalar("PRAGMA data_version")
        try connection.execute("ROLLBACK")
        let result = try connection.rows("PRAGMA wal_checkpoint(TRUNCATE)").first
        try connection.execute("BEGIN IMMEDIATE")
        let after = try connection.scalar("PRAGMA data_version")
        guard before == after else {
            throw RemodelError(.locked, "another process wrote to the store while it was being migrated; nothing was changed; migrate again", path: path)
        }
        guard let result, result.first == .integer(0) else {
            throw RemodelError(.locked, "other connections are still reading the store's write-ahead log; nothing was changed; close them and migrate again", path: path)
        }
    }

    /// The store's state, read through the lock's own connection.
    ///
    /// While the lock is held, nothing in this process may open the store's file any other way:
    /// SQLite's locks are POSIX advisory locks, which belong to the process, and closing any other
    /// descriptor of the file (a `FileHandle` reading its header) silently releases them all.
    func inspect(bundle: ModelBundle) throws(RemodelError) -> StoreInspection {
        guard let connection else { throw RemodelError(.locked, "the store's lock was already released", path: path) }
        let state: StoreInspection.State
        switch try StoreMetadata.read(from: connection) {
        case .success(let metadata): state = StoreInspector.classify(metadata, in: bundle).0
        case .failure: state = .notRemodelStore(reason: "its metadata is missing or damaged")
        }
        return StoreInspection(
            path: path, state: state, modelName: bundle.name, currentVersionName: bundle.currentVersion.name, migrationSteps: nil)
    }

    /// Runs `body` with the lock's own connection: reading the store any other way would drop the lock.
    func withConnection<T>(_ body: (SQLiteConnection) throws(RemodelError) -> T) throws(RemodelError) -> T {
        guard let connection else { throw RemodelError(.locked, "the store's lock was already released", path: path) }
        return try body(connection)
    }

    /// Ends the lock's transaction and closes the connection.
    func release() {
        if let connection {
            try? connection.execute("ROLLBACK")
        }
        connection = nil
    }

    deinit {
        release()
    }
}
