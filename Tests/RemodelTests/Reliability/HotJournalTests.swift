import Foundation
import Testing

@testable import Remodel
@testable import RemodelModel

/// A program that stopped in the middle of a write leaves part of its transaction in the store and a
/// hot journal beside it. `status`, `--dry-run`, `export` and the inspector read the store as it is
/// once rolled back without writing a byte; `migrate` lets SQLite roll it back under its lock and
/// says so; an app's launch opens it. (Before: each failed with "SQLite error 776: attempt to write a
/// readonly database".)
@Suite struct HotJournalTests {
    static let people = 200
    /// The store's export before the unfinished write, and after a clean migration.
    static let expected = Result { try StoreStates.libraryExports(people: people) }

    /// A "Library" store with a hot journal, in `folder`.
    private func crashedStore(_ folder: TemporaryFolder, name: String = "library.sqlite") throws -> String {
        let store = folder.file(name)
        try Reliability.makeStore(at: store, people: Self.people)
        try StoreStates.leaveHotJournal(in: store)
        try #require(StoreStates.hasHotJournal(store), "the store must have a hot journal")
        return store
    }

    /// The private folders, in the temporary folder, where inspection rolled back a copy of the store named
    /// `name` (other tests running meanwhile make and remove folders of their own there).
    private func rollbackCopies(of name: String) throws -> [String] {
        let temporary = NSTemporaryDirectory()
        return try FileManager.default.contentsOfDirectory(atPath: temporary).filter { folder in
            folder.hasPrefix("remodel-rollback-")
                && FileManager.default.fileExists(atPath: temporary + "/" + folder + "/" + name)
        }
    }

    @Test func statusDescribesTheRolledBackStoreAndWritesNothing() throws {
        let folder = try TemporaryFolder()
        let store = try crashedStore(folder)
        let before = try FolderSnapshot(folder.path)
        let outcome = try Reliability.status(store)
        #expect(outcome.status == 0, "\(outcome)")
        #expect(outcome.output.contains("is at version \"Library\""), "\(outcome)")
        #expect(outcome.output.contains("left an unfinished transaction in \(store)-journal"), "\(outcome)")
        #expect(outcome.output.contains("Next: migrate"), "\(outcome)")
        #expect(try FolderSnapshot(folder.path) == before)
        #expect(StoreStates.hasHotJournal(store))
    }

    @Test func dryRunAndExportReadTheRolledBackStoreAndWriteNothing() throws {
        let expected = try Self.expected.get()
        let folder = try TemporaryFolder()
        let store = try crashedStore(folder)
        let before = try FolderSnapshot(folder.path)
        let plan = try Reliability.remodel(Reliability.migrateArguments(store) + ["--dry-run"])
        #expect(plan.status == 0, "\(plan)")
        #expect(plan.output.contains("Step 1: Library → Library 2"), "\(plan)")
        let output = try TemporaryFolder()
        let export = try Reliability.remodel([
            "export", store, "--model", Reliability.modelPath, "--output", output.file("export.json"),
        ])
        #expect(export.status == 0, "\(export)")
        #expect(try String(contentsOfFile: output.file("export.json"), encoding: .utf8) == expected.old)
        #expect(try FolderSnapshot(folder.path) == before)
    }

    @Test func inspectorSaysSoAndWritesNothing() throws {
        let folder = try TemporaryFolder()
        let name = "inspected-\(UUID().uuidString).sqlite"
        let store = try crashedStore(folder, name: name)
        let before = try FolderSnapshot(folder.path)
        let inspection = try StoreInspector.inspect(path: store, bundle: Reliability.library)
        #expect(inspection.state == .older(version: "Library", matchedBy: .name))
        #expect(inspection.hasUnfinishedTransaction)
        #expect(inspection.message.contains("unfinished transaction"))
        #expect(try FolderSnapshot(folder.path) == before)
        #expect(try rollbackCopies(of: name).isEmpty, "the private copy is removed")
    }

    @Test func migrateRollsItBackUnderTheLockAndSaysSo() throws {
        let expected = try Self.expected.get()
        let folder = try TemporaryFolder()
        let store = try crashedStore(folder)
        let outcome = try Reliability.migrate(store)
        #expect(outcome.status == 0, "\(outcome)")
        #expect(
            outcome.output.contains("left an unfinished transaction in its journal: SQLite rolled it back first"),
            "\(outcome)")
        #expect(try Reliability.export(store) == expected.new)
        #expect(try folder.contents() == ["library.sqlite"])
    }

    @Test func migratorReportsTheRollback() async throws {
        let folder = try TemporaryFolder()
        let store = try crashedStore(folder)
        let migrator = Migrator(
            bundle: Reliability.library, options: MigrationOptions(mappingsDirectory: Reliability.mappingsPath))
        let report = try await migrator.migrate(storeAt: store)
        #expect(report.rolledBackUnfinishedTransaction)
        #expect(report.steps == 2)
        #expect(try await migrator.migrate(storeAt: store).rolledBackUnfinishedTransaction == false)
    }

    /// An app opening its store for writing lets SQLite roll the journal back, as any writer would.
    @Test func openRollsItBackAsTheAppWould() throws {
        let expected = try Self.expected.get()
        let folder = try TemporaryFolder()
        let store = try crashedStore(folder)
        let opened = try Store.open(at: store, bundle: Reliability.library)
        #expect(opened.version.name == "Library")
        #expect(try opened.exportJSONString() == expected.old)
        #expect(!StoreStates.hasHotJournal(store))
    }

    /// A current store: launch opens it (SQLite rolls the journal back), with the data as before the write.
    @Test func launchOpensACurrentStore() async throws {
        let expected = try Self.expected.get()
        let folder = try TemporaryFolder()
        let store = folder.file("library.sqlite")
        try Reliability.makeStore(at: store, people: Self.people)
        #expect(try Reliability.migrate(store).status == 0)
        try StoreStates.leaveHotJournal(in: store, changing: "fullName")
        try #require(StoreStates.hasHotJournal(store))
        let (launched, outcome) = try await Store.launch(at: store, bundle: Reliability.library)
        #expect(outcome == .opened)
        #expect(try launched.exportJSONString() == expected.new)
    }

    /// Nothing rolls back the journal of a store that is refused: another model's store stays as it is.
    @Test func anotherModelsStoreIsRefusedWithItsJournal() throws {
        let folder = try TemporaryFolder()
        let store = try crashedStore(folder)
        let before = try FolderSnapshot(folder.path)
        let diligence = ValidationSupport.packageRoot.appendingPathComponent("Models/Diligence.xcdatamodeld").path
        let outcome = try Reliability.remodel(["migrate", store, "--model", diligence, "--progress", "none"])
        #expect(outcome.status == 1, "\(outcome)")
        #expect(outcome.error.contains("belongs to model \"Library\""), "\(outcome)")
        #expect(try FolderSnapshot(folder.path) == before)
    }
}
