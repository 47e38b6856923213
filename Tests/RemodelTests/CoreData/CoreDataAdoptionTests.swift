import Foundation
import Testing

@testable import Remodel
@testable import RemodelCoreData

/// A store imported without its model file is named after the Core Data store's file (`Data` for
/// `Data.sqlite`); the app's bundle adopts it when one of its versions has the store's entity hashes, and
/// only such a store (docs/CORE-DATA-STORES.md, "A store imported without its model").
struct CoreDataAdoptionTests {
    /// The zoo store as `Data.sqlite`, carrying the zoo's compiled model, and the zoo bundle with a second
    /// version that adds an attribute.
    static func zoo(in folder: TemporaryFolder) throws -> (source: String, bundle: ModelBundle) {
        try FileManager.default.createDirectory(atPath: folder.file("source"), withIntermediateDirectories: true)
        let source = try CoreDataStoreBuilder.zoo(at: folder.file("source/Data.sqlite"))
        let path = try BundleWriting.write(
            "Zoo", in: folder.file("bundle"),
            versions: [
                ("Zoo 1", CoreDataStoreBuilder.zooEntities),
                (
                    "Zoo 2",
                    CoreDataStoreBuilder.zooEntities.replacingOccurrences(
                        of: #"<attribute name="title" attributeType="String"/>"#,
                        with:
                            #"<attribute name="title" attributeType="String"/><attribute name="area" optional="YES" attributeType="Double"/>"#
                    )
                ),
            ])
        let bundle = try ModelBundle(contentsOf: path)
        let connection = try SQLiteConnection(path: source, mode: .readWrite)
        try connection.run(
            "UPDATE Z_MODELCACHE SET Z_CONTENT = ?",
            [.blob(Data(ModelCacheWriter.cache(of: try bundle.loadVersion(named: "Zoo 1"))))])
        return (source, bundle)
    }

    @Test func bundleAdoptsAStoreImportedWithoutItsModelByItsHashes() async throws {
        let folder = try TemporaryFolder()
        let (source, bundle) = try Self.zoo(in: folder)
        let store = folder.file("zoo.sqlite")
        let imported = try Store.importCoreData(
            from: source, models: .store, into: store, version: nil, progress: nil)
        #expect(imported.modelName == "Data" && imported.versionName == "Data")

        let inspection = try StoreInspector.inspect(path: store, bundle: bundle)

        #expect(inspection.state == .older(version: "Zoo 1", matchedBy: .hashes))
        #expect(inspection.adoptedModelName == "Data")
        #expect(
            inspection.message
                == "The store at \(store) is at version \"Zoo 1\" (recognised by its entity hashes), older than the current \"Zoo 2\": it must be migrated (1 step). It was imported from a Core Data store without its model file, as model \"Data\"; its entity hashes are those of this version of \"Zoo\", which adopts it: it takes the model name \"Zoo\" at its next write."
        )
        // It carries its model from the import on.
        #expect(try StoreInspector.carriedModel(path: store)?.versionName == "Data")
        let status = try RemodelProcess.run(["status", store, "--model", bundle.path])
        #expect(status.status == 0)
        #expect(status.output.components(separatedBy: "which adopts it").count == 2, "said once: \(status.output)")
        #expect(status.output.contains("It carries its model (version Data"), "\(status.output)")
        let carried = try RemodelProcess.run(["export", store, "--model", bundle.path, "--carried-model"])
        #expect(carried.status == 0, "\(carried.error)")
        #expect(carried.output == (try StoreInspector.carriedModel(path: store)?.contents))

        // A launch migrates it; it is then the bundle's store, by name.
        let (launched, outcome) = try await Store.launch(at: store, bundle: bundle)
        #expect(launched.version.name == "Zoo 2")
        if case .migrated = outcome {} else { Issue.record("not migrated: \(outcome)") }
        let metadata = try launched.metadata()
        #expect(metadata.modelName == "Zoo" && metadata.versionName == "Zoo 2" && metadata.modelOrigin == nil)
        #expect(try StoreInspector.inspect(path: store, bundle: bundle).adoptedModelName == nil)
    }

    /// At the current version, opening it records the adoption.
    @Test func openingRecordsTheAdoption() throws {
        let folder = try TemporaryFolder()
        let (source, _) = try Self.zoo(in: folder)
        let bundle = try CoreDataStoreBuilder.zooBundle(in: folder.file("one"))
        let store = folder.file("zoo.sqlite")
        _ = try Store.importCoreData(from: source, models: .store, into: store, version: nil, progress: nil)

        let opened = try Store.open(at: store, bundle: bundle)

        #expect(opened.version.name == "Zoo 1")
        let metadata = try opened.metadata()
        #expect(metadata.modelName == "Zoo" && metadata.versionName == "Zoo 1" && metadata.modelOrigin == nil)
        let carried = try #require(try StoreInspector.carriedModel(path: store))
        #expect(carried.versionName == "Zoo 1")
        #expect(carried.contents == (try String(contentsOfFile: opened.version.path, encoding: .utf8)))
    }

    /// The downgrade guard holds: a store of another model (made with a bundle named `Data`, not imported
    /// without its model) with the very same hashes is refused untouched, and so is a store imported without
    /// its model whose hashes are no version's.
    @Test func onlyAStoreImportedWithoutItsModelIsAdopted() throws {
        let folder = try TemporaryFolder()
        let (source, bundle) = try Self.zoo(in: folder)
        let dataBundle = try ModelBundle(
            contentsOf: try BundleWriting.write(
                "Data", in: folder.file("data"), versions: [("Data", CoreDataStoreBuilder.zooEntities)]))
        let other = folder.file("other.sqlite")
        _ = try Store.create(at: other, bundle: dataBundle)
        #expect(
            try StoreInspector.inspect(path: other, bundle: dataBundle).state == .current(version: "Data"))

        let otherInspection = try StoreInspector.inspect(path: other, bundle: bundle)

        #expect(otherInspection.state == .otherModel(name: "Data"))
        #expect(throws: RemodelError.self) { try Store.open(at: other, bundle: bundle) }

        let imported = folder.file("imported.sqlite")
        _ = try Store.importCoreData(from: source, models: .store, into: imported, version: nil, progress: nil)
        let unrelated = try CoreDataStoreBuilder.zooBundle(
            in: folder.file("unrelated"),
            versions: [
                (
                    "Zoo 1",
                    CoreDataStoreBuilder.zooEntities.replacingOccurrences(
                        of: #"<attribute name="lives" optional="YES" attributeType="Integer 16"/>"#,
                        with: #"<attribute name="lives" optional="YES" attributeType="Integer 32"/>"#)
                )
            ])
        #expect(try StoreInspector.inspect(path: imported, bundle: unrelated).state == .otherModel(name: "Data"))
    }
}
