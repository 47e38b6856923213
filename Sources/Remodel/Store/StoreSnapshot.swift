internal import Foundation
internal import RemodelSQLite

/// Reads a store without changing a byte in it or beside it, whatever state a program left it in:
///
/// - with a hot journal (a program stopped in the middle of a write), from a private copy rolled back
///   in the temporary folder: the store as it is once SQLite rolls it back (see ``HotJournal``);
/// - in WAL mode with no `-wal` beside it (no connection has it open, its log is empty; a `-shm` may be
///   left over), with SQLite's `immutable=1`: a `mode=ro` connection would create the files and, not
///   allowed to delete them, leave them behind. Such a connection takes no lock, so a program that
///   opened the store meanwhile and checkpointed into it could tear what it reads: ``checkUnchanged()``
///   tells, by the file's size and times, and a reader then reads again;
/// - in WAL mode with a `-wal` but no `-shm` (a store copied out of a device or a backup with its log:
///   a `mode=ro` connection would create the `-shm` beside it), from a private copy of the store and
///   its `-wal` in the temporary folder, where SQLite reads the log;
/// - in WAL mode with its `-wal` and `-shm`, read-only with the `-shm` opened read-only too
///   (`readonly_shm=1`): a `mode=ro` connection writes read marks into the `-shm`, and rebuilds it when
///   no connection has it open; SQLite reads the log itself when it cannot use the `-shm` as it is;
/// - otherwise (a rollback-journal store) read-only (`mode=ro`).
///
/// A WAL store that a program keeps writing, opening and closing its connection, can defeat every read
/// without SQLite's locks: ``reading(_:_:)`` then reads it once more as that program does (`sharing`).
///
/// The snapshot opens the store's file itself (its header, and the file when immutable or copied):
/// closing such a descriptor drops every POSIX lock this process holds on the file, SQLite's
/// included, so never read a snapshot of a store this process holds in a transaction.
final class StoreSnapshot {
    /// The store path as given.
    let path: String
    /// The file read: the store (symbolic links followed) or its rolled-back copy.
    let readPath: String
    /// Whether the store has a hot journal, so that `readPath` is a private copy rolled back.
    let rolledBack: Bool
    /// Whether `readPath` is a private copy of a WAL store and its `-wal` (there was no `-shm`).
    private var copiedWithLog = false
    private let copyFolder: String?
    private var opened: SQLiteConnection?
    /// The read file's identity, size and times when an immutable connection was opened on it.
    private var unlockedFrom: [Int]?
    /// Whether a WAL store is read with SQLite's locks, as its writers read it (see ``init(path:sharing:)``).
    private let sharing: Bool

    /// Looks at the store's files; copies and rolls back when the journal is hot.
    ///
    /// A snapshot that is `sharing` reads a WAL store as the programs writing it do, read-write with SQLite's
    /// locks (writes refused, `query_only`): SQLite then keeps the log while the snapshot reads. Closing,
    /// SQLite may checkpoint the log and delete it, as the writing program's own close does; nothing else
    /// changes. ``reading(_:_:)`` shares a store only once reads without locks did not hold.
    /// - Throws: ``/RemodelModel/RemodelError`` with ``/RemodelModel/RemodelError/Code/io`` when a hot journal's copy
    ///   cannot be made.
    init(path: String, sharing: Bool = false) throws(RemodelError) {
        self.path = path
        self.sharing = sharing
        let target = try FileSystem.resolvingLinks(path)
        if HotJournal.isHot(target), let copy = try HotJournal.copy(of: target, path: path) {
            readPath = copy.store
            copyFolder = copy.folder
            rolledBack = true
        } else if StoreFileHeader.isWAL(path: target), Self.exists(target + "-wal"), !Self.exists(target + "-shm"),
            let copy = try Self.copyWithLog(target, path: path)
        {
            readPath = copy.store
            copyFolder = copy.folder
            rolledBack = false
            copiedWithLog = true
        } else {
            readPath = target
            copyFolder = nil
            rolledBack = false
        }
    }

    /// Copies a WAL store and its `-wal` into a new private folder of the temporary folder; `nil` when the
    /// copy cannot be made (the store is then read in place, as before).
    private static func copyWithLog(_ target: String, path: String) throws(RemodelError) -> (
        folder: String, store: String
    )? {
        let (folder, failure) = FileSystem.makePrivateFolder(prefix: "remodel-wal")
        guard failure == nil else { return nil }
        let copy = folder + "/" + URL(fileURLWithPath: target).lastPathComponent
        do throws(RemodelError) {
            _ = try FileCopy.copyIfPresent(target + "-wal", to: copy + "-wal")
            guard try FileCopy.copyIfPresent(target, to: copy) else {
                throw RemodelError(.io, "the store disappeared while it was being read", path: path)
            }
        } catch {
            try? FileManager.default.removeItem(atPath: folder)
            return nil
        }
        return (folder, copy)
    }

    /// How many times ``reading(_:_:)`` reads a store without taking part in SQLite's locking before it
    /// shares the store with the program writing it (see ``init(path:sharing:)``).
    static let unsharedReads = 3

    /// Runs `body` on a snapshot of the store at `path`, and again on a new snapshot when a read without
    /// SQLite's locks did not hold: the file changed meanwhile (``checkUnchanged()``), or the log went away
    /// between the look and the read (``lostItsLog(_:)``).
    ///
    /// A program that opens and closes its connection in a loop can do either at look after look, since each
    /// of its closes checkpoints and deletes its log. After ``unsharedReads`` such reads the last one shares
    /// the store: it opens it as that program does, so SQLite keeps the log while it reads.
    static func reading<T>(_ path: String, _ body: (StoreSnapshot) throws(RemodelError) -> T) throws(RemodelError) -> T
    {
        var attempts = 0
        while true {
            attempts += 1
            let snapshot = try StoreSnapshot(path: path, sharing: attempts > Self.unsharedReads)
            let result: Result<T, RemodelError>
            do {
                result = .success(try body(snapshot))
            } catch {
                result = .failure(error)
            }
            // A read that failed is read again too when the file changed under it: what it tripped on (a page
            // torn by another program's checkpoint) may not be in the store.
            var lostItsLog = false
            if case .failure(let error) = result { lostItsLog = snapshot.lostItsLog(error) }
            guard lostItsLog || snapshot.changedSinceOpened else { return try result.get() }
            usleep(useconds_t(attempts * 1_000))
        }
    }

    deinit {
        opened = nil
        if let copyFolder { try? FileManager.default.removeItem(atPath: copyFolder) }
    }

    /// The connection that reads the store (opened on first use, then kept); errors name `path`.
    func connection() throws(RemodelError) -> SQLiteConnection {
        if let opened { return opened }
        let connection: SQLiteConnection
        if rolledBack || copiedWithLog {
            // The copy is private: opened once for writing, SQLite rolls its journal back on the first read.
            connection = try SQLiteConnection(path: readPath, mode: .readWrite, reportedAs: path)
            _ = try connection.scalar("SELECT count(*) FROM sqlite_master")
            try connection.execute("PRAGMA query_only = ON")
        } else if sharing, StoreFileHeader.isWAL(path: readPath) {
            connection = try SQLiteConnection(path: readPath, mode: .readWrite, reportedAs: path)
            try connection.execute("PRAGMA query_only = ON")
        } else if StoreFileHeader.isWAL(path: readPath), !Self.exists(readPath + "-wal") {
            unlockedFrom = Self.fingerprint(readPath)
            connection = try SQLiteConnection(immutable: readPath, reportedAs: path)
        } else if StoreFileHeader.isWAL(path: readPath) {
            connection = try SQLiteConnection(readingSideFiles: readPath, reportedAs: path)
        } else {
            connection = try SQLiteConnection(path: readPath, mode: .readOnly, reportedAs: path)
        }
        opened = connection
        return connection
    }

    /// Whether `error` is SQLite's "unable to open" on a WAL store read without SQLite's locks, whose `-wal`
    /// went away while it was read (the last connection of the program writing it closed, checkpointing and
    /// deleting its log): a read-only connection cannot create the log again. That happens to a store read
    /// with its side files, and to one read immutably when a program wrote a log after the look and closed
    /// again. A new look reads it whole.
    private func lostItsLog(_ error: RemodelError) -> Bool {
        guard let code = error.sqliteCode, code & 0xFF == SQLITE_CANTOPEN, !rolledBack, !copiedWithLog, !sharing
        else {
            return false
        }
        return StoreFileHeader.isWAL(path: readPath)
    }

    /// Throws when the store was read without a lock (immutable) and its file has changed since: what
    /// was read may mix two states. Call it after reading.
    /// - Throws: ``/RemodelModel/RemodelError`` with ``/RemodelModel/RemodelError/Code/locked``: read again.
    func checkUnchanged() throws(RemodelError) {
        guard changedSinceOpened else { return }
        throw RemodelError(
            .locked,
            "another program wrote to the store while it was being read, so what was read may mix two states; read it again",
            path: path)
    }

    /// Whether the store was read without a lock (immutable) and its file has changed since.
    private var changedSinceOpened: Bool {
        guard let unlockedFrom else { return false }
        return Self.fingerprint(readPath) != unlockedFrom
    }

    /// Device, inode, size, and modification and change times (ns) of a file; empty when it is gone.
    private static func fingerprint(_ path: String) -> [Int] {
        var info = stat()
        guard stat(path, &info) == 0 else { return [] }
        return [
            Int(info.st_dev), Int(info.st_ino), Int(info.st_size), info.st_mtim.tv_sec, info.st_mtim.tv_nsec,
            info.st_ctim.tv_sec,
            info.st_ctim.tv_nsec,
        ]
    }

    private static func exists(_ path: String) -> Bool {
        var info = stat()
        return lstat(path, &info) == 0
    }
}
