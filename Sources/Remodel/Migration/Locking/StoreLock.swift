import Foundation

#if canImport(Glibc)
    import Glibc
#elseif canImport(Darwin)
    import Darwin
#endif

/// Keeps every other writer out of a store for the whole migration, and
/// replaces the store's file while still holding that lock.
///
/// The lock is an SQLite write transaction (`BEGIN IMMEDIATE`) on the original
/// (the file its symbolic links lead to): other connections can still read,
/// but any write waits or fails with `SQLITE_BUSY`. After the replace, a
/// connection still open on the old file that tries to write gets
/// `SQLITE_READONLY_DBMOVED` from SQLite, so no write can land in the replaced
/// file by mistake.
///
/// A hot journal (a program stopped in the middle of a write) is rolled back
/// by SQLite when the lock's connection first reads the store;
/// ``rolledBackUnfinishedTransaction`` says so.
///
/// SQLite checks for a moved file only in rollback-journal mode, so a store in
/// WAL mode leaves WAL mode — its log checkpointed into the file — just before
/// it is replaced, after the migrated store passed every check: leaving WAL
/// rewrites two counters of the file's header, so every refusal that can be
/// made before (a store of another model, a plan that cannot be made, data that
/// fails validation, a cancellation) leaves the original byte for byte as it
/// was, still in WAL mode. SQLite allows the switch only when no other
/// connection has the store open, because a connection opened before the
/// replace could commit into the replaced file's log and lose the write: the
/// lock checks that when it is taken (by holding SQLite's exclusive lock for a
/// moment, which changes nothing) and again at the switch, and refuses the
/// migration, untouched, while another connection has the store open. The
/// write lock must be let go for the switch; a connection that writes in that
/// moment makes the migrated store stale, and the migration is then built
/// again from the store as it is (``replaceStore(with:backupPath:)``).
final class StoreLock {
    private var connection: SQLiteConnection?
    private let files: StoreFiles
    private let timeoutMilliseconds: Int
    private let isWAL: Bool
    /// Whether the original was switched out of WAL and not yet replaced.
    private var originalLeftWAL = false
    /// `PRAGMA data_version` once the lock was taken: it changes when another connection commits.
    private var lockedVersion: SQLiteValue?
    /// Whether SQLite rolled back an unfinished transaction (a hot journal) when the lock was taken.
    let rolledBackUnfinishedTransaction: Bool
    /// The store's metadata as ``inspect(bundle:)`` last read it under the lock, when it could.
    private(set) var metadata: StoreMetadata?
    /// Descriptors of the locked file and, for a WAL store, of its log, to copy them from: open until the
    /// lock is released, since closing a descriptor of the store earlier would release the process's locks on it.
    private var descriptor: Int32 = -1
    private var logDescriptor: Int32 = -1

    /// The store file (symbolic links followed).
    private var path: String { files.target }

    init(files: StoreFiles, timeoutMilliseconds: Int) throws(RemodelError) {
        self.files = files
        self.timeoutMilliseconds = timeoutMilliseconds
        // SQLite opens a read-only file read-only without a word, and the rename would then replace it anyway.
        try files.checkReplaceable()
        let path = files.target
        let hot = HotJournal.isHot(path)
        // A log another program left (a connection still open, or one that stopped without a checkpoint) is
        // kept as it is by a refused migration: the lock's connection must not fold it into the file on closing.
        let logWasThere = FileSystem.exists(atPath: path + "-wal")
        // Another migrator may replace the file while this one waits for the lock: then the lock is on the
        // old, replaced file. Take it again on the file the path names now (a few times at most).
        var attempt = 0
        var locked: (SQLiteConnection, isWAL: Bool)?
        while locked == nil {
            attempt += 1
            let before = Self.fileIdentity(path)
            let connection = try SQLiteConnection(path: path, mode: .readWrite, reportedAs: files.path)
            connection.setBusyTimeout(milliseconds: timeoutMilliseconds)
            if logWasThere { try connection.setCheckpointsOnClose(false) }
            let mode = try connection.scalar("PRAGMA journal_mode")
            do {
                try connection.execute("BEGIN IMMEDIATE")
            } catch {
                throw Self.busy(timeoutMilliseconds, files.path, error)
            }
            if attempt >= 3 || (before != nil && before == Self.fileIdentity(path)) {
                locked = (connection, mode == .text("wal"))
            } else {
                try? connection.execute("ROLLBACK")
            }
        }
        guard let (connection, isWAL) = locked else {
            throw RemodelError(.locked, "the store could not be locked", path: files.path)
        }
        self.connection = connection
        self.isWAL = isWAL
        rolledBackUnfinishedTransaction = hot && !HotJournal.mayBeHot(beside: path)
        if isWAL {
            try connection.execute("ROLLBACK")
            try waitForSoleAccess(connection)
            try connection.execute("ROLLBACK")
            try endSoleAccess(connection)
            do {
                try connection.execute("BEGIN IMMEDIATE")
            } catch {
                throw Self.busy(timeoutMilliseconds, files.path, error)
            }
        }
        lockedVersion = try connection.dataVersion()
        // The copies of the locked store read through these: a store that cannot be opened again is said so now,
        // not later as a lock already released.
        descriptor = open(path, O_RDONLY | O_CLOEXEC)
        guard descriptor >= 0 else {
            throw StoreFiles.ioError("cannot open the store to copy it while it is locked", path)
        }
        if isWAL {
            logDescriptor = open(path + "-wal", O_RDONLY | O_CLOEXEC)
            guard logDescriptor >= 0 else {
                throw StoreFiles.ioError("cannot open the store's write-ahead log to copy it", path + "-wal")
            }
        }
    }

    /// Copies the locked store, byte for byte, into a new file at `destination` (see ``/RemodelModel/FileCopy``). A WAL
    /// store's log is copied beside it (`-wal`): its committed pages may not be in the file yet, and SQLite
    /// reads them from the copy's log. The write lock keeps any writer from adding to the log meanwhile; a
    /// checkpoint by another connection only writes pages the log still has.
    ///
    /// The pages of `tablesLast` (tables the caller drops from the copy and reads again from the original,
    /// with their indexes) are copied after the rest: the caller's next reads of them, in the copy and in
    /// the original, then find them in the file cache, even when the store is larger than the cache.
    func copyStore(to destination: String, tablesLast: [String] = []) throws(RemodelError) {
        guard let connection, descriptor >= 0 else {
            throw RemodelError(.locked, "the store's lock was already released", path: files.path)
        }
        try FileCopy.copy(from: descriptor, to: destination, last: try byteRanges(of: tablesLast, on: connection))
        if logDescriptor >= 0 { try FileCopy.copy(from: logDescriptor, to: destination + "-wal") }
    }

    /// Where the pages of `tables` and of their indexes are in the store's file (``/RemodelModel/BTreePages``); none
    /// for a WAL store, whose newest pages may be in its log.
    private func byteRanges(of tables: [String], on connection: SQLiteConnection) throws(RemodelError) -> [Range<Int>] {
        var info = stat()
        guard !tables.isEmpty, !isWAL, fstat(descriptor, &info) == 0,
            case .integer(let pageSize)? = try connection.scalar("PRAGMA main.page_size"), pageSize > 0
        else { return [] }
        let names = Set(tables.map(SQLName.init))
        let roots = try connection.rows("SELECT tbl_name, rootpage FROM main.sqlite_master WHERE rootpage > 0")
            .compactMap { row -> Int? in
                guard case .text(let table) = row[0], names.contains(SQLName(table)),
                    case .integer(let root) = row[1]
                else { return nil }
                return Int(root)
            }
        guard
            let pages = BTreePages.pages(
                roots: roots, descriptor: descriptor, pageSize: Int(pageSize),
                pageCount: Int(info.st_size) / Int(pageSize))
        else { return [] }
        return BTreePages.byteRanges(of: pages, pageSize: Int(pageSize))
    }

    private static func busy(_ timeoutMilliseconds: Int, _ path: String, _ error: RemodelError) -> RemodelError {
        RemodelError(
            .locked,
            "another process is writing to the store; Remodel waited \(timeoutMilliseconds) ms for it to finish. Close the other program (or its transaction) and migrate again",
            path: path, cause: error)
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
    /// A WAL original first leaves WAL mode (see the type's documentation). The temporary store is
    /// given the original's journal mode and flushed to disk; the `-wal`, `-shm` and `-journal` files
    /// beside the original, which no connection uses any more (the lock keeps every writer out and
    /// the original has no log left), are removed while the lock still holds — after the rename they
    /// could belong to a connection already using the new store, and a log left beside a store is
    /// replayed into it; then the temporary store is renamed over the original and the folder flushed.
    /// All of it in the folder of the file the symbolic links lead to.
    /// - Returns: `false`, and nothing replaced, when another connection wrote to a WAL original in the
    ///   moment it left WAL mode: the temporary store lacks that write, so build it again from the
    ///   store as it is now (no write can pass the lock any more) and call this again.
    func replaceStore(with temporaryPath: String, backupPath: String?) throws(RemodelError) -> Bool {
        guard connection != nil else {
            throw RemodelError(.locked, "the store's lock was already released", path: files.path)
        }
        guard try leaveWriteAheadLogging() else { return false }
        do {
            // Closed before the file is flushed and fingerprinted: nothing changes it after that.
            let temporary = try SQLiteConnection(path: temporaryPath, mode: .readWrite)
            _ = try temporary.scalar(isWAL ? "PRAGMA journal_mode = WAL" : "PRAGMA journal_mode = DELETE")
        }
        try StoreFiles.copyPermissions(from: path, to: temporaryPath)
        try StoreFiles.synchronize(file: temporaryPath)
        if let backupPath {
            // The record goes first and comes back last, so no record ever pairs a backup with another store.
            BackupRecord.remove(for: backupPath)
            try StoreFiles.hardLink(path, as: backupPath)
            let original = BackupRecord.identity(of: backupPath) ?? []
            try BackupRecord(store: try StoreFingerprint.of(path: temporaryPath), backupFile: original).write(
                for: backupPath)
        }
        for suffix in StoreFiles.sidecarSuffixes {
            StoreFiles.removeStoreSidecar(path + suffix)
            FaultPoint.duringSidecarCleanup.reach()
        }
        FaultPoint.beforeRename.reach()
        try StoreFiles.replace(path, with: temporaryPath)
        originalLeftWAL = false
        FaultPoint.afterRename.reach()
        try StoreFiles.synchronize(directoryOf: path)
        return true
    }

    /// Puts the backup at `backupPath` in place of the locked store (`remodel rollback`), when the store's
    /// bytes are still `expected` — read through the lock's own descriptor, with no write passing the lock —
    /// and its write-ahead log holds nothing; a WAL store first leaves WAL mode, as before a migration's replace.
    /// - Returns: `false`, and nothing changed, when the store is not as expected.
    func restore(backupPath: String, ifStoreIs expected: StoreFingerprint) throws(RemodelError) -> Bool {
        guard connection != nil, descriptor >= 0 else {
            throw RemodelError(.locked, "the store's lock was already released", path: files.path)
        }
        if let log = BackupRecord.identity(of: path + "-wal"), log[2] > 0 { return false }
        guard try StoreFingerprint.of(descriptor: descriptor, path: files.path) == expected else { return false }
        guard try leaveWriteAheadLogging() else { return false }
        for suffix in StoreFiles.sidecarSuffixes { StoreFiles.removeStoreSidecar(path + suffix) }
        FaultPoint.beforeRename.reach()
        try StoreFiles.replace(path, with: backupPath)
        originalLeftWAL = false
        FaultPoint.afterRename.reach()
        try StoreFiles.synchronize(directoryOf: path)
        return true
    }

    /// Switches a WAL original to rollback journaling, its log checkpointed into the file, under
    /// SQLite's exclusive lock; then holds the lock as a write transaction again.
    ///
    /// The write transaction must end for the switch, and a connection that had the store open could
    /// write in that moment, before the exclusive lock is granted (or in the moment between letting go
    /// of it and taking the write lock again). `PRAGMA data_version` tells.
    /// - Returns: Whether the store is as it was when the lock was taken.
    private func leaveWriteAheadLogging() throws(RemodelError) -> Bool {
        guard isWAL, !originalLeftWAL, let connection else { return true }
        try connection.execute("ROLLBACK")
        try waitForSoleAccess(connection)
        var unchanged = try connection.dataVersion() == lockedVersion
        try connection.execute("ROLLBACK")
        guard try connection.scalar("PRAGMA journal_mode = DELETE") == .text("delete") else {
            try? endSoleAccess(connection)
            throw RemodelError(
                .locked, "SQLite did not take the store out of WAL mode; nothing was changed: migrate again",
                path: files.path)
        }
        originalLeftWAL = true
        FaultPoint.leftWAL.reach()
        // Letting go of exclusive locking deletes the journal the switch kept, while nobody else has the store.
        try endSoleAccess(connection)
        do {
            try connection.execute("BEGIN IMMEDIATE")
        } catch {
            throw Self.busy(timeoutMilliseconds, files.path, error)
        }
        let version = try connection.dataVersion()
        unchanged = unchanged && version == lockedVersion
        lockedVersion = version
        return unchanged
    }

    /// Takes SQLite's exclusive lock on a WAL store (`locking_mode = EXCLUSIVE`, then a transaction),
    /// which SQLite grants only when no other connection has the store open; waits for that up to the
    /// lock's timeout. Holding it changes nothing in the file. The caller is not in a transaction.
    /// - Throws: ``/RemodelModel/RemodelError/Code/locked`` when another connection keeps the store open.
    private func waitForSoleAccess(_ connection: SQLiteConnection) throws(RemodelError) {
        do {
            try connection.execute("PRAGMA locking_mode = EXCLUSIVE")
            try connection.execute("BEGIN IMMEDIATE")
        } catch {
            try? endSoleAccess(connection)
            throw RemodelError(
                .locked,
                "the store is in WAL mode and another connection has it open (Remodel waited \(timeoutMilliseconds) ms); a write through that connection could be lost when the store is replaced, so nothing was changed: close the other connections and migrate again",
                path: files.path, cause: error)
        }
    }

    /// Goes back to normal locking and lets go of the exclusive lock (SQLite does on the next read).
    private func endSoleAccess(_ connection: SQLiteConnection) throws(RemodelError) {
        try connection.execute("PRAGMA locking_mode = NORMAL")
        _ = try connection.scalar("SELECT count(*) FROM sqlite_master")
    }

    /// What the locked store is, read through the lock's own connection.
    ///
    /// While the lock is held, nothing in this process may open the store's file any other way:
    /// SQLite's locks are POSIX advisory locks, which belong to the process, and closing any other
    /// descriptor of the file (a `FileHandle` reading its header) silently releases them all.
    func inspect(bundle: ModelBundle) throws(RemodelError) -> StoreInspection {
        guard let connection else {
            throw RemodelError(.locked, "the store's lock was already released", path: files.path)
        }
        let state: StoreInspection.State
        var bundle = bundle
        metadata = nil
        switch try StoreMetadata.read(from: connection) {
        case .success(let metadata):
            self.metadata = metadata
            bundle = try StoreConfiguration.bundle(bundle, for: metadata, path: files.path)
            state = try SchemaDriftCheck.checked(
                try StoreInspector.classify(metadata, in: bundle).0, on: connection, bundle: bundle)
        case .failure: state = .notRemodelStore(reason: "its metadata is missing or damaged")
        }
        var inspection = StoreInspection(
            path: files.path, state: state, modelName: bundle.name, currentVersionName: bundle.currentVersionName,
            migrationSteps: nil)
        inspection.versionNames = bundle.versionNames
        inspection.adoptedModelName = metadata.flatMap {
            StoreInspector.adoptedVersion($0, in: bundle) != nil ? $0.modelName : nil
        }
        inspection.configuration = metadata?.configuration
        return inspection
    }

    /// Runs `body` with the lock's own connection: reading the store any other way would drop the lock.
    func withConnection<T>(_ body: (SQLiteConnection) throws(RemodelError) -> T) throws(RemodelError) -> T {
        guard let connection else {
            throw RemodelError(.locked, "the store's lock was already released", path: files.path)
        }
        return try body(connection)
    }

    /// Ends the lock's transaction and closes the connection.
    func release() {
        defer {
            // Only now: the connection is closed, so SQLite's locks are released anyway.
            for open in [descriptor, logDescriptor] where open >= 0 { close(open) }
            descriptor = -1
            logDescriptor = -1
        }
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
