import Foundation
import Testing

@testable import Remodel
@testable import RemodelModel

/// The store carries its version's model: recorded at create and after every migration, readable
/// without the bundle, never read at a normal launch; stores from before still open and get it with
/// their next migration.
struct CarriedModelTests {
    @Test func createRecordsTheVersionsContentsAsWritten() throws {
        let folder = try TemporaryFolder()
        let store = folder.file("library.sqlite")
        _ = try Store.create(at: store, bundle: try MigrationFixtures.library(), version: "Library 2")
        let carried = try #require(try StoreInspector.carriedModel(path: store))
        #expect(carried.modelName == "Library")
        #expect(carried.versionName == "Library 2")
        #expect(carried.formatVersion == 1)
        #expect(carried.contents == (try DowngradeScene.contents("Library 2")))
        #expect(
            try DowngradeScene.metadataValue("versionContents", in: store) == (try DowngradeScene.contents("Library 2"))
        )
    }

    @Test func aMigrationRecordsTheNewVersionsModel() async throws {
        let folder = try TemporaryFolder()
        let store = folder.file("library.sqlite")
        try Reliability.makeStore(at: store, people: 3)
        #expect(try StoreInspector.carriedModel(path: store)?.versionName == "Library")
        _ = try await Migrator(
            bundle: try MigrationFixtures.library(),
            options: MigrationOptions(mappingsDirectory: MigrationFixtures.libraryMappings)
        )
        .migrate(storeAt: store)
        #expect(try StoreInspector.carriedModel(path: store)?.contents == (try DowngradeScene.contents("Library 3")))
    }

    /// A store made before stores carried their model: it opens and launches as before, refuses a
    /// downgrade for want of a model, and carries one after its next migration.
    @Test func aStoreFromBeforeOpensAndCarriesItsModelAfterItsNextMigration() async throws {
        let folder = try TemporaryFolder()
        let store = folder.file("library.sqlite")
        try Reliability.makeStore(at: store, people: 3)
        try SQLiteConnection(path: store, mode: .readWrite).run(
            "DELETE FROM _RemodelMetadata WHERE key = 'versionContents'")
        #expect(try StoreInspector.carriedModel(path: store) == nil)
        let bundle = try MigrationFixtures.library()
        #expect(
            try StoreInspector.inspect(path: store, bundle: bundle).state
                == .older(version: "Library", matchedBy: .name))
        var options = MigrationOptions(mappingsDirectory: MigrationFixtures.libraryMappings)
        options.downgrade = .lossless
        let (_, outcome) = try await Store.launch(at: store, bundle: bundle, options: options)
        guard case .migrated(let report) = outcome else { throw RemodelError(.io, "launch did \(outcome)") }
        #expect(!report.isDowngrade)
        #expect(try StoreInspector.carriedModel(path: store)?.versionName == "Library 3")
    }

    @Test func aNewerStoreFromBeforeCannotGoDownAndIsLeftUntouched() async throws {
        let scene = try DowngradeScene()
        try SQLiteConnection(path: scene.store, mode: .readWrite).run(
            "DELETE FROM _RemodelMetadata WHERE key = 'versionContents'")
        let before = try fileBytes(scene.store)
        do {
            _ = try await Migrator(bundle: scene.older, options: DowngradeScene.options(.allowLoss)).migrate(
                storeAt: scene.store)
            Issue.record("migrated down without a carried model")
        } catch {
            #expect(error.code == .newerStore)
            #expect(
                error.message
                    == #"the store is at version "Library 3", newer than this build's "Library 2", and it carries no model (it was written before Remodel recorded one, or from a model made in memory), so it cannot be migrated down and was left untouched; open it with the newer build"#
            )
        }
        #expect(try fileBytes(scene.store) == before)
    }

    /// A store that carries no model, at a version the bundle has after its current one (`.xccurrentversion`
    /// names `Library 2`): the bundle's own version of it is the downgrade's source.
    @Test func aStoreWithoutAModelGoesDownFromTheBundlesOwnLaterVersion() async throws {
        let scene = try DowngradeScene()
        try SQLiteConnection(path: scene.store, mode: .readWrite).run(
            "DELETE FROM _RemodelMetadata WHERE key = 'versionContents'")
        let bundle = scene.folder.file("declared/Library.xcdatamodeld")
        try FileManager.default.createDirectory(
            atPath: scene.folder.file("declared"), withIntermediateDirectories: true)
        try FileManager.default.copyItem(
            atPath: MigrationFixtures.packageRoot + "/Models/Library.xcdatamodeld", toPath: bundle)
        try Data(
            #"<plist version="1.0"><dict><key>_XCCurrentVersionName</key><string>Library 2.xcdatamodel</string></dict></plist>"#
                .utf8
        )
        .write(to: URL(fileURLWithPath: bundle + "/.xccurrentversion"))
        let declared = try ModelBundle(contentsOf: bundle)
        #expect(
            try StoreInspector.inspect(path: scene.store, bundle: declared).state == .newer(versionName: "Library 3"))
        let report = try await Migrator(bundle: declared, options: DowngradeScene.options(.lossless)).migrate(
            storeAt: scene.store)
        #expect(report.isDowngrade && report.targetVersion == "Library 2")
        expectSameText(try scene.export(), DowngradeScene.downgradedExport)
    }

    /// A carried model that does not describe the store's tables (its hashes differ) is not trusted.
    @Test func aCarriedModelThatDoesNotMatchTheStoreIsNotTrusted() async throws {
        let scene = try DowngradeScene()
        try SQLiteConnection(path: scene.store, mode: .readWrite).run(
            "UPDATE _RemodelMetadata SET value = ? WHERE key = 'versionContents'",
            [.text(try DowngradeScene.contents("Library"))])
        let before = try fileBytes(scene.store)
        do {
            _ = try await Migrator(bundle: scene.older, options: DowngradeScene.options(.lossless)).migrate(
                storeAt: scene.store)
            Issue.record("migrated down from a model that does not match")
        } catch {
            #expect(error.code == .newerStore)
            #expect(
                error.message.contains("the model it carries does not match the entity hashes it records"), "\(error)")
        }
        #expect(try fileBytes(scene.store) == before)
    }

    /// A launch of a current store never reads the carried model: damaged XML there changes nothing.
    @Test func launchDoesNotReadTheCarriedModel() async throws {
        let folder = try TemporaryFolder()
        let store = folder.file("library.sqlite")
        let bundle = try MigrationFixtures.library()
        _ = try Store.create(at: store, bundle: bundle)
        try SQLiteConnection(path: store, mode: .readWrite).run(
            "UPDATE _RemodelMetadata SET value = '<not a model' WHERE key = 'versionContents'")
        let (opened, outcome) = try await Store.launch(at: store, bundle: bundle)
        #expect(outcome == .opened)
        #expect(opened.version.name == "Library 3")
        guard
            case .success(let metadata) = try StoreMetadata.read(
                from: try SQLiteConnection(path: store, mode: .readOnly))
        else {
            throw RemodelError(.io, "no metadata")
        }
        #expect(metadata.carriedContents == nil)
    }

    /// A version made in memory has no file: its store carries no model.
    @Test func aVersionMadeInMemoryCarriesNone() throws {
        let folder = try TemporaryFolder()
        let store = folder.file("memory.sqlite")
        let bundle = ModelBundle(
            name: "Memory", versions: [ModelVersion(name: "Memory", entities: [Entity(name: "Thing")])])
        _ = try Store.create(at: store, bundle: bundle)
        #expect(try StoreInspector.carriedModel(path: store) == nil)
        #expect(try DowngradeScene.metadataValue("versionContents", in: store) == nil)
    }

    /// A migration to a version made in memory drops the model the store carried (it would describe the
    /// version before).
    @Test func aMigrationToAVersionMadeInMemoryDropsTheModelCarriedBefore() async throws {
        let folder = try TemporaryFolder()
        let store = folder.file("library.sqlite")
        try Reliability.makeStore(at: store, people: 2)
        let files = try MigrationFixtures.library()
        let inMemory = ModelBundle(
            name: "Library",
            versions: try files.versionNames.map { name throws(RemodelError) in
                let version = try files.loadVersion(named: name)
                return ModelVersion(name: name, entities: version.entities)
            })
        _ = try await Migrator(
            bundle: inMemory, options: MigrationOptions(mappingsDirectory: MigrationFixtures.libraryMappings)
        ).migrate(storeAt: store)
        #expect(try StoreInspector.inspect(path: store, bundle: inMemory).state == .current(version: "Library 3"))
        #expect(try DowngradeScene.metadataValue("versionContents", in: store) == nil)
    }
}
