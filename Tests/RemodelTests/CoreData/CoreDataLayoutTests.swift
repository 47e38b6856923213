import Foundation
import Testing

@testable import Remodel
@testable import RemodelCoreData

/// Stores built from the documented Core Data layout, for what the real fixtures lack.
struct CoreDataLayoutTests {
    static let offset = CoreDataStoreBuilder.offset

    @Test func importsEveryEncodingInheritanceExternalDataAndLinks() throws {
        let folder = try TemporaryFolder()
        let source = try CoreDataStoreBuilder.zoo(at: folder.file("Zoo.sqlite"))
        let bundle = try CoreDataStoreBuilder.zooBundle(in: folder.path)
        let before = try folderBytes(folder.path)

        let result = try Store.importCoreData(from: source, bundle: bundle, into: folder.file("zoo-remodel.sqlite"))

        #expect(result.versionName == "Zoo 1")
        #expect(result.objectCounts == ["Animal": 1, "Cat": 2, "Dog": 2, "Keeper": 2, "Zone": 2])
        #expect(result.linkCounts == ["_Keeper_zones": 3])
        #expect(result.externalFiles == 1)
        #expect(
            result.skippedTables == [
                "ACHANGE": 3, "ANSCKRECORDMETADATA": 1, "ATRANSACTION": 2, "ATRANSACTIONSTRING": 0, "Z_MODELCACHE": 1,
            ])
        var after = try folderBytes(folder.path)
        after["zoo-remodel.sqlite"] = nil
        #expect(after == before, "the import wrote beside the source")

        let store = try SQLiteConnection(path: folder.file("zoo-remodel.sqlite"), mode: .readOnly)
        let animals = try store.rows(
            "SELECT _pk, _entity, name, born, id, weight, photo, homepage, vaccinated, height, lives, tag, tag_Dog, keeper, _keeper_order FROM Animal ORDER BY _pk"
        )
        let expected: [[SQLiteValue]] = [
            [
                .integer(1), .text("Animal"), .text("Rex"), .real(0.5 + Self.offset),
                .text("01234567-89AB-CDEF-0123-456789ABCDEF"), .text("12.5"),
                .blob(Data([0xCA, 0xFE])), .text("https://zoo.example/rex"), .integer(1), .real(1.25), .null, .null,
                .null, .integer(1), .integer(1),
            ],
            [
                .integer(2), .text("Cat"), .text("Tom"), .real(-86400 + Self.offset), .null, .text("3"),
                .blob(Data([0xBE, 0xEF, 0x00, 0x42])),
                .null, .integer(0), .real(2), .integer(9), .text("striped"), .null, .integer(1), .integer(0),
            ],
            [
                .integer(3), .text("Cat"), .text("Felix"), .null, .null, .null, .null, .null, .null, .null, .integer(7),
                .null, .null, .integer(2), .integer(0),
            ],
            [
                .integer(4), .text("Dog"), .text("Fido"), .real(700000000.25 + Self.offset), .null, .null, .null, .null,
                .integer(1), .null, .null, .null,
                .integer(42), .integer(1), .integer(2),
            ],
            [
                .integer(5), .text("Dog"), .text("Rover"), .null, .null, .null, .null, .null, .null, .null, .null,
                .null, .integer(-7), .null, .null,
            ],
        ]
        #expect(animals == expected)
        #expect(
            try store.rows("SELECT _pk, _entity, name, favorite FROM Keeper ORDER BY _pk")
                == [
                    [.integer(1), .text("Keeper"), .text("Ann"), .integer(2)],
                    [.integer(2), .text("Keeper"), .text("Bob"), .null],
                ])
        #expect(
            try store.rows("SELECT _pk, title FROM Zone ORDER BY _pk") == [
                [.integer(1), .text("North")], [.integer(2), .text("South")],
            ])
        // Zone.keepers is ordered: North lists Bob (key 1000) before Ann (3000).
        #expect(
            try store.rows(
                "SELECT source, destination, source_order, destination_order FROM _Keeper_zones ORDER BY source, destination"
            )
                == [
                    [.integer(1), .integer(1), .null, .integer(1)], [.integer(2), .integer(1), .null, .integer(0)],
                    [.integer(2), .integer(2), .null, .integer(0)],
                ])
        // The export, as any store's: the objects a JSON import would have made.
        let export = try Store.open(at: folder.file("zoo-remodel.sqlite"), bundle: bundle).exportJSONString()
        let objects = try #require(
            try JSONSerialization.jsonObject(with: Data(export.utf8)) as? [String: [[String: Any]]])
        let ann = try #require(objects["Keeper"]?.first { $0["_pk"] as? Int == 1 })
        #expect(ann["animals"] as? [Int] == [2, 1, 4])
        let north = try #require(objects["Zone"]?.first { $0["_pk"] as? Int == 1 })
        #expect(north["keepers"] as? [Int] == [2, 1])
    }

    @Test func refusesAValueRemodelCannotHoldNamingEntityKeyAttributeAndValue() throws {
        let folder = try TemporaryFolder()
        let source = try CoreDataStoreBuilder.zoo(
            at: folder.file("Zoo.sqlite"), extraSQL: ["UPDATE ZANIMAL SET ZBORN = 'yesterday' WHERE Z_PK = 4"])
        let bundle = try CoreDataStoreBuilder.zooBundle(in: folder.path)
        let error = try #require(throws: RemodelError.self) {
            try Store.importCoreData(from: source, bundle: bundle, into: folder.file("zoo-remodel.sqlite"))
        }
        #expect(error.code == .invalidValue)
        #expect(error.entity == "Dog" && error.property == "born" && error.primaryKey == 4)
        #expect(
            error.message
                == "Dog Z_PK 4 attribute \"born\" (column ZANIMAL.ZBORN): the store holds 'yesterday' (text), but a Date attribute must be a number of seconds since 2001; Remodel does not drop or change a value, so nothing was imported: correct it with the app, or give the model version whose type it has"
        )
        #expect(!FileManager.default.fileExists(atPath: folder.file("zoo-remodel.sqlite")))
        let left = try folder.contents()
        #expect(left.allSatisfy { !$0.contains("remodel-core-data") }, "a temporary file was left: \(left)")
    }

    @Test func refusesAnObjectOfAnAbstractOrUnknownEntity() throws {
        let folder = try TemporaryFolder()
        let source = try CoreDataStoreBuilder.zoo(
            at: folder.file("Zoo.sqlite"), extraSQL: ["UPDATE ZANIMAL SET Z_ENT = 9 WHERE Z_PK = 3"])
        let bundle = try CoreDataStoreBuilder.zooBundle(in: folder.path)
        let error = try #require(throws: RemodelError.self) {
            try Store.importCoreData(from: source, bundle: bundle, into: folder.file("zoo-remodel.sqlite"))
        }
        #expect(
            error.message
                == "ZANIMAL Z_PK 3 has entity number 9, which Z_PRIMARYKEY does not give to an entity of this table; an object must be of a concrete entity, so nothing was imported; open the store with the app to repair it, or give the model version that wrote it"
        )
    }

    @Test func refusesALinkToNothing() throws {
        let folder = try TemporaryFolder()
        let bundle = try CoreDataStoreBuilder.zooBundle(in: folder.path)
        let toOne = try CoreDataStoreBuilder.zoo(
            at: folder.file("Zoo.sqlite"), extraSQL: ["UPDATE ZANIMAL SET ZKEEPER = 9 WHERE Z_PK = 5"])
        let error = try #require(throws: RemodelError.self) {
            try Store.importCoreData(from: toOne, bundle: bundle, into: folder.file("zoo-remodel.sqlite"))
        }
        #expect(error.entity == "Animal" && error.property == "keeper" && error.primaryKey == 5)
        #expect(
            error.message
                == "a link names an object the store does not have: Dog Z_PK 5 relationship \"keeper\" names Z_PK 9, but the store has no Keeper with that key; nothing was imported: import without them with --dangling-links drop (Core Data turns an object it cannot find into a deleted one when the link is followed), or open the store with the app to repair it"
        )
        let join = try CoreDataStoreBuilder.zoo(
            at: folder.file("Zoo2.sqlite"), extraSQL: ["INSERT INTO Z_4ZONES VALUES (1, 7, 10)"])
        let joinError = try #require(throws: RemodelError.self) {
            try Store.importCoreData(from: join, bundle: bundle, into: folder.file("zoo2-remodel.sqlite"))
        }
        #expect(
            joinError.message
                == "a link names an object the store does not have: Keeper Z_PK 1 relationship \"zones\" links Z_PK 7 as a Zone, but the store has no Zone with that key; nothing was imported: import without them with --dangling-links drop (Core Data turns an object it cannot find into a deleted one when the link is followed), or open the store with the app to repair it"
        )
        #expect(try folder.contents().filter { $0.hasSuffix("remodel.sqlite") }.isEmpty)
    }

    @Test func refusesWhenAnExternalDataFileIsMissing() throws {
        let folder = try TemporaryFolder()
        let source = try CoreDataStoreBuilder.zoo(at: folder.file("Zoo.sqlite"))
        try FileManager.default.removeItem(
            atPath: folder.file(".Zoo_SUPPORT/_EXTERNAL_DATA/5F0F6A5B-2C6B-4B4B-9B1A-0E3A4D5C6B7A"))
        let bundle = try CoreDataStoreBuilder.zooBundle(in: folder.path)
        let error = try #require(throws: RemodelError.self) {
            try Store.importCoreData(from: source, bundle: bundle, into: folder.file("zoo-remodel.sqlite"))
        }
        #expect(error.entity == "Cat" && error.property == "photo" && error.primaryKey == 2)
        #expect(
            error.message
                == "Cat Z_PK 2 attribute \"photo\": its bytes are kept in the file \(folder.path)/.Zoo_SUPPORT/_EXTERNAL_DATA/5F0F6A5B-2C6B-4B4B-9B1A-0E3A4D5C6B7A, which cannot be read; copy the store with its .Zoo_SUPPORT folder and import again, or import it empty with --missing-external-data empty"
        )
        #expect(!FileManager.default.fileExists(atPath: folder.file("zoo-remodel.sqlite")))
    }

    @Test func neverReplacesAFile() throws {
        let folder = try TemporaryFolder()
        let source = try CoreDataStoreBuilder.zoo(at: folder.file("Zoo.sqlite"))
        let bundle = try CoreDataStoreBuilder.zooBundle(in: folder.path)
        let existing = try folder.write("keep me", to: "zoo-remodel.sqlite")
        let error = try #require(throws: RemodelError.self) {
            try Store.importCoreData(from: source, bundle: bundle, into: existing)
        }
        #expect(error.code == .incompatibleStore)
        #expect(
            error.description
                == "\(existing): a file already exists here; an import of a Core Data store never replaces a file: remove it, or choose another path for the new store"
        )
        #expect(try String(contentsOfFile: existing, encoding: .utf8) == "keep me")
    }

    @Test func refusesADatabaseThatIsNotACoreDataStore() throws {
        let folder = try TemporaryFolder()
        let other = folder.file("other.sqlite")
        try SQLiteConnection(path: other, mode: .create).execute("CREATE TABLE t (x)")
        let bundle = try CoreDataStoreBuilder.zooBundle(in: folder.path)
        let error = try #require(throws: RemodelError.self) {
            try Store.importCoreData(from: other, bundle: bundle, into: folder.file("new.sqlite"))
        }
        #expect(error.code == .notAStore)
        #expect(
            error.message
                == "this SQLite database is not a Core Data store (it has no Z_METADATA and Z_PRIMARYKEY tables); `remodel import-core-data` reads only stores that Core Data wrote"
        )
    }
}
