import Foundation
import Testing

@testable import Remodel
@testable import RemodelModel

/// Stores in the states programs leave them in: a write stopped halfway (a hot journal), WAL mode.
enum StoreStates {
    /// Leaves the store at `store` as a program that stopped in the middle of a write leaves it: part
    /// of an unfinished transaction in the file, and the pages it overwrote in a hot `-journal`.
    ///
    /// The transaction runs on a copy with a two-page cache, so that SQLite spills it into the file;
    /// the copy and its journal are then copied over the store, as a crash at that moment leaves them.
    static func leaveHotJournal(in store: String, changing column: String = "lastName") throws {
        let scratch = store + ".writing"
        try FileManager.default.copyItem(atPath: store, toPath: scratch)
        defer { StoreFiles.remove(scratch) }
        let writer = try SQLiteConnection(path: scratch, mode: .readWrite)
        try writer.execute("PRAGMA cache_size = 2")
        try writer.execute("BEGIN")
        try writer.execute(
            "UPDATE \"Person\" SET \"\(column)\" = \"\(column)\" || '\(String(repeating: "unfinished ", count: 20))'")
        let store = URL(fileURLWithPath: store)
        let journal = URL(fileURLWithPath: store.path + "-journal")
        try fileBytes(scratch).write(to: store)
        try fileBytes(scratch + "-journal").write(to: journal)
        try? writer.execute("ROLLBACK")
    }

    /// Whether SQLite sees a hot journal beside the store: a read-only connection cannot read it.
    static func hasHotJournal(_ store: String) -> Bool {
        do {
            _ = try SQLiteConnection(path: store, mode: .readOnly).scalar("SELECT count(*) FROM sqlite_master")
            return false
        } catch {
            return error.sqliteCode == 776
        }
    }

    /// Switches the store to WAL mode (closing the connection removes `-wal` and `-shm` again).
    static func makeWAL(_ store: String) throws {
        let connection = try SQLiteConnection(path: store, mode: .readWrite)
        #expect(try connection.scalar("PRAGMA journal_mode = WAL") == .text("wal"))
    }

    /// A store of `people` people at version "Library", and the exports of it before and after a clean
    /// migration to "Library 3" (with `Mappings/`), made in a folder of their own.
    static func libraryExports(people: Int) throws -> (old: String, new: String) {
        let folder = try TemporaryFolder()
        let store = folder.file("expected.sqlite")
        try Reliability.makeStore(at: store, people: people)
        let old = try Reliability.export(store)
        let outcome = try Reliability.migrate(store)
        guard outcome.status == 0 else { throw RemodelError(.io, "the clean migration failed: \(outcome)") }
        return (old, try Reliability.export(store))
    }
}
