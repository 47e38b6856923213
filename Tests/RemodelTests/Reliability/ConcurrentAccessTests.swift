import Foundation
import Testing

@testable import Remodel
@testable import RemodelModel

/// Other processes using the store while `remodel migrate` runs: writers never lose an
/// acknowledged write, a second migrator waits or fails cleanly, readers see the old data,
/// and a connection left open on the replaced file cannot write into it.
@Suite(.serialized, .tags(.concurrency), .skippable(.concurrency)) struct ConcurrentAccessTests {
    /// An `sqlite3` shell on the store, fed commands through a pipe.
    final class Shell {
        let process = Process()
        private let input = Pipe()
        private let output = Pipe()

        init(_ path: String) throws {
            process.executableURL = URL(fileURLWithPath: "/usr/bin/env")
            process.arguments = ["sqlite3", "-batch", path]
            process.standardInput = input
            process.standardOutput = output
            process.standardError = FileHandle.nullDevice
            try process.run()
        }

        /// Sends SQL, then waits until the shell has run it (it echoes a marker).
        func run(_ sql: String) {
            let marker = "done-\(UUID().uuidString)"
            input.fileHandleForWriting.write(Data((sql + "\nSELECT '\(marker)';\n").utf8))
            var seen = ""
            while !seen.contains(marker) {
                let data = output.fileHandleForReading.availableData
                if data.isEmpty { break }
                seen += String(decoding: data, as: UTF8.self)
            }
        }

        func close() {
            try? input.fileHandleForWriting.close()
            process.waitUntilExit()
        }
    }

    private static var sqlite3Exists: Bool {
        ProcessInfo.processInfo.environment["PATH"]?.split(separator: ":")
            .contains { FileManager.default.isExecutableFile(atPath: "\($0)/sqlite3") } ?? false
    }

    /// Another process holds the write lock (as a first migrator does: `BEGIN IMMEDIATE`):
    /// a second migrator fails with `locked` and one sentence, and changes nothing.
    @Test(.enabled(if: sqlite3Exists)) func secondMigratorFailsCleanlyWhileTheLockIsHeld() async throws {
        let folder = try TemporaryFolder()
        let store = folder.file("library.sqlite")
        try Reliability.makeStore(at: store, people: 20)
        let before = try fileBytes(store)
        let shell = try Shell(store)
        shell.run("BEGIN IMMEDIATE;")
        var options = MigrationOptions(mappingsDirectory: Reliability.mappingsPath)
        options.lockTimeoutMilliseconds = 200
        let error = await #expect(throws: RemodelError.self) {
            _ = try await Migrator(bundle: Reliability.library, options: options).migrate(storeAt: store)
        }
        #expect(error?.code == .locked)
        #expect(error?.description.contains("\n") == false)
        shell.run("ROLLBACK;")
        shell.close()
        #expect(try fileBytes(store) == before)
        #expect(try folder.contents() == ["library.sqlite"])
    }

    /// The lock is let go while `remodel migrate` waits for it: the migration then runs.
    @Test(.enabled(if: sqlite3Exists)) func migratorWaitsForAWriterToFinish() throws {
        let folder = try TemporaryFolder()
        let store = folder.file("library.sqlite")
        try Reliability.makeStore(at: store, people: 20)
        let shell = try Shell(store)
        shell.run("BEGIN IMMEDIATE; UPDATE \"Person\" SET \"lastName\" = 'Written' WHERE \"_pk\" = 1;")
        let child = try Reliability.start(Reliability.migrateArguments(store))
        usleep(700_000)
        shell.run("COMMIT;")
        shell.close()
        let outcome = child.wait()
        #expect(outcome.status == 0, "\(outcome)")
        let connection = try SQLiteConnection(path: store, mode: .readOnly)
        #expect(try connection.scalar("SELECT \"fullName\" FROM \"Person\" WHERE \"_pk\" = 1") == .text("Ada1 Written"))
    }

    /// Two `remodel migrate` at once: both succeed, one waits, then finds nothing to do; the store is
    /// migrated once, whole (more rounds, WAL mode and launches: ``TwoProcessMigrationTests``).
    @Test func twoMigratorsAtOnce() throws {
        let folder = try TemporaryFolder()
        let store = folder.file("library.sqlite")
        try Reliability.makeStore(at: store, people: 2_000)
        let first = try Reliability.start(Reliability.migrateArguments(store))
        let second = try Reliability.start(Reliability.migrateArguments(store))
        let outcomes = [first.wait(), second.wait()]
        #expect(outcomes.allSatisfy { $0.status == 0 }, "\(outcomes)")
        #expect(outcomes.filter { $0.output.contains("Migrated") }.count == 1, "\(outcomes)")
        #expect(try Reliability.version(store) == "Library 3")
        #expect(try Reliability.integrity(store) == "ok")
        #expect(try folder.contents() == ["library.sqlite"])
    }

    /// A writer in this process inserts people as fast as it can while `remodel migrate` runs in
    /// another: every insert SQLite acknowledged is in the store afterwards, migrated or not; the others
    /// failed (busy, moved database, or the new schema). Readers see either the old or the new store, whole.
    ///
    /// The migration either succeeds or is refused cleanly, the store untouched: it may wait for the
    /// writer longer than its lock timeout on a loaded machine, and a WAL store is refused while another
    /// connection has it open. Which writes are looked for depends on the version the store is at, and a
    /// failure says what happened: the migration's exit and output, the version, every count.
    @Test(arguments: [false, true]) func acknowledgedWritesAreNeverLost(wal: Bool) throws {
        let folder = try TemporaryFolder()
        let store = folder.file("library.sqlite")
        try Reliability.makeStore(at: store, people: 1_000)
        if wal {
            _ = try SQLiteConnection(path: store, mode: .readWrite).scalar("PRAGMA journal_mode = WAL")
        }
        let child = try Reliability.start(Reliability.migrateArguments(store) + ["--batch-size", "20"])
        var acknowledged: [Int] = []
        var refused: [Int32: Int] = [:]
        var versionsSeen: Set<String> = []
        var attempt = 0
        repeat {
            attempt += 1
            do {
                let writer = try SQLiteConnection(path: store, mode: .readWrite)
                writer.setBusyTimeout(milliseconds: 5)
                try writer.run(
                    "INSERT INTO \"Person\" (\"_pk\", \"_entity\", \"firstName\", \"lastName\") VALUES (?, 'Person', 'Writer', ?)",
                    [.integer(Int64(100_000 + attempt)), .text(String(attempt))])
                acknowledged.append(attempt)
            } catch {
                refused[error.sqliteCode ?? -1, default: 0] += 1
            }
            if let version = try? Reliability.version(store) { versionsSeen.insert(version) }
        } while child.process.isRunning
        let outcome = child.wait()
        let version = try Reliability.version(store)
        let happened =
            "the migration: \(outcome); the store is at \(version ?? "no version"); \(acknowledged.count) of \(attempt) inserts acknowledged, refused by SQLite code: \(refused)"
        let cleanRefusals = ["another process is writing to the store", "another connection has it open"]
        let refusedCleanly =
            (outcome.status == 1 || outcome.status == 75) && cleanRefusals.contains { outcome.error.contains($0) }
            && version == "Library"
        #expect(outcome.status == 0 || refusedCleanly, "\(happened)")
        #expect(versionsSeen.isSubset(of: ["Library", "Library 3"]), "\(versionsSeen); \(happened)")
        #expect(try Reliability.integrity(store) == "ok")
        #expect(Set(refused.keys).isSubset(of: [5, 517, 1032, 1]), "\(happened)")

        let connection = try SQLiteConnection(path: store, mode: .readOnly)
        var found: Set<String> = []
        let written: String
        switch version {
        case "Library": written = "SELECT 'Writer ' || \"lastName\" FROM \"Person\" WHERE \"firstName\" = 'Writer'"
        case "Library 3": written = "SELECT \"fullName\" FROM \"Person\" WHERE \"fullName\" LIKE 'Writer %'"
        default:
            Issue.record("the store is at no version it could be at: \(happened)")
            return
        }
        for row in try connection.rows(written) {
            if case .text(let name)? = row.first { found.insert(name) }
        }
        let lost = acknowledged.filter { !found.contains("Writer \($0)") }
        #expect(lost.isEmpty, "acknowledged but not in the store: \(lost.prefix(10)) (\(lost.count)); \(happened)")
        #expect(attempt > 1)
    }

    /// A reader in a read transaction keeps seeing the old data while the file is replaced
    /// (rollback journal mode: the migrator never needs more than a RESERVED lock on the original).
    @Test func readerInATransactionKeepsSeeingTheOldStore() throws {
        let folder = try TemporaryFolder()
        let store = folder.file("library.sqlite")
        try Reliability.makeStore(at: store, people: 50)
        let reader = try SQLiteConnection(path: store, mode: .readOnly)
        try reader.execute("BEGIN")
        let before = try reader.rows("SELECT \"_pk\", \"firstName\", \"lastName\" FROM \"Person\" ORDER BY \"_pk\"")
        let outcome = try Reliability.migrate(store)
        #expect(outcome.status == 0, "\(outcome)")
        #expect(
            try reader.rows("SELECT \"_pk\", \"firstName\", \"lastName\" FROM \"Person\" ORDER BY \"_pk\"") == before)
        try reader.execute("COMMIT")
        #expect(try Reliability.version(store) == "Library 3")
    }

    /// In WAL mode a reader still in a transaction keeps the log from being emptied: the
    /// migration stops with `locked` and one sentence, and changes nothing.
    @Test func walReaderInATransactionStopsTheMigrationCleanly() throws {
        let folder = try TemporaryFolder()
        let store = folder.file("library.sqlite")
        try Reliability.makeStore(at: store, people: 50)
        let writer = try SQLiteConnection(path: store, mode: .readWrite)
        _ = try writer.scalar("PRAGMA journal_mode = WAL")
        try writer.execute("UPDATE \"Person\" SET \"lastName\" = 'InTheLog' WHERE \"_pk\" = 1")
        let reader = try SQLiteConnection(path: store, mode: .readOnly)
        try reader.execute("BEGIN")
        _ = try reader.rows("SELECT count(*) FROM \"Person\"")
        let outcome = try Reliability.migrate(store)
        try reader.execute("COMMIT")
        if outcome.status != 0 {
            #expect(
                outcome.error.contains("close the other connections and migrate again")
                    || outcome.error.contains("another process"), "\(outcome)")
            #expect(try Reliability.version(store) == "Library")
        } else {
            #expect(try Reliability.version(store) == "Library 3")
        }
        #expect(try folder.contents().filter { $0.contains(".remodel-") }.isEmpty)
    }

    /// A connection opened on the store before the migration cannot write into the replaced
    /// file: SQLite refuses with SQLITE_READONLY_DBMOVED (extended code 1032).
    @Test func connectionOnTheReplacedFileCannotWrite() throws {
        let folder = try TemporaryFolder()
        let store = folder.file("library.sqlite")
        try Reliability.makeStore(at: store, people: 20)
        let stale = try SQLiteConnection(path: store, mode: .readWrite)
        #expect(try stale.scalar("SELECT count(*) FROM \"Person\"") == .integer(20))
        let outcome = try Reliability.migrate(store)
        #expect(outcome.status == 0, "\(outcome)")
        let error = #expect(throws: RemodelError.self) {
            try stale.run(
                "INSERT INTO \"Person\" (\"_pk\", \"_entity\", \"firstName\", \"lastName\") VALUES (999, 'Person', 'Lost', 'Write')"
            )
        }
        #expect(error?.sqliteCode == 1032, "\(String(describing: error))")
        #expect(try Reliability.version(store) == "Library 3")
        let fresh = try SQLiteConnection(path: store, mode: .readOnly)
        #expect(try fresh.scalar("SELECT count(*) FROM \"Person\"") == .integer(20))
    }

    /// In WAL mode SQLite checks DBMOVED only for rollback journals, so a connection opened before
    /// the replace could commit into the replaced file's log and lose the write. Remodel therefore
    /// refuses to replace a WAL store while another connection has it open: nothing changes, and
    /// that connection's writes land in the store as usual.
    @Test func walStoreWithAnotherConnectionOpenIsRefusedAndLosesNothing() throws {
        let folder = try TemporaryFolder()
        let store = folder.file("library.sqlite")
        try Reliability.makeStore(at: store, people: 20)
        let other = try SQLiteConnection(path: store, mode: .readWrite)
        _ = try other.scalar("PRAGMA journal_mode = WAL")
        #expect(try other.scalar("SELECT count(*) FROM \"Person\"") == .integer(20))
        let outcome = try Reliability.migrate(store)
        #expect(
            outcome.status == 75,
            "refused for now, transiently (EX_TEMPFAIL): once the connection closes a retry works: \(outcome)")
        #expect(outcome.error.contains("another connection has it open"), "\(outcome)")
        #expect(outcome.error.split(separator: "\n").count == 1, "\(outcome)")
        try other.run(
            "INSERT INTO \"Person\" (\"_pk\", \"_entity\", \"firstName\", \"lastName\") VALUES (999, 'Person', 'Kept', 'Write')"
        )
        #expect(try Reliability.version(store) == "Library")
        #expect(try other.scalar("PRAGMA journal_mode") == .text("wal"))
        #expect(
            try SQLiteConnection(path: store, mode: .readOnly).scalar("SELECT count(*) FROM \"Person\"") == .integer(21)
        )
        #expect(try folder.contents().filter { $0.contains(".remodel-") }.isEmpty)
    }
}
