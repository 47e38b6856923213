import Foundation

@testable import Remodel
@testable import RemodelModel

/// Builds Core Data stores from the layout docs/CORE-DATA-STORES.md documents, for the cases the real
/// fixtures lack: inheritance with clashing attribute names, every value encoding, external binary data,
/// a to-one's entity-number companion, an ordered many-to-many, persistent history and CloudKit tables.
enum CoreDataStoreBuilder {
    /// The model: Animal (root) with Cat and Dog whose `tag` attributes clash (String and Integer 32),
    /// Keeper with an ordered to-many `animals`, Zone and Keeper linked many-to-many (ordered on Zone).
    static let zooEntities = """
        <entity name="Animal" representedClassName="Animal">
            <attribute name="name" attributeType="String"/>
            <attribute name="born" optional="YES" attributeType="Date"/>
            <attribute name="id" optional="YES" attributeType="UUID"/>
            <attribute name="weight" optional="YES" attributeType="Decimal"/>
            <attribute name="photo" optional="YES" attributeType="Binary" allowsExternalBinaryDataStorage="YES"/>
            <attribute name="homepage" optional="YES" attributeType="URI"/>
            <attribute name="vaccinated" optional="YES" attributeType="Boolean"/>
            <attribute name="height" optional="YES" attributeType="Double"/>
            <relationship name="keeper" optional="YES" maxCount="1" destinationEntity="Keeper" inverseName="animals" inverseEntity="Keeper"/>
        </entity>
        <entity name="Cat" parentEntity="Animal">
            <attribute name="lives" optional="YES" attributeType="Integer 16"/>
            <attribute name="tag" optional="YES" attributeType="String"/>
        </entity>
        <entity name="Dog" parentEntity="Animal">
            <attribute name="tag" optional="YES" attributeType="Integer 32"/>
        </entity>
        <entity name="Keeper">
            <attribute name="name" attributeType="String"/>
            <relationship name="animals" optional="YES" toMany="YES" ordered="YES" destinationEntity="Animal" inverseName="keeper" inverseEntity="Animal"/>
            <relationship name="zones" optional="YES" toMany="YES" destinationEntity="Zone" inverseName="keepers" inverseEntity="Zone"/>
            <relationship name="favorite" optional="YES" maxCount="1" destinationEntity="Animal"/>
        </entity>
        <entity name="Zone">
            <attribute name="title" attributeType="String"/>
            <relationship name="keepers" optional="YES" toMany="YES" ordered="YES" destinationEntity="Keeper" inverseName="zones" inverseEntity="Keeper"/>
        </entity>
        """

    /// The file name Tom's photo is kept under, as the hexadecimal of its ASCII bytes.
    static let externalReferenceHex = "5F0F6A5B-2C6B-4B4B-9B1A-0E3A4D5C6B7A".utf8.map { String(format: "%02X", $0) }
        .joined()

    /// Seconds from 1970 to 2001.
    static let offset = 978_307_200.0

    /// Writes the zoo store at `path` (rollback journal) and returns it.
    @discardableResult
    static func zoo(
        at path: String, extraSQL: [String] = [], identifier: String = "", moreEntities: [String] = []
    ) throws -> String {
        let connection = try SQLiteConnection(path: path, mode: .create)
        let plist = BinaryPropertyListWriter.encode(
            .dictionary([
                (
                    "NSStoreModelVersionHashes",
                    .dictionary(
                        (["Animal", "Cat", "Dog", "Keeper", "Zone"] + moreEntities).map {
                            ($0, .data(Array(repeating: 7, count: 32)))
                        })
                ),
                ("NSStoreModelVersionIdentifiers", .array([.string(identifier)])),
                ("NSStoreModelVersionHashesVersion", .integer(3)),
                ("NSPersistenceFrameworkVersion", .integer(1344)),
                ("NSStoreType", .string("SQLite")),
            ]))
        let statements = [
            "CREATE TABLE Z_PRIMARYKEY (Z_ENT INTEGER PRIMARY KEY, Z_NAME VARCHAR, Z_SUPER INTEGER, Z_MAX INTEGER)",
            "INSERT INTO Z_PRIMARYKEY VALUES (1, 'Animal', 0, 5), (2, 'Cat', 1, 0), (3, 'Dog', 1, 0), (4, 'Keeper', 0, 2), (5, 'Zone', 0, 2)",
            "CREATE TABLE Z_METADATA (Z_VERSION INTEGER PRIMARY KEY, Z_UUID VARCHAR(255), Z_PLIST BLOB)",
            "CREATE TABLE Z_MODELCACHE (Z_CONTENT BLOB)",
            "INSERT INTO Z_MODELCACHE VALUES (X'00')",
            """
            CREATE TABLE ZANIMAL ( Z_PK INTEGER PRIMARY KEY, Z_ENT INTEGER, Z_OPT INTEGER, ZLIVES INTEGER, ZTAG1 INTEGER, ZVACCINATED INTEGER,
              ZKEEPER INTEGER, Z_FOK_KEEPER INTEGER, ZBORN TIMESTAMP, ZHEIGHT FLOAT, ZWEIGHT DECIMAL, ZHOMEPAGE VARCHAR, ZNAME VARCHAR,
              ZTAG VARCHAR, ZID BLOB, ZPHOTO BLOB )
            """,
            "CREATE TABLE ZKEEPER ( Z_PK INTEGER PRIMARY KEY, Z_ENT INTEGER, Z_OPT INTEGER, ZFAVORITE INTEGER, Z1_FAVORITE INTEGER, ZNAME VARCHAR )",
            "CREATE TABLE ZZONE ( Z_PK INTEGER PRIMARY KEY, Z_ENT INTEGER, Z_OPT INTEGER, ZTITLE VARCHAR )",
            "CREATE TABLE Z_4ZONES ( Z_4KEEPERS INTEGER, Z_5ZONES INTEGER, Z_FOK_4KEEPERS INTEGER, PRIMARY KEY (Z_4KEEPERS, Z_5ZONES) )",
            // Animals: a plain Animal, two Cats, two Dogs; Core Data's ordering keys are sparse.
            """
            INSERT INTO ZANIMAL (Z_PK, Z_ENT, Z_OPT, ZLIVES, ZTAG1, ZVACCINATED, ZKEEPER, Z_FOK_KEEPER, ZBORN, ZHEIGHT, ZWEIGHT, ZHOMEPAGE, ZNAME, ZTAG, ZID, ZPHOTO) VALUES
              (1, 1, 1, NULL, NULL, 1, 1, 2048, 0.5, 1.25, 12.5, 'https://zoo.example/rex', 'Rex', NULL, X'0123456789ABCDEF0123456789ABCDEF', X'01CAFE'),
              (2, 2, 1, 9, NULL, 0, 1, 1024, -86400, 2, 3, NULL, 'Tom', 'striped', NULL, X'02\(externalReferenceHex)00'),
              (3, 2, 1, 7, NULL, NULL, 2, 1024, NULL, NULL, NULL, NULL, 'Felix', NULL, NULL, NULL),
              (4, 3, 1, NULL, 42, 1, 1, 3072, 700000000.25, NULL, NULL, NULL, 'Fido', NULL, NULL, NULL),
              (5, 3, 1, NULL, -7, NULL, NULL, NULL, NULL, NULL, NULL, NULL, 'Rover', NULL, NULL, NULL)
            """,
            "INSERT INTO ZKEEPER VALUES (1, 4, 1, 2, 2, 'Ann'), (2, 4, 1, NULL, NULL, 'Bob')",
            "INSERT INTO ZZONE VALUES (1, 5, 1, 'North'), (2, 5, 1, 'South')",
            "INSERT INTO Z_4ZONES VALUES (1, 1, 3000), (2, 1, 1000), (2, 2, 5)",
            "CREATE TABLE ATRANSACTION (Z_PK INTEGER PRIMARY KEY, ZAUTHOR VARCHAR)",
            "INSERT INTO ATRANSACTION VALUES (1, 'app'), (2, 'app')",
            "CREATE TABLE ACHANGE (Z_PK INTEGER PRIMARY KEY, ZCHANGETYPE INTEGER)",
            "INSERT INTO ACHANGE VALUES (1, 0), (2, 0), (3, 1)",
            "CREATE TABLE ATRANSACTIONSTRING (Z_PK INTEGER PRIMARY KEY, ZNAME VARCHAR)",
            "CREATE TABLE ANSCKRECORDMETADATA (Z_PK INTEGER PRIMARY KEY, ZCKRECORDNAME VARCHAR)",
            "INSERT INTO ANSCKRECORDMETADATA VALUES (1, 'r1')",
            "CREATE INDEX ZANIMAL_ZKEEPER_INDEX ON ZANIMAL (ZKEEPER)",
        ]
        for sql in statements + extraSQL { try connection.execute(sql) }
        try connection.run("INSERT INTO Z_METADATA VALUES (1, 'A1B2', ?)", [.blob(Data(plist))])
        // The photo of Tom (Z_PK 2) is kept in a file beside the store.
        let url = URL(fileURLWithPath: path)
        let support = url.deletingLastPathComponent().appendingPathComponent(
            ".\(url.deletingPathExtension().lastPathComponent)_SUPPORT/_EXTERNAL_DATA")
        try FileManager.default.createDirectory(at: support, withIntermediateDirectories: true)
        try Data([0xBE, 0xEF, 0x00, 0x42]).write(
            to: support.appendingPathComponent("5F0F6A5B-2C6B-4B4B-9B1A-0E3A4D5C6B7A"))
        return path
    }

    /// The zoo bundle (`Zoo.xcdatamodeld`, one version `Zoo 1` unless more are given) in `folder`.
    static func zooBundle(in folder: String, versions: [(String, String)]? = nil) throws -> ModelBundle {
        let path = try BundleWriting.write("Zoo", in: folder, versions: versions ?? [("Zoo 1", zooEntities)])
        return try ModelBundle(contentsOf: path)
    }
}
