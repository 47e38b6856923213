import Foundation
import GRDB
import LibraryRecords
import Remodel
import RemodelGRDB
import ShopRecords
import Testing

/// The records of one configuration (`remodel generate --configuration`): the `Shop` fixture's "Cloud" (Item, Tag)
/// and "Local" (Setting), generated into one module, each reading and writing a store of its configuration, and
/// each schema's check refusing a store of anything else (another configuration, the whole model) as
/// `otherConfiguration`, naming both, before the version hashes or the tables would call it edited or drifted.
struct ConfigurationRecordsTests {
    static func shop() throws -> ModelBundle {
        try RecordsTestSupport.model("Tests/RemodelTests/Fixtures/Generation/Shop.xcdatamodel")
    }

    @Test func eachConfigurationsRecordsReadAndWriteAStoreOfIt() async throws {
        let folder = try RecordsTestSupport.folder()
        defer { try? FileManager.default.removeItem(at: folder) }
        let bundle = try Self.shop()
        let cloudPath = folder.appendingPathComponent("cloud.sqlite").path
        let (cloud, _) = try await Store.launchQueue(
            at: cloudPath, bundle: try bundle.restricted(toConfiguration: "Cloud"), check: ShopCloudSchema.check)
        try await cloud.write { db in
            var tag = ShopRecords.Tag(name: "red")
            try tag.insert(db)
            var item = Item(title: "lamp", tag: tag.id)
            try item.insert(db)
        }
        let (titles, names, hasSetting) = try await cloud.read { db in
            (
                try Item.fetchAll(db).map(\.title), try ShopRecords.Tag.fetchAll(db).map(\.name),
                try db.tableExists("Setting")
            )
        }
        #expect(titles == ["lamp"] && names == ["red"] && !hasSetting)
        try cloud.close()

        let localPath = folder.appendingPathComponent("local.sqlite").path
        let (local, _) = try await Store.launchQueue(
            at: localPath, bundle: try bundle.restricted(toConfiguration: "Local"), check: ShopLocalSchema.check)
        try await local.write { db in
            var setting = Setting(key: "volume", value: 3)
            try setting.insert(db)
        }
        let (values, hasItem) = try await local.read { db in
            (try Setting.fetchAll(db).map(\.value), try db.tableExists("Item"))
        }
        #expect(values == [3] && !hasItem)
        try local.close()
        // Remodel reads each as a store of its configuration, object by object.
        #expect(try RecordsTestSupport.export(cloudPath, bundle).contains("\"lamp\""))
        #expect(try RecordsTestSupport.export(localPath, bundle).contains("\"volume\""))
    }

    @Test func theCheckRefusesAStoreOfAnotherConfigurationOrOfTheWholeModel() throws {
        let folder = try RecordsTestSupport.folder()
        defer { try? FileManager.default.removeItem(at: folder) }
        let bundle = try Self.shop()
        let local = folder.appendingPathComponent("local.sqlite").path
        _ = try Store.create(at: local, bundle: try bundle.restricted(toConfiguration: "Local"))
        let other = try #require(throws: ShopCloudSchema.RecordError.self) {
            try DatabaseQueue(path: local).read(ShopCloudSchema.check)
        }
        #expect(other.kind == .otherConfiguration)
        #expect(
            other.message
                == "the store holds the entities of configuration \"Local\" of the model \"Shop\", but these records are of the entities of configuration \"Cloud\": open the store with the records of what it holds (remodel generate --configuration Local)"
        )

        // Xcode's "Default" is the whole model: its store is not one of "Cloud".
        let whole = folder.appendingPathComponent("whole.sqlite").path
        _ = try Store.create(at: whole, bundle: try bundle.restricted(toConfiguration: Configuration.defaultName))
        let everything = try #require(throws: ShopLocalSchema.RecordError.self) {
            try DatabaseQueue(path: whole).read(ShopLocalSchema.check)
        }
        #expect(everything.kind == .otherConfiguration)
        #expect(everything.message.contains("the store holds every entity of the model \"Shop\""))
        #expect(everything.message.contains("these records are of the entities of configuration \"Local\""))

        // The records of a whole model refuse a store that records a configuration (as one of its own would).
        let library = folder.appendingPathComponent("library.sqlite").path
        _ = try Store.create(at: library, bundle: try RecordsTestSupport.model("Models/Library.xcdatamodeld"))
        let queue = try DatabaseQueue(path: library)
        try queue.read(LibrarySchema.check)
        try queue.write { db in
            try db.execute(sql: "INSERT INTO _RemodelMetadata (key, value) VALUES ('configuration', 'Cloud')")
        }
        let configured = try #require(throws: LibrarySchema.RecordError.self) { try queue.read(LibrarySchema.check) }
        #expect(configured.kind == .otherConfiguration)
        #expect(
            configured.message.contains(
                "the store holds the entities of configuration \"Cloud\" of the model \"Library\", but these records are of every entity"
            ))
    }
}
