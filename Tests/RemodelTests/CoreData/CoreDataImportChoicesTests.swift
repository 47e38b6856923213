import Foundation
import Testing

@testable import Remodel
@testable import RemodelCoreData
@testable import RemodelModel

/// What an import can be told: import a value whose external data file is missing empty, and merge
/// several model files into one (`--model A --model B`), refusing an entity two of them define.
struct CoreDataImportChoicesTests {
    /// The zoo store with Tom's photo file gone, and a required Binary attribute of the same kind.
    static func zooWithoutPhotoFile(in folder: TemporaryFolder) throws -> (source: String, bundle: String) {
        let source = try CoreDataStoreBuilder.zoo(
            at: folder.file("Zoo.sqlite"),
            extraSQL: [
                "ALTER TABLE ZKEEPER ADD COLUMN ZBADGE BLOB",
                "UPDATE ZKEEPER SET ZBADGE = X'0141' WHERE Z_PK = 1",
                "UPDATE ZKEEPER SET ZBADGE = X'02\(CoreDataStoreBuilder.externalReferenceHex.replacingOccurrences(of: "41", with: "42"))00' WHERE Z_PK = 2",
            ])
        try FileManager.default.removeItem(
            atPath: folder.file(".Zoo_SUPPORT/_EXTERNAL_DATA/5F0F6A5B-2C6B-4B4B-9B1A-0E3A4D5C6B7A"))
        let entities = CoreDataStoreBuilder.zooEntities.replacingOccurrences(
            of: #"<relationship name="animals""#,
            with: #"<attribute name="badge" attributeType="Binary" allowsExternalBinaryDataStorage="YES"/>"#
                + "\n" + #"<relationship name="animals""#)
        let bundle = try BundleWriting.write("Zoo", in: folder.path, versions: [("Zoo 1", entities)])
        return (source, bundle)
    }

    @Test func importsAMissingExternalFileEmptyAndListsIt() throws {
        let folder = try TemporaryFolder()
        let (source, bundlePath) = try Self.zooWithoutPhotoFile(in: folder)
        let bundle = try ModelBundle(contentsOf: bundlePath)
        #expect(bundle.currentVersion.entity(named: "Keeper")?.attribute(named: "badge") != nil)
        let refused = try #require(throws: RemodelError.self) {
            try Store.importCoreData(from: source, bundle: bundle, into: folder.file("zoo.sqlite"))
        }
        #expect(refused.entity == "Cat" && refused.property == "photo" && refused.primaryKey == 2)

        let result = try Store.importCoreData(
            from: source, models: .bundle(bundle), into: folder.file("zoo.sqlite"), version: nil,
            missingExternalData: .empty, progress: nil)

        let support = folder.file(".Zoo_SUPPORT/_EXTERNAL_DATA")
        #expect(
            result.emptiedValues == [
                CoreDataImport.EmptiedValue(
                    entity: "Cat", primaryKey: 2, attribute: "photo",
                    file: support + "/5F0F6A5B-2C6B-4B4B-9B1A-0E3A4D5C6B7A", isNil: true),
                CoreDataImport.EmptiedValue(
                    entity: "Keeper", primaryKey: 2, attribute: "badge",
                    file: support + "/5F0F6B5B-2C6B-4B4B-9B1B-0E3B4D5C6B7B", isNil: false),
            ])
        #expect(result.externalFiles == 0)
        let store = try SQLiteConnection(path: folder.file("zoo.sqlite"), mode: .readOnly)
        #expect(try store.scalar("SELECT photo FROM Animal WHERE _pk = 2") == .null)
        #expect(try store.scalar("SELECT photo FROM Animal WHERE _pk = 1") == .blob(Data([0xCA, 0xFE])))
        #expect(
            try store.rows("SELECT _pk, badge FROM Keeper ORDER BY _pk") == [
                [.integer(1), .blob(Data([0x41]))], [.integer(2), .blob(Data())],
            ])
        #expect(
            result.description.hasSuffix(
                "Missing external data files, imported empty: Cat Z_PK 2 \"photo\" (\(support)/5F0F6A5B-2C6B-4B4B-9B1A-0E3A4D5C6B7A) as nil, Keeper Z_PK 2 \"badge\" (\(support)/5F0F6B5B-2C6B-4B4B-9B1B-0E3B4D5C6B7B) as empty bytes. Not imported (Core Data's own bookkeeping): ACHANGE (3 rows), ANSCKRECORDMETADATA (1 row), ATRANSACTION (2 rows), ATRANSACTIONSTRING (0 rows), Z_MODELCACHE (1 row)."
            ), "\(result.description)")
    }

    @Test func theCommandListsEveryEmptiedValueInItsJSON() throws {
        let folder = try TemporaryFolder()
        let (source, bundle) = try Self.zooWithoutPhotoFile(in: folder)
        let target = folder.file("zoo.sqlite")
        let refused = try RemodelProcess.run(["import-core-data", source, "--model", bundle, "--into", target])
        #expect(refused.status == 1 && refused.error.contains("--missing-external-data empty"), "\(refused.error)")
        let run = try RemodelProcess.run([
            "import-core-data", source, "--model", bundle, "--into", target, "--missing-external-data", "empty",
            "--format", "json",
        ])
        #expect(run.status == 0, "\(run.error)")
        let json = try #require(try JSONSerialization.jsonObject(with: Data(run.output.utf8)) as? [String: Any])
        let support = folder.file(".Zoo_SUPPORT/_EXTERNAL_DATA")
        #expect(
            normalizedJSON(json["emptiedValues"] ?? [])
                == normalizedJSON([
                    [
                        "entity": "Cat", "primaryKey": 2, "attribute": "photo",
                        "file": support + "/5F0F6A5B-2C6B-4B4B-9B1A-0E3A4D5C6B7A", "value": NSNull(),
                    ],
                    [
                        "entity": "Keeper", "primaryKey": 2, "attribute": "badge",
                        "file": support + "/5F0F6B5B-2C6B-4B4B-9B1B-0E3B4D5C6B7B", "value": "",
                    ],
                ]))
        #expect(json["version"] as? String == "Zoo 1" && json["modelOrigin"] as? String == "modelFile")
    }

    /// The zoo store with one more entity, `Ticket`, from a second model an app merges with the zoo's.
    static func mergedZoo(in folder: TemporaryFolder) throws -> String {
        try CoreDataStoreBuilder.zoo(
            at: folder.file("Zoo.sqlite"),
            extraSQL: [
                "INSERT INTO Z_PRIMARYKEY VALUES (6, 'Ticket', 0, 2)",
                "CREATE TABLE ZTICKET ( Z_PK INTEGER PRIMARY KEY, Z_ENT INTEGER, Z_OPT INTEGER, ZCODE VARCHAR )",
                "INSERT INTO ZTICKET VALUES (1, 6, 1, 'A-1'), (2, 6, 1, 'B-7')",
            ], moreEntities: ["Ticket"])
    }

    /// The two models: the zoo's, and `Tickets` (with `Zone` too when `duplicate`).
    static func models(in folder: TemporaryFolder, duplicate: Bool = false) throws -> (String, String) {
        let ticket = #"<entity name="Ticket"><attribute name="code" attributeType="String"/></entity>"#
        let zone = #"<entity name="Zone"><attribute name="title" attributeType="String"/></entity>"#
        try FileManager.default.createDirectory(atPath: folder.file("B"), withIntermediateDirectories: true)
        let zoo = try BundleWriting.write(
            "Zoo", in: folder.path, versions: [("Zoo 1", CoreDataStoreBuilder.zooEntities)])
        let tickets = try BundleWriting.write(
            "Tickets", in: folder.file("B"), versions: [("Tickets", ticket + (duplicate ? "\n" + zone : ""))])
        return (zoo, tickets)
    }

    @Test func mergesSeveralModelsAsMergedModelFromDoes() throws {
        let folder = try TemporaryFolder()
        let source = try Self.mergedZoo(in: folder)
        let (zoo, tickets) = try Self.models(in: folder)
        let alone = try RemodelProcess.run([
            "import-core-data", source, "--model", zoo, "--into", folder.file("zoo.sqlite"),
        ])
        #expect(alone.status == 1 && alone.error.contains("Z_PRIMARYKEY has entity Ticket"), "\(alone.error)")
        let run = try RemodelProcess.run([
            "import-core-data", source, "--model", zoo, "--model", tickets, "--into", folder.file("zoo.sqlite"),
        ])
        #expect(run.status == 0, "\(run.error)")
        #expect(
            run.output.hasPrefix(
                "Imported the Core Data store \(source) into \(folder.file("zoo.sqlite")) at version \"Zoo 1 + Tickets\" (found from the store's metadata and tables) of the merged model \"Zoo+Tickets\": 1 Animal, 2 Cat, 2 Dog, 2 Keeper, 2 Ticket, 2 Zone; links: 3 in _Keeper_zones; 1 external data file read in."
            ), "\(run.output)")
        let store = try SQLiteConnection(path: folder.file("zoo.sqlite"), mode: .readOnly)
        #expect(
            try store.rows("SELECT _pk, _entity, code FROM Ticket ORDER BY _pk") == [
                [.integer(1), .text("Ticket"), .text("A-1")], [.integer(2), .text("Ticket"), .text("B-7")],
            ])
        #expect(try store.scalar("SELECT count(*) FROM Animal") == .integer(5))
        #expect(try folder.contents().filter { $0.contains("remodel") }.isEmpty)
    }

    @Test func refusesModelsThatDefineAnEntityTwice() throws {
        let folder = try TemporaryFolder()
        let source = try Self.mergedZoo(in: folder)
        let (zoo, tickets) = try Self.models(in: folder, duplicate: true)
        let error = try #require(throws: RemodelError.self) {
            try Store.importCoreData(
                from: source, models: .merged([ModelBundle(contentsOf: zoo), ModelBundle(contentsOf: tickets)]),
                into: folder.file("zoo.sqlite"), version: nil, progress: nil)
        }
        #expect(error.entity == "Zone")
        #expect(
            error.message
                == "models \"Zoo\" and \"Tickets\" both define entity Zone, so they cannot be merged (Core Data refuses such a merge too); give the models the app merged"
        )
        #expect(error.location?.file == tickets + "/Tickets.xcdatamodel/contents")
        #expect(!FileManager.default.fileExists(atPath: folder.file("zoo.sqlite")))
    }
}

/// A hostile store's external data reference cannot reach outside `_EXTERNAL_DATA`: a `/` that a combining mark
/// follows (one character to Swift's search, a separator to the file system) is a separator.
struct CoreDataExternalReferenceTests {
    @Test func aReferenceWithAHiddenSlashIsMissingData() throws {
        let folder = try TemporaryFolder()
        let name = "../\u{301}secret"
        let hex = name.utf8.map { String(format: "%02X", $0) }.joined()
        let source = try CoreDataStoreBuilder.zoo(
            at: folder.file("Zoo.sqlite"),
            extraSQL: [
                "ALTER TABLE ZKEEPER ADD COLUMN ZBADGE BLOB",
                "UPDATE ZKEEPER SET ZBADGE = X'0141' WHERE Z_PK = 1",
                "UPDATE ZKEEPER SET ZBADGE = X'02\(hex)00' WHERE Z_PK = 2",
            ])
        // The file the reference leads to, outside the folder.
        let outside = folder.file(".Zoo_SUPPORT/\u{301}secret")
        #expect(FileManager.default.createFile(atPath: outside, contents: Data("private".utf8)))
        let entities = CoreDataStoreBuilder.zooEntities.replacingOccurrences(
            of: #"<relationship name="animals""#,
            with: #"<attribute name="badge" attributeType="Binary" allowsExternalBinaryDataStorage="YES"/>"#
                + "\n" + #"<relationship name="animals""#)
        let bundle = try ModelBundle(
            contentsOf: try BundleWriting.write("Zoo", in: folder.path, versions: [("Zoo 1", entities)]))
        let refused = try #require(throws: RemodelError.self) {
            try Store.importCoreData(from: source, bundle: bundle, into: folder.file("zoo.sqlite"))
        }
        #expect(refused.entity == "Keeper" && refused.property == "badge" && refused.primaryKey == 2, "\(refused)")
        #expect(!CoreDataExternalData.isFileName(name))
        for good in ["5F0F6A5B-2C6B-4B4B-9B1A-0E3A4D5C6B7A", "a\u{301}", "..."] {
            #expect(CoreDataExternalData.isFileName(good), "\(good)")
        }
        for bad in ["", ".", "..", "a/b", "/\u{301}", "../x"] {
            #expect(!CoreDataExternalData.isFileName(bad), "\(bad)")
        }
    }
}
