import Foundation
import Testing

@testable import Remodel
@testable import RemodelCoreData

/// Configurations (issue 41 item 8): a Core Data store that holds one configuration's entities is imported at
/// that configuration, a Remodel store of one configuration is made by `create` and the launch API, and every
/// later command reads such a store against the bundle restricted to its configuration.
struct CoreDataConfigurationTests {
    /// Shop 1: Item → Tag (a to-one and its to-many inverse) in "Cloud", Setting in "Local".
    static let shop1 = """
        <entity name="Item">
            <attribute name="title" attributeType="String"/>
            <relationship name="tag" optional="YES" maxCount="1" deletionRule="Nullify" destinationEntity="Tag" inverseName="items" inverseEntity="Tag"/>
        </entity>
        <entity name="Tag">
            <attribute name="name" attributeType="String"/>
            <relationship name="items" optional="YES" toMany="YES" deletionRule="Nullify" destinationEntity="Item" inverseName="tag" inverseEntity="Item"/>
        </entity>
        <entity name="Setting">
            <attribute name="key" attributeType="String"/>
            <attribute name="value" optional="YES" attributeType="Integer 64" defaultValueString="0" usesScalarValueType="YES"/>
        </entity>
        <configuration name="Cloud">
            <memberEntity name="Item"/>
            <memberEntity name="Tag"/>
        </configuration>
        <configuration name="Local">
            <memberEntity name="Setting"/>
        </configuration>
        """

    /// Shop 2: "Local" gains Draft, Setting gains `note`; "Cloud" as it was.
    static let shop2 =
        shop1
        .replacingOccurrences(
            of: "<attribute name=\"key\" attributeType=\"String\"/>",
            with:
                "<attribute name=\"key\" attributeType=\"String\"/>\n<attribute name=\"note\" optional=\"YES\" attributeType=\"String\"/>"
        )
        .replacingOccurrences(
            of: "<configuration name=\"Cloud\">",
            with:
                "<entity name=\"Draft\"><attribute name=\"body\" optional=\"YES\" attributeType=\"String\"/></entity>\n<configuration name=\"Cloud\">"
        )
        .replacingOccurrences(
            of: "<memberEntity name=\"Setting\"/>",
            with: "<memberEntity name=\"Setting\"/><memberEntity name=\"Draft\"/>")

    static func shopBundle(in folder: String, versions: [(String, String)]? = nil) throws -> ModelBundle {
        try ModelBundle(
            contentsOf: try BundleWriting.write("Shop", in: folder, versions: versions ?? [("Shop 1", shop1)]))
    }

    /// A Core Data store of configuration "Cloud" of Shop 1, as Core Data lays it out: Item and Tag only, in
    /// `Z_PRIMARYKEY`, the version hashes and the tables.
    static func cloudStore(at path: String) throws -> String {
        try coreDataStore(
            at: path, entities: ["Item", "Tag"],
            statements: [
                "INSERT INTO Z_PRIMARYKEY VALUES (1, 'Item', 0, 3), (2, 'Tag', 0, 2)",
                "CREATE TABLE ZITEM ( Z_PK INTEGER PRIMARY KEY, Z_ENT INTEGER, Z_OPT INTEGER, ZTAG INTEGER, ZTITLE VARCHAR )",
                "CREATE TABLE ZTAG ( Z_PK INTEGER PRIMARY KEY, Z_ENT INTEGER, Z_OPT INTEGER, ZNAME VARCHAR )",
                "CREATE INDEX ZITEM_ZTAG_INDEX ON ZITEM (ZTAG)",
                "INSERT INTO ZTAG VALUES (1, 2, 1, 'red'), (2, 2, 1, 'blue')",
                "INSERT INTO ZITEM VALUES (1, 1, 1, 1, 'lamp'), (2, 1, 1, 2, 'chair'), (3, 1, 1, NULL, 'desk')",
            ])
    }

    /// A Core Data store of Setting alone (configuration "Local"), with two settings.
    static func localStore(at path: String) throws -> String {
        try coreDataStore(
            at: path, entities: ["Setting"],
            statements: [
                "INSERT INTO Z_PRIMARYKEY VALUES (1, 'Setting', 0, 2)",
                "CREATE TABLE ZSETTING ( Z_PK INTEGER PRIMARY KEY, Z_ENT INTEGER, Z_OPT INTEGER, ZVALUE INTEGER, ZKEY VARCHAR )",
                "INSERT INTO ZSETTING VALUES (1, 1, 1, 3, 'volume'), (2, 1, 1, NULL, 'theme')",
            ])
    }

    /// A Core Data store whose metadata hashes `entities` only, with Core Data's own tables, then `statements`.
    static func coreDataStore(at path: String, entities: [String], statements: [String]) throws -> String {
        let connection = try SQLiteConnection(path: path, mode: .create)
        let plist = BinaryPropertyListWriter.encode(
            .dictionary([
                (
                    "NSStoreModelVersionHashes",
                    .dictionary(entities.map { ($0, .data(Array(repeating: 7, count: 32))) })
                ),
                ("NSStoreModelVersionIdentifiers", .array([.string("")])),
                ("NSStoreModelVersionHashesVersion", .integer(3)),
                ("NSPersistenceFrameworkVersion", .integer(1344)),
                ("NSStoreType", .string("SQLite")),
            ]))
        let own = [
            "CREATE TABLE Z_PRIMARYKEY (Z_ENT INTEGER PRIMARY KEY, Z_NAME VARCHAR, Z_SUPER INTEGER, Z_MAX INTEGER)",
            "CREATE TABLE Z_METADATA (Z_VERSION INTEGER PRIMARY KEY, Z_UUID VARCHAR(255), Z_PLIST BLOB)",
        ]
        for sql in own + statements { try connection.execute(sql) }
        try connection.run("INSERT INTO Z_METADATA VALUES (1, 'C10D', ?)", [.blob(Data(plist))])
        return path
    }

    @Test func importsAStoreOfOneConfigurationObjectByObject() throws {
        let folder = try TemporaryFolder()
        let bundle = try Self.shopBundle(in: folder.path)
        let source = try Self.cloudStore(at: folder.file("Cloud.sqlite"))
        let path = folder.file("cloud-remodel.sqlite")

        let result = try Store.importCoreData(from: source, bundle: bundle, into: path)
        #expect(result.versionName == "Shop 1")
        #expect(result.configuration == "Cloud")
        #expect(result.objectCounts == ["Item": 3, "Tag": 2])
        #expect(result.description.contains("at configuration \"Cloud\""))

        let connection = try SQLiteConnection(path: path, mode: .readOnly)
        #expect(
            try connection.rows("SELECT _pk, title, tag FROM Item ORDER BY _pk") == [
                [.integer(1), .text("lamp"), .integer(1)], [.integer(2), .text("chair"), .integer(2)],
                [.integer(3), .text("desk"), .null],
            ])
        #expect(
            try connection.rows("SELECT _pk, name FROM Tag ORDER BY _pk") == [
                [.integer(1), .text("red")], [.integer(2), .text("blue")],
            ])
        #expect(try !connection.tableExists("Setting"))
        #expect(
            try connection.scalar("SELECT value FROM _RemodelMetadata WHERE key = 'configuration'") == .text("Cloud"))
        #expect(
            try connection.rows("SELECT key FROM _RemodelMetadata WHERE key LIKE 'entityHash.%' ORDER BY key") == [
                [.text("entityHash.Item")], [.text("entityHash.Tag")],
            ])

        // The store is current against the whole bundle, which every command restricts to its configuration.
        let inspection = try StoreInspector.inspect(path: path, bundle: bundle)
        #expect(inspection.state == .current(version: "Shop 1"))
        #expect(inspection.configuration == "Cloud")
        #expect(inspection.message.contains("configuration \"Cloud\""))
        let store = try Store.open(at: path, bundle: bundle)
        #expect(store.version.configurationName == "Cloud")
        #expect(store.version.entities.map(\.name) == ["Item", "Tag"])
    }

    @Test func twoConfigurationsThatFitEquallyAreNamedAndTheOptionDecides() throws {
        let folder = try TemporaryFolder()
        let mirrored = Self.shop1.replacingOccurrences(
            of: "<configuration name=\"Local\">",
            with:
                "<configuration name=\"Mirror\"><memberEntity name=\"Setting\"/></configuration>\n<configuration name=\"Local\">"
        )
        let bundle = try Self.shopBundle(in: folder.path, versions: [("Shop 1", mirrored)])
        let source = try Self.localStore(at: folder.file("Local.sqlite"))

        let tie = #expect(throws: RemodelError.self) {
            try Store.importCoreData(from: source, bundle: bundle, into: folder.file("tie.sqlite"))
        }
        #expect(tie?.code == .incompatibleStore)
        #expect(tie?.message.contains("\"Shop 1\" at configuration \"Mirror\"") == true)
        #expect(tie?.message.contains("\"Shop 1\" at configuration \"Local\"") == true)
        #expect(tie?.message.contains("--configuration") == true)
        #expect(!FileManager.default.fileExists(atPath: folder.file("tie.sqlite")))

        let path = folder.file("local.sqlite")
        let result = try Store.importCoreData(
            from: source, bundle: bundle, into: path, options: CoreDataImportOptions(configuration: "Local"))
        #expect(result.configuration == "Local")
        let connection = try SQLiteConnection(path: path, mode: .readOnly)
        #expect(
            try connection.rows("SELECT _pk, key, value FROM Setting ORDER BY _pk") == [
                [.integer(1), .text("volume"), .integer(3)], [.integer(2), .text("theme"), .null],
            ])

        let unknown = #expect(throws: RemodelError.self) {
            try Store.importCoreData(
                from: source, bundle: bundle, into: folder.file("nope.sqlite"),
                options: CoreDataImportOptions(configuration: "Nope"))
        }
        #expect(unknown?.message.contains("\"Mirror\", \"Local\"") == true)
    }

    @Test func aStoreOfOneConfigurationMigratesAlongThatConfiguration() async throws {
        let folder = try TemporaryFolder()
        let bundle = try Self.shopBundle(in: folder.path, versions: [("Shop 1", Self.shop1), ("Shop 2", Self.shop2)])
        let seed = folder.file("seed.json")
        try Data(#"{"Setting": [{"_pk": 1, "key": "volume", "value": 3}, {"_pk": 2, "key": "theme"}]}"#.utf8).write(
            to: URL(fileURLWithPath: seed))
        let path = folder.file("local.sqlite")
        let local = try bundle.restricted(toConfiguration: "Local")
        let created = try Store.create(at: path, bundle: local, version: "Shop 1", seed: seed)
        #expect(created.version.entities.map(\.name) == ["Setting"])

        // Migrated with the whole bundle: the store's configuration decides what each version holds.
        let report = try await Migrator(bundle: bundle).migrate(storeAt: path)
        #expect(report.sourceVersion == "Shop 1" && report.targetVersion == "Shop 2")
        let connection = try SQLiteConnection(path: path, mode: .readOnly)
        #expect(
            try connection.rows("SELECT _pk, key, value, note FROM Setting ORDER BY _pk") == [
                [.integer(1), .text("volume"), .integer(3), .null], [.integer(2), .text("theme"), .integer(0), .null],
            ])
        #expect(try connection.tableExists("Draft"))
        #expect(try !connection.tableExists("Item") && !connection.tableExists("Tag"))
        #expect(
            try connection.scalar("SELECT value FROM _RemodelMetadata WHERE key = 'configuration'") == .text("Local"))
        let inspection = try StoreInspector.inspect(path: path, bundle: bundle)
        #expect(inspection.state == .current(version: "Shop 2"))
        let export = try Store.openForReading(at: path, bundle: bundle)
        #expect(export.version.entities.map(\.name) == ["Setting", "Draft"])
    }

    @Test func theLaunchAPIMakesAndKeepsAStoreOfOneConfiguration() async throws {
        let folder = try TemporaryFolder()
        let bundle = try Self.shopBundle(in: folder.path)
        let path = folder.file("cloud.sqlite")
        let cloud = try bundle.restricted(toConfiguration: "Cloud")

        let (created, outcome) = try await Store.launch(at: path, bundle: cloud)
        #expect(outcome == .created)
        #expect(created.version.entities.map(\.name) == ["Item", "Tag"])

        // The whole bundle opens it as the store holds it.
        let (opened, again) = try await Store.launch(at: path, bundle: bundle)
        #expect(again == .opened)
        #expect(opened.bundle.configurationName == "Cloud")
        #expect(opened.version.entities.map(\.name) == ["Item", "Tag"])

        // Another configuration's bundle is refused, the file untouched.
        let before = try Data(contentsOf: URL(fileURLWithPath: path))
        let refused = await #expect(throws: RemodelError.self) {
            try await Store.launch(at: path, bundle: try bundle.restricted(toConfiguration: "Local"))
        }
        #expect(refused?.message.contains("configuration \"Cloud\", not those of configuration \"Local\"") == true)
        #expect(try Data(contentsOf: URL(fileURLWithPath: path)) == before)

        // The first launch on Linux imports a Core Data store of one configuration and keeps it so.
        let source = try Self.cloudStore(at: folder.file("Cloud.sqlite"))
        let (imported, importOutcome, result) = try await Store.launch(
            at: folder.file("imported.sqlite"), bundle: bundle, importingCoreDataFrom: source)
        #expect(importOutcome == .opened)
        #expect(result?.configuration == "Cloud")
        #expect(imported.version.configurationName == "Cloud")
        let exported = folder.file("imported.json")
        try imported.exportJSON(to: exported)
        let json = try String(contentsOfFile: exported, encoding: .utf8)
        #expect(json.contains("\"chair\"") && !json.contains("Setting"))
    }

    @Test func anUnknownConfigurationNamesThoseTheVersionHas() throws {
        let folder = try TemporaryFolder()
        let bundle = try Self.shopBundle(in: folder.path)
        let error = #expect(throws: RemodelError.self) { try bundle.restricted(toConfiguration: "Remote") }
        #expect(error?.code == .invalidModel)
        #expect(
            error?.message
                == "version \"Shop 1\" has no configuration \"Remote\"; its configurations are \"Cloud\", \"Local\"")
    }

    @Test func aConfigurationWithARelationshipOutOfItIsRefusedWithItsPlace() throws {
        let folder = try TemporaryFolder()
        let open = Self.shop1.replacingOccurrences(of: "<memberEntity name=\"Tag\"/>", with: "")
        let bundle = try Self.shopBundle(in: folder.path, versions: [("Shop 1", open)])
        let error = #expect(throws: RemodelError.self) { try bundle.restricted(toConfiguration: "Cloud") }
        #expect(error?.message.contains("relationship 'tag' leads to 'Tag'") == true)
        #expect(error?.location?.line == 5)
    }

    /// The command line end to end: `create --configuration`, then `status`, `import-core-data` of a store of
    /// one configuration, and an unknown name.
    @Test func theCommandsTakeAConfigurationAndThenKeepIt() throws {
        let folder = try TemporaryFolder()
        let bundle = try BundleWriting.write(
            "Shop", in: folder.path, versions: [("Shop 1", Self.shop1), ("Shop 2", Self.shop2)])
        let path = folder.file("local.sqlite")
        let created = try RemodelProcess.run([
            "create", path, "--model", bundle, "--version", "Shop 1", "--configuration", "Local",
        ])
        #expect(created.status == 0, "\(created.error)")
        #expect(
            created.output
                == "Created \(path) at version \"Shop 1\" (configuration \"Local\") of model \"Shop\", empty.\n")
        let status = try RemodelProcess.run(["status", path, "--model", bundle, "--format", "json"])
        #expect(status.output.contains(#""configuration": "Local""#), "\(status.output)")
        #expect(status.output.contains(#""next": "migrate""#), "\(status.output)")
        let migrated = try RemodelProcess.run(["migrate", path, "--model", bundle, "-q"])
        #expect(migrated.status == 0, "\(migrated.error)")
        #expect(try SQLiteConnection(path: path, mode: .readOnly).tableExists("Draft"))

        let unknown = try RemodelProcess.run([
            "create", folder.file("remote.sqlite"), "--model", bundle, "--configuration", "Remote",
        ])
        #expect(unknown.status == 2)
        #expect(
            unknown.error.contains(
                "version \"Shop 2\" has no configuration \"Remote\"; its configurations are \"Cloud\", \"Local\""),
            "\(unknown.error)")
        #expect(!FileManager.default.fileExists(atPath: folder.file("remote.sqlite")))

        let source = try Self.cloudStore(at: folder.file("Cloud.sqlite"))
        let imported = try RemodelProcess.run([
            "import-core-data", source, "--model", bundle, "--into", folder.file("cloud.sqlite"), "--version", "Shop 1",
            "--format", "json",
        ])
        #expect(imported.status == 0, "\(imported.error)")
        #expect(imported.output.contains(#""configuration": "Cloud""#), "\(imported.output)")
    }

    /// CoreStore's StackSetupDemo: "FemaleAccounts" holds the abstract UserAccount and FemaleAccount, not its
    /// sibling MaleAccount; a store of it has UserAccount's table with FemaleAccount's objects only.
    @Test func aCorpusConfigurationOfASubEntityAndItsParent() throws {
        let path = ValidationSupport.corpus.path + "/JohnEstropia__CoreStore/StackSetupDemo.xcdatamodeld"
        guard FileManager.default.fileExists(atPath: path) else { return }
        let bundle = try ModelBundle(contentsOf: path)
        let female = try bundle.restricted(toConfiguration: "FemaleAccounts")
        #expect(female.currentVersion.entities.map(\.name).sorted() == ["FemaleAccount", "UserAccount"])
        let folder = try TemporaryFolder()
        let seed = folder.file("seed.json")
        try Data(#"{"FemaleAccount": [{"_pk": 1, "name": "Ada", "friends": 2}]}"#.utf8).write(
            to: URL(fileURLWithPath: seed))
        let store = try Store.create(at: folder.file("female.sqlite"), bundle: female, seed: seed)
        let connection = try SQLiteConnection(path: store.path, mode: .readOnly)
        #expect(
            try connection.rows("SELECT _entity, name FROM UserAccount") == [[.text("FemaleAccount"), .text("Ada")]])
        let bad = folder.file("bad.json")
        try Data(#"{"MaleAccount": [{"_pk": 2, "name": "Bob"}]}"#.utf8).write(to: URL(fileURLWithPath: bad))
        #expect(throws: RemodelError.self) {
            try Store.create(at: folder.file("male-in-female.sqlite"), bundle: female, seed: bad)
        }
    }
}
