import Foundation
import Testing

@testable import Remodel
@testable import RemodelCoreData

/// Xcode's "Default" configuration: every model has it, holding every entity, though the model file never declares
/// it (Core Data apps pass it as `NSPersistentStoreDescription.configuration`). Restricted to it, a bundle is the
/// whole bundle and a store of it an ordinary store; a model that declares a "Default" of its own gets that one.
struct DefaultConfigurationTests {
    @Test func defaultIsTheWholeModelUnlessTheModelDeclaresIt() throws {
        let folder = try TemporaryFolder()
        let bundle = try CoreDataConfigurationTests.shopBundle(in: folder.path)
        let whole = try bundle.restricted(toConfiguration: Configuration.defaultName)
        #expect(whole.configurationName == nil)
        #expect(whole.currentVersion == bundle.currentVersion)
        #expect(try bundle.currentVersion.restricted(toConfiguration: "Default") == bundle.currentVersion)
        let store = try Store.create(at: folder.file("default.sqlite"), bundle: whole)
        let connection = try SQLiteConnection(path: store.path, mode: .readOnly)
        #expect(
            try connection.scalar("SELECT count(*) FROM _RemodelMetadata WHERE key = 'configuration'") == .integer(0))
        #expect(try connection.tableExists("Setting") && connection.tableExists("Item"))
        // A bundle of one configuration holds no "Default": it is not the whole model.
        let cloud = try bundle.restricted(toConfiguration: "Cloud")
        #expect(throws: RemodelError.self) { try cloud.restricted(toConfiguration: "Default") }

        let declared = CoreDataConfigurationTests.shop1.replacingOccurrences(
            of: "<configuration name=\"Local\">", with: "<configuration name=\"Default\">")
        let own = try ModelBundle(
            contentsOf: try BundleWriting.write("Own", in: folder.path, versions: [("Own", declared)]))
        let restricted = try own.restricted(toConfiguration: "Default")
        #expect(restricted.configurationName == "Default")
        #expect(restricted.currentVersion.entities.map(\.name) == ["Setting"])
    }

    /// The commands take `--configuration Default` as the whole model: `create` makes an ordinary store, `generate`
    /// writes the whole model's records, `import-core-data` takes a Core Data store of every entity.
    @Test func everyCommandTakesDefaultAsTheWholeModel() throws {
        let folder = try TemporaryFolder()
        let bundle = try BundleWriting.write(
            "Shop", in: folder.path, versions: [("Shop 1", CoreDataConfigurationTests.shop1)])
        let path = folder.file("shop.sqlite")
        let created = try RemodelProcess.run(["create", path, "--model", bundle, "--configuration", "Default"])
        #expect(created.status == 0, "\(created.error)")
        #expect(created.output == "Created \(path) at version \"Shop 1\" of model \"Shop\", empty.\n")
        let status = try RemodelProcess.run(["status", path, "--model", bundle, "--format", "json"])
        #expect(status.output.contains(#""configuration": null"#), "\(status.output)")

        let records = folder.file("Records")
        let generated = try RemodelProcess.run(["generate", bundle, "--configuration", "Default", "-o", records, "-q"])
        #expect(generated.status == 0, "\(generated.error)")
        #expect(
            try FileManager.default.contentsOfDirectory(atPath: records).sorted() == [
                "Item.swift", "Setting.swift", "ShopSchema.swift", "Tag.swift",
            ])

        let source = try CoreDataConfigurationTests.coreDataStore(
            at: folder.file("Whole.sqlite"), entities: ["Item", "Setting", "Tag"],
            statements: [
                "INSERT INTO Z_PRIMARYKEY VALUES (1, 'Item', 0, 1), (2, 'Setting', 0, 1), (3, 'Tag', 0, 0)",
                "CREATE TABLE ZITEM ( Z_PK INTEGER PRIMARY KEY, Z_ENT INTEGER, Z_OPT INTEGER, ZTAG INTEGER, ZTITLE VARCHAR )",
                "CREATE TABLE ZTAG ( Z_PK INTEGER PRIMARY KEY, Z_ENT INTEGER, Z_OPT INTEGER, ZNAME VARCHAR )",
                "CREATE TABLE ZSETTING ( Z_PK INTEGER PRIMARY KEY, Z_ENT INTEGER, Z_OPT INTEGER, ZVALUE INTEGER, ZKEY VARCHAR )",
                "INSERT INTO ZITEM VALUES (1, 1, 1, NULL, 'lamp')",
                "INSERT INTO ZSETTING VALUES (1, 2, 1, 3, 'volume')",
            ])
        let imported = try RemodelProcess.run([
            "import-core-data", source, "--model", bundle, "--into", folder.file("imported.sqlite"),
            "--configuration", "Default", "--format", "json",
        ])
        #expect(imported.status == 0, "\(imported.error)")
        #expect(imported.output.contains(#""configuration": null"#), "\(imported.output)")
        let connection = try SQLiteConnection(path: folder.file("imported.sqlite"), mode: .readOnly)
        #expect(try connection.rows("SELECT _pk, title FROM Item") == [[.integer(1), .text("lamp")]])
        #expect(
            try connection.rows("SELECT _pk, key, value FROM Setting") == [[.integer(1), .text("volume"), .integer(3)]])
    }
}
