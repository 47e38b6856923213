import Foundation
import Testing

@testable import Remodel
@testable import RemodelModel

/// An older build meets a store the newer build wrote at `Library 3`: with `--downgrade lossless` it
/// migrates the store down from the model the store carries when nothing is lost, and refuses it
/// untouched, naming what would be lost, when something would be; `allow-loss` migrates down all the same.
struct DowngradeMigrationTests {
    @Test func aCleanDowngradeCarriesEveryObjectAndRecordsTheOlderModel() async throws {
        let scene = try DowngradeScene()
        let report = try await Migrator(bundle: scene.older, options: DowngradeScene.options(.lossless)).migrate(
            storeAt: scene.store)
        #expect(report.isDowngrade)
        #expect(report.sourceVersion == "Library 3")
        #expect(report.targetVersion == "Library 2")
        #expect(report.steps == 1)
        #expect(report.objects == 2, "the objects of the tables the downgrade rebuilds")
        #expect(report.backupPath == nil)
        #expect(
            report.losses.map(\.detail) == [
                "Book.tags (0 values)", "Person.email (0 values)", "Tag objects (0 objects)",
            ])
        expectSameText(try scene.export(), DowngradeScene.downgradedExport)
        // The older build opens it as its current store, which now carries the older model.
        #expect(
            try StoreInspector.inspect(path: scene.store, bundle: scene.older).state == .current(version: "Library 2"))
        #expect(try StoreInspector.carriedModel(path: scene.store)?.contents == DowngradeScene.contents("Library 2"))
        let connection = try SQLiteConnection(path: scene.store, mode: .readOnly)
        #expect(try !connection.tableExists("Tag"))
        #expect(try !connection.tableExists("_Book_tags"))
        guard case .success(let metadata) = try StoreMetadata.read(from: connection) else {
            throw RemodelError(.io, "no metadata")
        }
        #expect(
            metadata.history.map { "\($0.from ?? "nil") → \($0.to) \($0.mapping)" } == [
                "nil → Library 3 created", "Library 3 → Library 2 inferred",
            ])
        #expect(try scene.folder.contents() == ["library.sqlite", "older"])
    }

    @Test func aLossyDowngradeIsRefusedUntouchedNamingWhatWouldBeLost() async throws {
        let scene = try DowngradeScene(seed: DowngradeScene.lossySeed)
        let before = try fileBytes(scene.store)
        let migrator = Migrator(bundle: scene.older, options: DowngradeScene.options(.lossless))
        let expected = """
            the store is at version "Library 3", newer than this build's "Library 2", and migrating it down would lose stored values that "Library 2" has no place for, so it was left untouched:
              - Book.tags (4 values)
              - Person.email (2 values)
              - Tag objects (3 objects)
            Migrate it with `--downgrade allow-loss` to drop them (the original is kept as the backup), or open it with the newer build.
            """
        for attempt in ["plan", "migrate"] {
            do {
                if attempt == "plan" {
                    _ = try migrator.plan(storeAt: scene.store)
                } else {
                    _ = try await migrator.migrate(storeAt: scene.store)
                }
                Issue.record("\(attempt): the lossy downgrade went ahead")
            } catch {
                #expect(error.code == .downgradeLosesData, "\(attempt)")
                #expect(error.message == expected, "\(attempt)")
                #expect(error.entity == "Book" && error.property == "tags", "\(attempt)")
                #expect(error.path == scene.store, "\(attempt)")
            }
        }
        #expect(try fileBytes(scene.store) == before)
        #expect(try scene.folder.contents() == ["library.sqlite", "older"])
    }

    @Test func theDefaultStillRefusesANewerStoreUntouched() async throws {
        let scene = try DowngradeScene()
        let before = try fileBytes(scene.store)
        do {
            _ = try await Migrator(bundle: scene.older).migrate(storeAt: scene.store)
            Issue.record("migrated without --downgrade")
        } catch {
            #expect(error.code == .newerStore)
        }
        #expect(try fileBytes(scene.store) == before)
    }

    @Test func allowLossMigratesDownKeepingTheOriginalAndSaysWhatWasDropped() async throws {
        let scene = try DowngradeScene(seed: DowngradeScene.lossySeed)
        let original = try scene.export()
        let before = try fileBytes(scene.store)
        let report = try await Migrator(bundle: scene.older, options: DowngradeScene.options(.allowLoss)).migrate(
            storeAt: scene.store)
        #expect(report.isDowngrade)
        #expect(report.backupPath == scene.store + ".remodel-backup")
        #expect(
            report.losses.map(\.description) == [
                "Library 3 → Library 2 drops Book.tags (4 values)",
                "Library 3 → Library 2 drops Person.email (2 values)",
                "Library 3 → Library 2 drops Tag objects (3 objects)",
            ])
        expectSameText(try scene.export(), DowngradeScene.downgradedExport)
        // The backup is the original, byte for byte, still at Library 3 with every email and tag.
        #expect(try fileBytes(scene.store + ".remodel-backup") == before)
        expectSameText(try scene.export(scene.store + ".remodel-backup"), original)
        #expect(
            try scene.folder.contents() == [
                "library.sqlite", "library.sqlite.remodel-backup", "library.sqlite.remodel-backup.json", "older",
            ])
    }

    @Test func launchMigratesANewerStoreDownWhenAsked() async throws {
        let scene = try DowngradeScene()
        let (store, outcome) = try await Store.launch(
            at: scene.store, bundle: scene.older, options: DowngradeScene.options(.lossless))
        guard case .migrated(let report) = outcome else {
            Issue.record("launch did \(outcome)")
            return
        }
        #expect(report.isDowngrade)
        #expect(store.version.name == "Library 2")
        expectSameText(try scene.export(), DowngradeScene.downgradedExport)
    }

    @Test func launchRefusesALossyDowngradeUntouched() async throws {
        let scene = try DowngradeScene(seed: DowngradeScene.lossySeed)
        let before = try fileBytes(scene.store)
        do {
            _ = try await Store.launch(at: scene.store, bundle: scene.older, options: DowngradeScene.options(.lossless))
            Issue.record("launched")
        } catch {
            #expect(error.code == .downgradeLosesData)
        }
        #expect(try fileBytes(scene.store) == before)
    }

    /// A value that breaks a rule of the older version (here a required attribute the newer made
    /// optional) is found by phase 3, and the store is left as it was.
    @Test func aValueBreakingAnOlderRuleIsRefusedUntouched() async throws {
        let folder = try TemporaryFolder()
        let required =
            #"<entity name="Note"><attribute name="text" attributeType="String"/><attribute name="maximum" optional="YES" attributeType="Integer 32" maxValueString="10"/></entity>"#
        let relaxed =
            #"<entity name="Note"><attribute name="text" attributeType="String"/><attribute name="maximum" optional="YES" attributeType="Integer 32" maxValueString="100"/></entity>"#
        try FileManager.default.createDirectory(atPath: folder.file("new"), withIntermediateDirectories: true)
        try FileManager.default.createDirectory(atPath: folder.file("old"), withIntermediateDirectories: true)
        let newer = try ModelBundle(
            contentsOf: try BundleWriting.write(
                "Notes", in: folder.file("new"), versions: [("Notes", required), ("Notes 2", relaxed)]))
        let older = try ModelBundle(
            contentsOf: try BundleWriting.write("Notes", in: folder.file("old"), versions: [("Notes", required)]))
        let seed = try folder.write(
            #"{"Note": [{"_pk": 1, "text": "fine", "maximum": 5}, {"_pk": 2, "text": "too big", "maximum": 50}]}"#,
            to: "seed.json")
        let store = folder.file("notes.sqlite")
        _ = try Store.create(at: store, bundle: newer, seed: seed)
        let before = try fileBytes(store)
        do {
            _ = try await Migrator(bundle: older, options: DowngradeScene.options(.lossless)).migrate(storeAt: store)
            Issue.record("migrated down a value the older version forbids")
        } catch {
            #expect(error.code == .validationFailed)
            #expect(error.entity == "Note" && error.property == "maximum" && error.primaryKey == 2, "\(error)")
        }
        #expect(try fileBytes(store) == before)
    }
}
