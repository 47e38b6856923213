import Foundation
import Testing

@testable import Remodel
@testable import RemodelModel

/// A read of a store — its inspection (`status`), a plan (`--dry-run`), an export, the model it carries —
/// writes nothing beside it, also when a program left a WAL store's log and shared-memory index behind (it
/// stopped without a checkpoint): a `mode=ro` connection rebuilt the `-shm` (and, beside a `-shm` alone,
/// created a `-wal`). The reads see the data in the log.
@Suite struct ReadsWriteNothingTests {
    /// A "Library" store in WAL mode whose last write is in a log left beside it with its `-shm`; without
    /// `log`, the log is gone and a `-shm` alone is left.
    private func leftBehind(_ folder: TemporaryFolder, log: Bool) throws -> String {
        let store = folder.file("library.sqlite")
        try Reliability.makeStore(at: store, people: 10)
        try StoreStates.makeWAL(store)
        do {
            let writer = try SQLiteConnection(path: store, mode: .readWrite)
            try writer.setCheckpointsOnClose(false)
            try writer.execute("UPDATE Person SET lastName = 'Logged' WHERE _pk = 1")
            if !log { _ = try writer.rows("PRAGMA wal_checkpoint(TRUNCATE)") }
        }
        if !log { try FileManager.default.removeItem(atPath: store + "-wal") }
        try #require(
            try folder.contents()
                == (log
                    ? ["library.sqlite", "library.sqlite-shm", "library.sqlite-wal"]
                    : ["library.sqlite", "library.sqlite-shm"]))
        return store
    }

    @Test(arguments: [true, false]) func readsLeaveTheStoreItsLogAndItsIndexAsTheyWere(log: Bool) async throws {
        let folder = try TemporaryFolder()
        let store = try leftBehind(folder, log: log)
        let before = try FolderSnapshot(folder.path)
        let inspection = try StoreInspector.inspect(path: store, bundle: Reliability.library)
        #expect(inspection.state == .older(version: "Library", matchedBy: .name))
        #expect(try FolderSnapshot(folder.path) == before, "inspection")
        let plan = try Migrator(
            bundle: Reliability.library, options: MigrationOptions(mappingsDirectory: Reliability.mappingsPath)
        ).plan(storeAt: store)
        #expect(plan.steps.count == 2)
        #expect(try StoreInspector.carriedModel(path: store)?.versionName == "Library")
        #expect(try FolderSnapshot(folder.path) == before, "plan and carried model")
        #expect(try Reliability.status(store).status == 0)
        #expect(try Reliability.remodel(Reliability.migrateArguments(store) + ["--dry-run"]).status == 0)
        let output = try TemporaryFolder()
        let export = try Reliability.remodel([
            "export", store, "--model", Reliability.modelPath, "--output", output.file("export.json"),
        ])
        #expect(export.status == 0, "\(export)")
        #expect(
            try String(contentsOfFile: output.file("export.json"), encoding: .utf8).contains("\"lastName\": \"Logged\"")
        )
        #expect(try FolderSnapshot(folder.path) == before, "status, --dry-run, export")
    }

    /// A program writing a WAL store closes its last connection between the reader's look (a `-wal` and
    /// a `-shm`: read with the side files) and its read: SQLite checkpoints and deletes the log, and a
    /// read-only connection cannot open it again ("unable to open database file", which made a migration
    /// racing an app's writes exit 75). The read looks again and reads the store whole, and leaves no log
    /// behind (a read-only connection of SQLite's default VFS creates the log it cannot find). A program that
    /// opens and closes its connection in a loop can do it at look after look (25 times in a row under load
    /// in a `.ci/run`, session 15): after ``StoreSnapshot/unsharedReads`` the read shares the store as that
    /// program does, and SQLite keeps the log while it reads.
    @Test(arguments: [1, StoreSnapshot.unsharedReads, StoreSnapshot.unsharedReads + 5])
    func aLogDeletedBetweenTheLookAndTheReadIsReadAgain(losses: Int) throws {
        let folder = try TemporaryFolder()
        let store = folder.file("library.sqlite")
        try Reliability.makeStore(at: store, people: 10)
        try StoreStates.makeWAL(store)
        var writer: SQLiteConnection? = try SQLiteConnection(path: store, mode: .readWrite)
        try writer?.execute("UPDATE Person SET lastName = 'Logged' WHERE _pk = 1")
        try #require(folder.contents().contains("library.sqlite-wal"))
        var attempts = 0
        var failures: [Int32] = []
        let logged = try StoreSnapshot.reading(store) { (snapshot) throws(RemodelError) -> SQLiteValue? in
            attempts += 1
            let connection = try snapshot.connection()
            if attempts <= losses { writer = nil }
            do throws(RemodelError) {
                return try connection.scalar("SELECT count(*) FROM Person WHERE lastName = 'Logged'")
            } catch {
                failures.append(error.sqliteCode ?? 0)
                if attempts < losses {
                    // The program writes again: the next look finds a log.
                    writer = try SQLiteConnection(path: store, mode: .readWrite)
                    try writer?.execute("UPDATE Person SET lastName = 'Logged' WHERE _pk = \(attempts + 1)")
                }
                throw error
            }
        }
        let lost = min(losses, StoreSnapshot.unsharedReads)
        #expect(writer == nil && attempts == lost + 1)
        #expect(failures.map { $0 & 0xFF } == Array(repeating: 14, count: lost))
        #expect(logged == .integer(Int64(min(losses, lost + 1))))
        #expect(try folder.contents() == ["library.sqlite"])
    }

    /// A read without a lock that fails while a program checkpoints into the file (SQLite then may meet a torn
    /// page: "database disk image is malformed") is read again, and the second read's answer is the store's.
    @Test func aReadThatFailsWhileTheFileChangesIsReadAgain() throws {
        let folder = try TemporaryFolder()
        let store = folder.file("library.sqlite")
        try Reliability.makeStore(at: store, people: 10)
        try StoreStates.makeWAL(store)
        var attempts = 0
        let logged = try StoreSnapshot.reading(store) { (snapshot) throws(RemodelError) -> SQLiteValue? in
            attempts += 1
            let connection = try snapshot.connection()
            if attempts == 1 {
                let writer = try SQLiteConnection(path: store, mode: .readWrite)
                try writer.execute("UPDATE Person SET lastName = 'Logged' WHERE _pk = 1")
                throw RemodelError.sqlite(11, message: "database disk image is malformed", path: store)
            }
            return try connection.scalar("SELECT count(*) FROM Person WHERE lastName = 'Logged'")
        }
        #expect(attempts == 2)
        #expect(logged == .integer(1))
    }

    /// A program writes and checkpoints a WAL store while it is read without a lock (no `-wal` at the look:
    /// immutably), at every read: each read may mix two states, so it is read again, and at last shared
    /// with SQLite's locks. The answer holds every write made before it.
    @Test func aStoreWrittenAtEveryUnlockedReadIsReadAtLastWithLocks() throws {
        let folder = try TemporaryFolder()
        let store = folder.file("library.sqlite")
        try Reliability.makeStore(at: store, people: 10)
        try StoreStates.makeWAL(store)
        try #require(try folder.contents() == ["library.sqlite"])
        var attempts = 0
        let logged = try StoreSnapshot.reading(store) { (snapshot) throws(RemodelError) -> SQLiteValue? in
            attempts += 1
            let connection = try snapshot.connection()
            if attempts <= StoreSnapshot.unsharedReads + 2 {
                let writer = try SQLiteConnection(path: store, mode: .readWrite)
                try writer.execute("UPDATE Person SET lastName = 'Logged' WHERE _pk = \(attempts)")
            }
            return try connection.scalar("SELECT count(*) FROM Person WHERE lastName = 'Logged'")
        }
        #expect(attempts == StoreSnapshot.unsharedReads + 1)
        #expect(logged == .integer(Int64(attempts)))
        #expect(try folder.contents() == ["library.sqlite"])
    }
}
