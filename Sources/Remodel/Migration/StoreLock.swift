import Foundation

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
///
/// SQLite makes that check only for rollback-journal databases, so a store in
/// WAL mode is first switched to rollback journaling (its log checkpointed
/// into the file). SQLite allows the switch only when no other connection has
/// the store open: otherwise the migration is refused, because a connection
/// opened before the replace could commit into the replaced file's log and
/// lose the write. The migrated store gets WAL mode back; a failed migration
/// gives it back to the original.
final class StoreLock {
    private var connection: SQLiteConnection?
    private let path: String
    private let isWAL: Bool
    /// Whether the original was switched out of WAL and not yet replaced.
    private var originalLeftWAL = false

    init(path: String, timeoutMilliseconds: Int) throws(RemodelError) {
        self.path = path
        // SQLite opens a read-only file read-only without a word, and the rename would then replace it anyway.
        guard access(path, W_OK) == 0 else {
            throw RemodelError(
                .io, "the store file is read-only, so Remodel will not replace it; make it writable and migrate again", path: path,
                cause: POSIXError(POSIXErrorCode(rawValue: errno) ?? .EACCES))
        }
        let folder = path.lastIndex(of: "/").map { String(path[..<$0]) }.map { $0.isEmpty ? "/" : $0 } ?? "."
        guard access(folder, W_OK) == 0 else {
            throw RemodelError(
                .io, "the store's folder is read-only, so Remodel cannot write the migrated store beside it; make the folder writable and migrate again",
                path: path, cause: POSIXError(POSIXErrorCode(rawValue: errno) ?? .EACCES))
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
                if isWAL { try leaveWriteAheadLogging(connection, timeoutMilliseconds: timeoutMilliseconds) }
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
    /// renamed over the original; the folder is flushed; stray `-wal`/`-shm` files are
    /// removed. (A WAL original left WAL mode when the lock was taken, so it has no log
    /// that a crash right after the rename could replay onto the new store.)
    func replaceStore(with temporaryPath: String, backupPath: String?) throws(RemodelError) {
        guard connection != nil else { return }
        if isWAL {
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
        originalLeftWAL = false
        FaultPoint.afterRename.reach()
        try StoreFiles.synchronize(directoryOf: path)
        for suffix in ["-wal", "-shm"] {
            StoreFiles.removeIfPresent(path + suffix)
            FaultPoint.duringSidecarCleanup.reach()
        }
    }

    /// Checkpoints the original's log into the file and switches it to rollback journaling,
    /// then takes the lock again; refuses when another connection has the store open.
    private func leaveWriteAheadLogging(_ connection: SQLiteConnection, timeoutMilliseconds: Int) throws(RemodelError) {
        try connection.execute("ROLLBACK")
        // SQLite does not wait on its busy handler for this switch: try again until the lock's timeout,
        // so connections that come and go briefly (another process's short writes) do not stop it.
        let deadline = Date().addingTimeInterval(Double(timeoutMilliseconds) / 1000)
        var mode: SQLiteValue?
        repeat {
            mode = try? connection.scalar("PRAGMA journal_mode = DELETE")
            if mode == .text("delete") { break }
            usleep(10_000)
        } while Date() < deadline
        guard mode == .text("delete") else {
            throw RemodelError(
                .locked,
                "the store is in WAL mode and another connection has it open (Remodel waited \(timeoutMilliseconds) ms); a write through that connection could be lost when the store is replaced, so nothing was changed: close the other connections and migrate again",
                path: path)
        }
        originalLeftWAL = true
        do {
            try connection.execute("BEGIN IMMEDIATE")
        } catch {
            throw RemodelError(
                .locked, "another process started writing to the store; nothing was changed: close it and migrate again",
                path: path, cause: error)
        }
    }

    /// What the locked store is, read through the lock's own connection.
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
            if originalLeftWAL {
                // The migration did not replace the store: give the original its WAL mode back.
                _ = try? connection.scalar("PRAGMA journal_mode = WAL")
                originalLeftWAL = false
            }
        }
        connection = nil
    }

    deinit {
        release()
    }
}
