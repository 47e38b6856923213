import Foundation
import Testing

@testable import Remodel
@testable import RemodelModel

/// No write can reach the store while it is migrated, nor land in the replaced file afterwards.
@Suite struct LockMigrationTests {
    private static let options = MigrationOptions(mappingsDirectory: MigrationFixtures.libraryMappings, batchSize: 1)

    private func library() throws -> MigrationCase {
        try MigrationCase(bundle: try MigrationFixtures.library(), seed: MigrationFixtures.path("Library", "seed.json"))
    }

    /// What another writer got while the migration was in phase 1.
    private struct Attempts: Sendable {
        var connectionError: Int32?
        var connectionRead: Int64?
        var cliStatus: Int32?
        var cliOutput = ""
    }

    private static func sqlite3CLI(_ path: String, _ sql: String) -> (Int32, String)? {
        let process = Process()
        process.executableURL = URL(fileURLWithPath: "/usr/bin/env")
        process.arguments = ["sqlite3", "-cmd", ".timeout 100", path, sql]
        let pipe = Pipe()
        process.standardOutput = pipe
        process.standardError = pipe
        guard (try? process.run()) != nil else { return nil }
        let data = pipe.fileHandleForReading.readDataToEndOfFile()
        process.waitUntilExit()
        return (process.terminationStatus, String(decoding: data, as: UTF8.self))
    }

    /// While the migration holds the store, a second connection and a second process (the `sqlite3`
    /// tool) can read but their writes fail with SQLITE_BUSY; none of them reaches the result.
    @Test func otherWritersAreKeptOutDuringTheMigration() async throws {
        let migration = try library()
        let store = migration.store
        let attempts = Collector<Attempts>()
        try await migration.migrate(Self.options) { value in
            guard value.phase == .instances, attempts.values.isEmpty else { return }
            var attempt = Attempts()
            do throws(RemodelError) {
                let other = try SQLiteConnection(path: store, mode: .readWrite)
                other.setBusyTimeout(milliseconds: 50)
                attempt.connectionRead = try other.scalar("SELECT count(*) FROM Person")?.integerValue
                try other.run("UPDATE Person SET email = 'intruder@example.com'")
            } catch {
                attempt.connectionError = error.sqliteCode
            }
            if let (status, output) = Self.sqlite3CLI(store, "UPDATE Person SET email = 'cli@example.com';") {
                attempt.cliStatus = status
                attempt.cliOutput = output
            }
            attempts.append(attempt)
        }
        let attempt = try #require(attempts.values.first)
        #expect(attempt.connectionRead == 3, "readers keep reading")
        #expect(attempt.connectionError.map { $0 & 0xFF } == 5, "SQLITE_BUSY")
        #expect(attempt.cliStatus != nil && attempt.cliStatus != 0)
        #expect(attempt.cliOutput.contains("locked"), "\(attempt.cliOutput)")
        let export = try migration.export()
        #expect(!export.contains("intruder") && !export.contains("cli@"))
        expectSameText(export, try MigrationFixtures.text("Library", "expected-3.json"))
    }

    /// A connection opened on the old file before the migration gets SQLITE_READONLY_DBMOVED (1032) when
    /// it tries to write after the replace, so no write lands in the replaced file.
    @Test func aConnectionToTheReplacedFileCannotWrite() async throws {
        let migration = try library()
        let old = try SQLiteConnection(path: migration.store, mode: .readWrite)
        #expect(try old.scalar("SELECT count(*) FROM Person") == .integer(3))
        try await migration.migrate(Self.options)
        var code: Int32?
        do throws(RemodelError) {
            try old.run("UPDATE Person SET email = 'late@example.com'")
        } catch {
            code = error.sqliteCode
        }
        #expect(code == 1032)
        #expect(!(try migration.export().contains("late@")))
        #expect(try migration.folder.contents() == ["store.sqlite"])
    }

    /// A store in WAL mode is not replaced while another connection has it open (a write through it
    /// could land in the replaced file's log and be lost): the migration is refused and nothing
    /// changes. Once that connection is closed, the store is migrated with every change of its log
    /// and stays in WAL mode; no `-wal`/`-shm` of the old file is left.
    @Test func walStoreIsReplacedWhole() async throws {
        let migration = try library()
        var writer: SQLiteConnection? = try SQLiteConnection(path: migration.store, mode: .readWrite)
        #expect(try writer?.scalar("PRAGMA journal_mode = WAL") == .text("wal"))
        _ = try writer?.scalar("PRAGMA wal_autocheckpoint = 0")
        try writer?.run("UPDATE Book SET title = 'Walled' WHERE _pk = 12")
        #expect(try migration.folder.contents().contains("store.sqlite-wal"))
        var impatient = Self.options
        impatient.lockTimeoutMilliseconds = 100
        let refusal = await #expect(throws: RemodelError.self) { try await migration.migrate(impatient) }
        #expect(refusal?.code == .locked)
        #expect(refusal?.message.contains("close the other connections and migrate again") == true)
        try writer?.run("UPDATE Book SET title = 'Walled' WHERE _pk = 12")
        writer = nil
        try await migration.migrate(Self.options)
        #expect(try migration.folder.contents() == ["store.sqlite"])
        let connection = try SQLiteConnection(path: migration.store, mode: .readOnly)
        #expect(try connection.scalar("PRAGMA journal_mode") == .text("wal"))
        let expected = try MigrationFixtures.text("Library", "expected-3.json").replacingOccurrences(
            of: "\"Orphan\"", with: "\"Walled\"")
        expectSameText(try migration.export(), expected)
    }
}
