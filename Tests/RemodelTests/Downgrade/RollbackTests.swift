import Foundation
import Testing

@testable import Remodel
@testable import RemodelModel

/// `Store.rollback` puts back the backup a migration kept, only while the store is exactly what that
/// migration made; a store written since is never overwritten.
struct RollbackTests {
    /// A lossy store migrated down with allow-loss (which keeps the backup).
    private func migratedDown() async throws -> (DowngradeScene, before: Data) {
        let scene = try DowngradeScene(seed: DowngradeScene.lossySeed)
        let before = try fileBytes(scene.store)
        _ = try await Migrator(bundle: scene.older, options: DowngradeScene.options(.allowLoss)).migrate(
            storeAt: scene.store)
        return (scene, before)
    }

    @Test func rollbackPutsTheOriginalBackByteForByte() async throws {
        let (scene, before) = try await migratedDown()
        let report = try Store.rollback(at: scene.store)
        #expect(report == RollbackReport(path: scene.store, restoredVersion: "Library 3", replacedVersion: "Library 2"))
        #expect(try fileBytes(scene.store) == before)
        #expect(
            try StoreInspector.inspect(path: scene.store, bundle: scene.newer).state == .current(version: "Library 3"))
        #expect(try scene.folder.contents() == ["library.sqlite", "older"])
        // Nothing left to put back.
        #expect(throws: RemodelError.self) { _ = try Store.rollback(at: scene.store) }
    }

    @Test func aStoreWrittenSinceIsNeverOverwritten() async throws {
        let (scene, _) = try await migratedDown()
        let store = try Store.open(at: scene.store, bundle: scene.older)
        try store.connection.run("UPDATE Person SET fullName = 'Ada King' WHERE _pk = 1")
        let written = try fileBytes(scene.store)
        let backup = try fileBytes(scene.store + ".remodel-backup")
        do {
            _ = try Store.rollback(at: scene.store)
            Issue.record("rolled back over a write")
        } catch {
            #expect(error.code == .rollbackRefused)
            #expect(
                error.message
                    == "cannot roll back: the store was written since the migration that made the backup (SQLite's change counter in its header is 5, the migration left 4), and putting the backup back would lose those writes; export what you need from the store first (`remodel export`), or keep it; nothing was changed"
            )
        }
        #expect(try fileBytes(scene.store) == written)
        #expect(try fileBytes(scene.store + ".remodel-backup") == backup)
    }

    /// Bytes changed behind SQLite's back (the change counter as it was) are caught by the hash.
    @Test func bytesChangedWithoutSQLiteAreCaughtByTheHash() async throws {
        let (scene, _) = try await migratedDown()
        var bytes = try fileBytes(scene.store)
        let last = bytes.count - 1
        bytes[last] = bytes[last] ^ 0xFF
        try bytes.write(to: URL(fileURLWithPath: scene.store))
        do {
            _ = try Store.rollback(at: scene.store)
            Issue.record("rolled back over changed bytes")
        } catch {
            #expect(error.message.contains("(its bytes differ from those the migration left)"), "\(error)")
        }
        #expect(try fileBytes(scene.store) == bytes)
    }

    @Test func aWriteLeftInTheLogOfAWALStoreIsCaught() async throws {
        let (scene, _) = try await migratedDown()
        let connection = try SQLiteConnection(path: scene.store, mode: .readWrite)
        #expect(try connection.scalar("PRAGMA journal_mode = WAL") == .text("wal"))
        // Leaving WAL mode again would checkpoint: keep the connection open, with the write in the log.
        try connection.setCheckpointsOnClose(false)
        try connection.run("UPDATE Book SET title = 'Notes, 2nd ed.' WHERE _pk = 11")
        withExtendedLifetime(connection) {
            do throws(RemodelError) {
                _ = try Store.rollback(at: scene.store)
                Issue.record("rolled back over a write in the log")
            } catch {
                #expect(error.code == .rollbackRefused)
                #expect(error.message.contains("(its write-ahead log \(scene.store)-wal holds "), "\(error)")
            }
        }
        #expect(FileManager.default.fileExists(atPath: scene.store + ".remodel-backup"))
    }

    @Test func keepBackupOfAnOrdinaryMigrationCanBeRolledBack() async throws {
        let folder = try TemporaryFolder()
        let store = folder.file("library.sqlite")
        try Reliability.makeStore(at: store, people: 5)
        let before = try fileBytes(store)
        let options = MigrationOptions(mappingsDirectory: MigrationFixtures.libraryMappings, keepBackup: true)
        _ = try await Migrator(bundle: try MigrationFixtures.library(), options: options).migrate(storeAt: store)
        #expect(try Store.rollback(at: store).restoredVersion == "Library")
        #expect(try fileBytes(store) == before)
    }

    @Test func aBackupWithoutItsRecordOrAnotherBackupIsRefused() async throws {
        let (scene, _) = try await migratedDown()
        let record = scene.store + ".remodel-backup.json"
        let saved = try fileBytes(record)
        try FileManager.default.removeItem(atPath: record)
        do {
            _ = try Store.rollback(at: scene.store)
            Issue.record("rolled back without a record")
        } catch {
            #expect(
                error.message.hasPrefix(
                    "cannot roll back: the backup \(scene.store).remodel-backup has no record of the store its migration made"
                ), "\(error)")
        }
        try saved.write(to: URL(fileURLWithPath: record))
        // A backup put there by hand (another file) is not the one the record knows.
        let backup = try fileBytes(scene.store + ".remodel-backup")
        try FileManager.default.removeItem(atPath: scene.store + ".remodel-backup")
        try backup.write(to: URL(fileURLWithPath: scene.store + ".remodel-backup"))
        do {
            _ = try Store.rollback(at: scene.store)
            Issue.record("rolled back another backup")
        } catch {
            #expect(error.message.contains("is not the file the last migration kept"), "\(error)")
        }
    }

    /// A WAL store: the migrated store is in WAL mode again; read (not written) by the app since, it rolls
    /// back to the original, which left WAL mode before the replace.
    @Test func aWALStoreReadSinceRollsBack() async throws {
        let folder = try TemporaryFolder()
        let store = folder.file("library.sqlite")
        try Reliability.makeStore(at: store, people: 5)
        #expect(try SQLiteConnection(path: store, mode: .readWrite).scalar("PRAGMA journal_mode = WAL") == .text("wal"))
        let original = try Reliability.export(store)
        let options = MigrationOptions(mappingsDirectory: MigrationFixtures.libraryMappings, keepBackup: true)
        _ = try await Migrator(bundle: try MigrationFixtures.library(), options: options).migrate(storeAt: store)
        #expect(try SQLiteConnection(path: store, mode: .readOnly).journalMode() == "wal")
        _ = try Reliability.export(store)
        #expect(try Store.rollback(at: store).restoredVersion == "Library")
        #expect(try Reliability.export(store) == original)
        #expect(try SQLiteConnection(path: store, mode: .readOnly).journalMode() == "delete")
        #expect(try folder.contents().filter { !$0.hasSuffix("-wal") && !$0.hasSuffix("-shm") } == ["library.sqlite"])
    }
}
