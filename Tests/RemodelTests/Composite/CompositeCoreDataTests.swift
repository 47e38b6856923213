import Foundation
import Testing

@testable import Remodel
@testable import RemodelCoreData

/// Composite attributes in Core Data stores, laid out as Core Data lays them out (no column for the composite,
/// one per leaf member named as an attribute of the leaf's name, numbered where it clashes: docs/CORE-DATA-STORES.md),
/// imported with the model file and with the compiled model the store carries.
struct CompositeCoreDataTests {
    static let entities = """
        <entity name="Trip" representedClassName="Trip">
            <attribute name="city" optional="YES" attributeType="String"/>
            <attribute name="name" attributeType="String"/>
            <attribute name="place" optional="YES" attributeType="Composite" composite="Place"/>
        </entity>
        <composite name="Place">
            <attribute name="city" attributeType="String"/>
            <attribute name="visits" optional="YES" attributeType="Integer 16"/>
            <attribute name="since" optional="YES" attributeType="Date"/>
            <attribute name="price" optional="YES" attributeType="Decimal"/>
            <attribute name="flag" optional="YES" attributeType="Boolean"/>
            <attribute name="geo" optional="YES" attributeType="Composite" composite="Geo"/>
        </composite>
        <composite name="Geo">
            <attribute name="lat" attributeType="Double"/>
            <attribute name="lon" optional="YES" attributeType="Double"/>
        </composite>
        """

    /// The store: the plain `city` has `ZCITY`, the leaf `place.city` the numbered `ZCITY1`.
    static func store(at path: String, modelCache: [UInt8]? = nil, extraSQL: [String] = []) throws -> String {
        let connection = try SQLiteConnection(path: path, mode: .create)
        let plist = BinaryPropertyListWriter.encode(
            .dictionary([
                ("NSStoreModelVersionHashes", .dictionary([("Trip", .data(Array(repeating: 7, count: 32)))])),
                ("NSStoreModelVersionIdentifiers", .array([.string("")])),
                ("NSStoreModelVersionHashesVersion", .integer(3)), ("NSPersistenceFrameworkVersion", .integer(1344)),
                ("NSStoreType", .string("SQLite")),
            ]))
        let statements = [
            "CREATE TABLE Z_PRIMARYKEY (Z_ENT INTEGER PRIMARY KEY, Z_NAME VARCHAR, Z_SUPER INTEGER, Z_MAX INTEGER)",
            "INSERT INTO Z_PRIMARYKEY VALUES (1, 'Trip', 0, 3)",
            "CREATE TABLE Z_METADATA (Z_VERSION INTEGER PRIMARY KEY, Z_UUID VARCHAR(255), Z_PLIST BLOB)",
            "CREATE TABLE Z_MODELCACHE (Z_CONTENT BLOB)",
            """
            CREATE TABLE ZTRIP ( Z_PK INTEGER PRIMARY KEY, Z_ENT INTEGER, Z_OPT INTEGER, ZFLAG INTEGER, ZVISITS INTEGER,
              ZSINCE TIMESTAMP, ZLAT FLOAT, ZLON FLOAT, ZPRICE DECIMAL, ZCITY VARCHAR, ZCITY1 VARCHAR, ZNAME VARCHAR )
            """,
            """
            INSERT INTO ZTRIP (Z_PK, Z_ENT, Z_OPT, ZFLAG, ZVISITS, ZSINCE, ZLAT, ZLON, ZPRICE, ZCITY, ZCITY1, ZNAME) VALUES
              (1, 1, 1, 1, 3, 600000000.5, 45.764, 4.8357, 12.5, 'Home', 'Lyon', 'Lyon trip'),
              (2, 1, 1, NULL, NULL, NULL, NULL, NULL, NULL, 'Home', NULL, 'Staying'),
              (3, 1, 1, NULL, NULL, NULL, NULL, NULL, 7, NULL, 'Oslo', 'North')
            """,
        ]
        for sql in statements + extraSQL { try connection.execute(sql) }
        try connection.run("INSERT INTO Z_METADATA VALUES (1, 'A1B2', ?)", [.blob(Data(plist))])
        try connection.run(
            "INSERT INTO Z_MODELCACHE VALUES (?)", [.blob(Data(modelCache ?? [0]))])
        return path
    }

    static let expectedExport = """
        {
          "Trip": [
            {"_pk": 1, "city": "Home", "name": "Lyon trip", "place": {"city": "Lyon", "visits": 3, "since": "2020-01-06T10:40:00.500Z", "price": "12.5", "flag": true, "geo": {"lat": 45.764, "lon": 4.8357}}},
            {"_pk": 2, "city": "Home", "name": "Staying", "place": null},
            {"_pk": 3, "city": null, "name": "North", "place": {"city": "Oslo", "visits": null, "since": null, "price": "7", "flag": null, "geo": null}}
          ]
        }

        """

    @Test func importsTheLeafColumnsIntoCompositeValues() throws {
        let folder = try TemporaryFolder()
        let bundle = try CompositeModels.bundle(Self.entities, in: folder)
        let source = try Self.store(at: folder.file("Trips.sqlite"))
        let result = try Store.importCoreData(from: source, bundle: bundle, into: folder.file("trips.sqlite"))
        #expect(result.objectCounts == ["Trip": 3])
        expectSameText(
            try Store.open(at: folder.file("trips.sqlite"), bundle: bundle).exportJSONString(), Self.expectedExport)
    }

    @Test func importsWithTheCompiledModelTheStoreCarries() throws {
        let folder = try TemporaryFolder()
        let bundle = try CompositeModels.bundle(Self.entities, in: folder)
        let source = try Self.store(
            at: folder.file("Trips.sqlite"), modelCache: ModelCacheWriter.cache(of: bundle.currentVersion))
        let extracted = try Store.extractCoreDataModel(from: source, to: folder.file("Extracted/Trips.xcdatamodeld"))
        #expect(extracted.entities.map(\.name) == ["Trip"])
        let model = try ModelBundle(contentsOf: folder.file("Extracted/Trips.xcdatamodeld"))
        let version = model.currentVersion
        #expect(version.composites.map(\.name) == ["Geo", "Place"])
        #expect(
            version.composite(named: "Place")?.attributes.map(\.name) == [
                "city", "visits", "since", "price", "flag", "geo",
            ])
        #expect(try #require(version.entity(named: "Trip")).attribute(named: "place")?.compositeName == "Place")
        #expect(ModelValidator.validate(model).filter { $0.severity == .error }.isEmpty)
        _ = try Store.importCoreData(
            from: source, models: .store, into: folder.file("trips.sqlite"), version: nil, progress: nil)
        expectSameText(
            try Store.open(at: folder.file("trips.sqlite"), bundle: model).exportJSONString(), Self.expectedExport)
    }

    @Test func refusesALeafOfTheWrongKindNamingItsKeyPath() throws {
        let folder = try TemporaryFolder()
        let bundle = try CompositeModels.bundle(Self.entities, in: folder)
        let source = try Self.store(
            at: folder.file("Trips.sqlite"), extraSQL: ["UPDATE ZTRIP SET ZLAT = 'north' WHERE Z_PK = 3"])
        let error = try #require(throws: RemodelError.self) {
            try Store.importCoreData(from: source, bundle: bundle, into: folder.file("trips.sqlite"))
        }
        #expect(
            error.message.hasPrefix(
                #"Trip Z_PK 3 attribute "place.geo.lat" (column ZTRIP.ZLAT): the store holds 'north' (text), but a Double attribute must be a number"#
            ), "\(error.message)")
        #expect(!FileManager.default.fileExists(atPath: folder.file("trips.sqlite")))
    }
}

extension CompositeCoreDataTests {
    /// A leaf's column missing, or declared of another type than Core Data gives the leaf: the store fits no version,
    /// said naming the column and the member's key path; nothing is written.
    @Test(arguments: [
        (
            ["ALTER TABLE ZTRIP DROP COLUMN ZLAT"],
            #"the closest is "Trips", but ZTRIP has no column ZLAT for Trip.place.geo.lat"#
        ),
        (
            ["ALTER TABLE ZTRIP DROP COLUMN ZVISITS", "ALTER TABLE ZTRIP ADD COLUMN ZVISITS VARCHAR"],
            "ZTRIP.ZVISITS is VARCHAR, not what Core Data declares for Trip.place.visits, a Integer 16 attribute (INTEGER)"
        ),
    ])
    func refusesALeafColumnMissingOrOfAnotherType(sql: [String], message: String) throws {
        let folder = try TemporaryFolder()
        let bundle = try CompositeModels.bundle(Self.entities, in: folder)
        let source = try Self.store(at: folder.file("Trips.sqlite"), extraSQL: sql)
        let error = try #require(throws: RemodelError.self) {
            try Store.importCoreData(from: source, bundle: bundle, into: folder.file("trips.sqlite"))
        }
        #expect(error.message.contains(message), "\(error.message)")
        #expect(error.path == source)
        #expect(!FileManager.default.fileExists(atPath: folder.file("trips.sqlite")))
    }
}

/// A required member without a value where its composite has one (a batch update or another program wrote it;
/// Core Data refuses to save it): refused naming the object, the member's key path and its column, nothing
/// written. Imported, the value was one the new store's own export refused ("a damaged composite value").
struct CompositeCoreDataRequiredMemberTests {
    /// The entities with `geo` a required member of `Place`.
    static let requiredGeo = CompositeCoreDataTests.entities.replacingOccurrences(
        of: #"<attribute name="geo" optional="YES" attributeType="Composite" composite="Geo"/>"#,
        with: #"<attribute name="geo" attributeType="Composite" composite="Geo"/>"#)

    @Test(arguments: [
        (
            CompositeCoreDataTests.entities,
            "INSERT INTO ZTRIP (Z_PK, Z_ENT, Z_OPT, ZVISITS, ZNAME) VALUES (4, 1, 1, 3, 'x')",
            #"Trip Z_PK 4 attribute "place.city" (column ZTRIP.ZCITY1): the store holds NULL (null), but a String attribute must be a value wherever place has one (place.city is required)"#
        ),
        (
            CompositeCoreDataTests.entities,
            "INSERT INTO ZTRIP (Z_PK, Z_ENT, Z_OPT, ZCITY1, ZLON, ZNAME) VALUES (4, 1, 1, 'Rome', 1.5, 'x')",
            #"Trip Z_PK 4 attribute "place.geo.lat" (column ZTRIP.ZLAT): the store holds NULL (null), but a Double attribute must be a value wherever place.geo has one (place.geo.lat is required)"#
        ),
        // Oslo (Z_PK 3) has a place but no geo, which this model requires.
        (
            requiredGeo, "SELECT 1",
            #"Trip Z_PK 3 attribute "place.geo.lat" (column ZTRIP.ZLAT): the store holds NULL (null), but a Double attribute must be a value wherever place has one (place.geo is required)"#
        ),
    ])
    func refusedNamingTheMemberAndNothingIsWritten(entities: String, sql: String, message: String) throws {
        let folder = try TemporaryFolder()
        let bundle = try CompositeModels.bundle(entities, in: folder)
        let source = try CompositeCoreDataTests.store(at: folder.file("Trips.sqlite"), extraSQL: [sql])
        let before = try Data(contentsOf: URL(fileURLWithPath: source))
        let target = folder.file("trips.sqlite")
        let error = try #require(throws: RemodelError.self) {
            try Store.importCoreData(from: source, bundle: bundle, into: target)
        }
        #expect(error.message.hasPrefix(message), "\(error.message)")
        #expect(error.path == source)
        #expect(error.entity == "Trip")
        #expect(!FileManager.default.fileExists(atPath: target))
        // The command says the same, exits 1, and leaves the Core Data store as it was.
        let result = try RemodelProcess.run([
            "import-core-data", source, "--model", folder.file("Trips.xcdatamodeld"), "--into", target,
        ])
        #expect(result.status == 1)
        #expect(result.error.contains(message), "\(result.error)")
        #expect(!FileManager.default.fileExists(atPath: target))
        #expect(try Data(contentsOf: URL(fileURLWithPath: source)) == before)
    }
}
