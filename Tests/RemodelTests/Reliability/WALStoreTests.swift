import Foundation
import Testing

@testable import Remodel
@testable import RemodelModel

/// A store in WAL mode is inspected, planned, exported and opened at launch without a byte changing
/// and without a `-wal` or `-shm` left beside it; a migration that is refused leaves it byte for byte
/// as it was, header counters and WAL mode included. (Before: `status` and `--dry-run` left an empty
/// `-wal` and a `-shm`, and a refusal changed the file change counter and the version-valid-for
/// number of the header, although its message says the store was left as it was.)
@Suite struct WALStoreTests {
    /// A "Library" store of 30 people in WAL mode, nothing open on it.
    private func walStore(_ folder: TemporaryFolder) throws -> String {
        let store = folder.file("library.sqlite")
        try Reliability.makeStore(at: store, people: 30)
        try StoreStates.makeWAL(store)
        try #require(try folder.contents() == ["library.sqlite"])
        return store
    }

    @Test func statusDryRunAndExportChangeNothing() throws {
        let folder = try TemporaryFolder()
        let store = try walStore(folder)
        let before = try FolderSnapshot(folder.path)
        let status = try Reliability.status(store)
        #expect(status.status == 0, "\(status)")
        #expect(try FolderSnapshot(folder.path) == before, "status")
        let plan = try Reliability.remodel(Reliability.migrateArguments(store) + ["--dry-run"])
        #expect(plan.status == 0, "\(plan)")
        #expect(try FolderSnapshot(folder.path) == before, "--dry-run")
        let output = try TemporaryFolder()
        let export = try Reliability.remodel([
            "export", store, "--model", Reliability.modelPath, "--output", output.file("export.json"),
        ])
        #expect(export.status == 0, "\(export)")
        #expect(try FolderSnapshot(folder.path) == before, "export")
        #expect(try String(contentsOfFile: output.file("export.json"), encoding: .utf8).contains("\"Person\""))
    }

    @Test func inspectorAndLaunchOfACurrentStoreChangeNothing() async throws {
        let folder = try TemporaryFolder()
        let store = folder.file("library.sqlite")
        try Reliability.makeStore(at: store, people: 30)
        #expect(try Reliability.migrate(store).status == 0)
        try StoreStates.makeWAL(store)
        let before = try FolderSnapshot(folder.path)
        let inspection = try StoreInspector.inspect(path: store, bundle: Reliability.library)
        #expect(inspection.state == .current(version: "Library 3"))
        #expect(try FolderSnapshot(folder.path) == before, "inspection")
        let migrator = Migrator(
            bundle: Reliability.library, options: MigrationOptions(mappingsDirectory: Reliability.mappingsPath))
        #expect(try await migrator.migrate(storeAt: store).steps == 0)
        #expect(try FolderSnapshot(folder.path) == before, "a migration with nothing to do")
        do {
            let (launched, outcome) = try await Store.launch(at: store, bundle: Reliability.library)
            #expect(outcome == .opened)
            #expect(launched.version.name == "Library 3")
        }
        #expect(try FolderSnapshot(folder.path) == before, "launch, once the store is closed")
    }

    /// How a migration of the Library store is refused.
    struct Refusal: Sendable, CustomTestStringConvertible {
        var testDescription: String
        var code: RemodelError.Code
        var options: @Sendable (String) throws -> MigrationOptions
    }

    static let refusals: [Refusal] = [
        // Phase 3: `fullName` from an email that odd people do not have.
        Refusal(testDescription: "validation fails", code: .validationFailed) { folder in
            let mappings = folder + "/mappings"
            try FileManager.default.createDirectory(atPath: mappings, withIntermediateDirectories: true)
            try Data(
                """
                <mapping model="Library" sourceVersion="Library" destinationVersion="Library 2">
                  <entity source="Person" destination="Person"><attribute name="fullName" value="$source.email"/></entity>
                </mapping>
                """.utf8
            ).write(to: URL(fileURLWithPath: mappings + "/emails.xml"))
            return MigrationOptions(mappingsDirectory: mappings)
        },
        // Planning: `fullName` is new and required, and nothing fills it.
        Refusal(testDescription: "not plannable", code: .migrationNotPlannable) { _ in MigrationOptions() },
        Refusal(testDescription: "a custom validation fails", code: .validationFailed) { _ in
            MigrationOptions(
                mappingsDirectory: Reliability.mappingsPath,
                validations: [
                    { _ in
                        [
                            ValidationFailure(
                                entity: "Person", primaryKey: 1, property: nil, rule: "custom", message: "no")
                        ]
                    }
                ])
        },
    ]

    @Test(arguments: refusals) func refusedMigrationLeavesTheFileByteForByte(refusal: Refusal) async throws {
        let folder = try TemporaryFolder()
        let store = try walStore(folder)
        let options = try refusal.options(NSTemporaryDirectory() + "remodel-wal-refusal-" + UUID().uuidString)
        let before = try fileBytes(store)
        let error = await #expect(throws: RemodelError.self) {
            _ = try await Migrator(bundle: Reliability.library, options: options).migrate(storeAt: store)
        }
        #expect(error?.code == refusal.code, "\(String(describing: error))")
        let after = try fileBytes(store)
        #expect(after[24..<28] == before[24..<28], "the file change counter")
        #expect(after[92..<96] == before[92..<96], "the version-valid-for number")
        #expect(after[18..<20] == Data([2, 2]), "WAL mode")
        #expect(after == before)
        #expect(try folder.contents() == ["library.sqlite"])
    }

    /// The migration lets go of its write lock for a moment to take a WAL store out of WAL mode; a
    /// connection that was waiting to write writes then. The migrated store would lack that write: it
    /// is built again from the store as it is, under a lock no write passes any more, and carries it.
    @Test func aWriteInTheMomentTheStoreLeavesWALModeIsMigrated() async throws {
        let folder = try TemporaryFolder()
        let store = try walStore(folder)
        let written = Collector<Int32>()
        let started = Collector<Bool>()
        let migrator = Migrator(
            bundle: Reliability.library, options: MigrationOptions(mappingsDirectory: Reliability.mappingsPath))
        let report = try await migrator.migrate(storeAt: store) { progress in
            guard progress.phase == .validation, started.values.isEmpty else { return }
            started.append(true)
            // A writer that waits for the migration's lock, writes as soon as it can, and closes.
            Thread.detachNewThread {
                do throws(RemodelError) {
                    let writer = try SQLiteConnection(path: store, mode: .readWrite)
                    writer.setBusyTimeout(milliseconds: 20_000)
                    try writer.run(
                        "INSERT INTO \"Person\" (\"_pk\", \"_entity\", \"firstName\", \"lastName\") VALUES (5000, 'Person', 'Late', 'Writer')"
                    )
                    written.append(0)
                } catch {
                    written.append(error.sqliteCode ?? -1)
                }
            }
            Thread.sleep(forTimeInterval: 0.2)
        }
        while written.values.isEmpty { try await Task.sleep(nanoseconds: 10_000_000) }
        #expect(report.steps == 2)
        #expect(written.values == [0], "the write was acknowledged")
        #expect(try Reliability.export(store).contains("\"fullName\": \"Late Writer\""), "and migrated")
        #expect(try SQLiteConnection(path: store, mode: .readOnly).journalMode() == "wal")
    }

    /// A log another program left (it stopped without a checkpoint): a refused migration, `status` and
    /// `--dry-run` leave the file and the log as they were; the migration that runs carries the log.
    @Test func aLogAnotherProgramLeftIsKeptByARefusal() async throws {
        let folder = try TemporaryFolder()
        let store = try walStore(folder)
        do {
            let writer = try SQLiteConnection(path: store, mode: .readWrite)
            try writer.setCheckpointsOnClose(false)
            try writer.execute("UPDATE \"Person\" SET \"lastName\" = 'Logged' WHERE \"_pk\" = 1")
            // Book is carried by the migration, its pages copied from the file: the change is in the log only.
            try writer.execute("UPDATE \"Book\" SET \"title\" = 'Logged book' WHERE \"_pk\" = 1")
        }
        try #require(try folder.contents() == ["library.sqlite", "library.sqlite-shm", "library.sqlite-wal"])
        let before = (try fileBytes(store), try fileBytes(store + "-wal"))
        let refusal = await #expect(throws: RemodelError.self) {
            _ = try await Migrator(bundle: Reliability.library, options: MigrationOptions()).migrate(storeAt: store)
        }
        #expect(refusal?.code == .migrationNotPlannable)
        #expect(try Reliability.status(store).status == 0)
        #expect(try Reliability.remodel(Reliability.migrateArguments(store) + ["--dry-run"]).status == 0)
        #expect(try folder.contents() == ["library.sqlite", "library.sqlite-shm", "library.sqlite-wal"])
        #expect(try fileBytes(store) == before.0, "the store file")
        #expect(try fileBytes(store + "-wal") == before.1, "its log")
        let outcome = try Reliability.migrate(store)
        #expect(outcome.status == 0, "\(outcome)")
        #expect(try Reliability.export(store).contains("\"fullName\": \"Ada1 Logged\""))
        #expect(try Reliability.export(store).contains("\"title\": \"Logged book\""))
        #expect(try folder.contents() == ["library.sqlite"])
    }
}
