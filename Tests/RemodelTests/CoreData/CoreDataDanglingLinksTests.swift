import Foundation
import Testing

@testable import Remodel
@testable import RemodelCoreData

/// Links to objects a Core Data store does not have (wire's `store1-27`: `Connection.to`, `Conversation
/// .creator` and two many-to-manys name Users it lacks): every one listed, then refused or left out
/// (`--dangling-links refuse|drop`; docs/CORE-DATA-STORES.md, "Damage").
struct CoreDataDanglingLinksTests {
    /// The zoo store with two to-ones into nothing (Felix's keeper 9, Ann's favorite animal 8) and two
    /// join rows whose one side is nothing (Ann in zone 7, keeper 9 first in North).
    static func damagedZoo(in folder: TemporaryFolder) throws -> String {
        try FileManager.default.createDirectory(atPath: folder.file("source"), withIntermediateDirectories: true)
        return try CoreDataStoreBuilder.zoo(
            at: folder.file("source/Zoo.sqlite"),
            extraSQL: [
                "UPDATE ZANIMAL SET ZKEEPER = 9 WHERE Z_PK = 3",
                "UPDATE ZKEEPER SET ZFAVORITE = 8 WHERE Z_PK = 1",
                "INSERT INTO Z_4ZONES VALUES (1, 7, 10)",
                "INSERT INTO Z_4ZONES VALUES (9, 1, 500)",
            ])
    }

    static let expectedDrops = [
        CoreDataImport.DroppedLink(
            entity: "Cat", primaryKey: 3, relationship: "keeper", key: "9", destination: "Keeper"),
        CoreDataImport.DroppedLink(
            entity: "Keeper", primaryKey: 1, relationship: "favorite", key: "8", destination: "Animal"),
        CoreDataImport.DroppedLink(
            entity: "Keeper", primaryKey: 1, relationship: "zones", key: "7", destination: "Zone"),
        CoreDataImport.DroppedLink(
            entity: "Zone", primaryKey: 1, relationship: "keepers", key: "9", destination: "Keeper"),
    ]

    @Test func refusalListsEveryDanglingLink() throws {
        let folder = try TemporaryFolder()
        let source = try Self.damagedZoo(in: folder)
        let bundle = try CoreDataStoreBuilder.zooBundle(in: folder.file("bundle"))

        let refused = try #require(throws: RemodelError.self) {
            try Store.importCoreData(from: source, bundle: bundle, into: folder.file("zoo.sqlite"))
        }

        #expect(
            refused.message
                == "4 links name an object the store does not have: Cat Z_PK 3 relationship \"keeper\" names Z_PK 9, but the store has no Keeper with that key; Keeper Z_PK 1 relationship \"favorite\" names Z_PK 8, but the store has no Animal with that key; Keeper Z_PK 1 relationship \"zones\" links Z_PK 7 as a Zone, but the store has no Zone with that key; Zone Z_PK 1 relationship \"keepers\" links Z_PK 9 as a Keeper, but the store has no Keeper with that key; nothing was imported: import without them with --dangling-links drop (Core Data turns an object it cannot find into a deleted one when the link is followed), or open the store with the app to repair it"
        )
        #expect(refused.entity == "Animal" && refused.property == "keeper" && refused.primaryKey == 3)
        #expect(!FileManager.default.fileExists(atPath: folder.file("zoo.sqlite")))
    }

    /// Dropped: each listed in the result, the closing lines and the JSON; the to-ones are nil, the join
    /// rows gone and the positions left counted again; `status` has nothing to say, and a migration that
    /// checks every value and link of the store passes.
    @Test func dropImportsWithoutThemAndListsEach() throws {
        let folder = try TemporaryFolder()
        let source = try Self.damagedZoo(in: folder)
        let bundlePath = try BundleWriting.write(
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
        let bundle = try ModelBundle(contentsOf: bundlePath)

        let result = try Store.importCoreData(
            from: source, bundle: bundle, into: folder.file("zoo.sqlite"),
            options: CoreDataImportOptions(danglingLinks: .drop))

        #expect(result.droppedLinks == Self.expectedDrops)
        #expect(
            result.description.contains(
                "Links to objects the store does not have, left out: Cat Z_PK 3 \"keeper\" → Keeper Z_PK 9, Keeper Z_PK 1 \"favorite\" → Animal Z_PK 8, Keeper Z_PK 1 \"zones\" → Zone Z_PK 7, Zone Z_PK 1 \"keepers\" → Keeper Z_PK 9."
            ))
        let layout = StoreLayout(version: try bundle.loadVersion(named: "Zoo 1"))
        let join = try #require(layout.joinTables.first)
        #expect(result.linkCounts[join.name] == 3)
        let store = try SQLiteConnection(path: folder.file("zoo.sqlite"), mode: .readOnly)
        #expect(try store.scalar("SELECT keeper FROM Animal WHERE _pk = 3") == .null)
        #expect(try store.scalar("SELECT favorite FROM Keeper WHERE _pk = 1") == .null)
        // North's keepers keep their order (keeper 9 at key 500 gone, then Bob, Ann: 1000 and 3000), counted from 0.
        let zoneOne = try store.rows(
            "SELECT source, destination_order FROM \(quoteIdentifier(join.name)) WHERE destination = 1 ORDER BY destination_order"
        )
        #expect(zoneOne == [[.integer(2), .integer(0)], [.integer(1), .integer(1)]])
        #expect(
            try store.scalar("SELECT destination_order FROM \(quoteIdentifier(join.name)) WHERE destination = 2")
                == .integer(0))

        let status = try RemodelProcess.run(["status", folder.file("zoo.sqlite"), "--model", bundlePath])
        #expect(status.status == 0 && status.output.contains("older than the current \"Zoo 2\""), "\(status)")
        let migrate = try RemodelProcess.run([
            "migrate", folder.file("zoo.sqlite"), "--model", bundlePath, "--check-everything",
        ])
        #expect(migrate.status == 0, "\(migrate)")
        let after = try RemodelProcess.run(["status", folder.file("zoo.sqlite"), "--model", bundlePath])
        #expect(after.status == 0 && after.output.contains("is at the current version \"Zoo 2\""), "\(after)")
    }

    /// The command line: refused listing every one, then `--dangling-links drop` with the JSON output.
    @Test func commandDropsWithJSON() throws {
        let folder = try TemporaryFolder()
        let source = try Self.damagedZoo(in: folder)
        let bundle = try BundleWriting.write(
            "Zoo", in: folder.file("bundle"), versions: [("Zoo 1", CoreDataStoreBuilder.zooEntities)])

        let refused = try RemodelProcess.run([
            "import-core-data", source, "--model", bundle, "--into", folder.file("zoo.sqlite"),
        ])
        let dropped = try RemodelProcess.run([
            "import-core-data", source, "--model", bundle, "--into", folder.file("zoo.sqlite"), "--dangling-links",
            "drop", "--format", "json",
        ])

        #expect(refused.status == 1 && refused.error.contains("4 links name an object the store does not have"))
        #expect(dropped.status == 0, "\(dropped)")
        let json = try #require(
            try JSONSerialization.jsonObject(with: Data(dropped.output.utf8)) as? [String: Any])
        let links = try #require(json["droppedLinks"] as? [[String: Any]])
        #expect(links.count == 4)
        #expect(links.first?["entity"] as? String == "Cat" && links.first?["primaryKey"] as? Int == 3)
        #expect(links.first?["relationship"] as? String == "keeper" && links.first?["key"] as? Int == 9)
        #expect(links.first?["destination"] as? String == "Keeper")
    }

    /// A required to-one cannot be left out without breaking the model: refused even with drop, naming it.
    @Test func dropRefusesARequiredToOne() throws {
        let folder = try TemporaryFolder()
        try FileManager.default.createDirectory(atPath: folder.file("source"), withIntermediateDirectories: true)
        let source = try CoreDataStoreBuilder.zoo(
            at: folder.file("source/Zoo.sqlite"),
            extraSQL: [
                "UPDATE ZANIMAL SET ZKEEPER = 1 WHERE ZKEEPER IS NULL", "UPDATE ZANIMAL SET ZKEEPER = 9 WHERE Z_PK = 3",
            ])
        let entities = CoreDataStoreBuilder.zooEntities.replacingOccurrences(
            of: #"<relationship name="keeper" optional="YES""#, with: #"<relationship name="keeper""#)
        let bundle = try ModelBundle(
            contentsOf: try BundleWriting.write("Zoo", in: folder.file("bundle"), versions: [("Zoo 1", entities)]))

        let refused = try #require(throws: RemodelError.self) {
            try Store.importCoreData(
                from: source, bundle: bundle, into: folder.file("zoo.sqlite"),
                options: CoreDataImportOptions(danglingLinks: .drop))
        }

        #expect(
            refused.message
                == "a link names an object the store does not have: Cat Z_PK 3 relationship \"keeper\" names Z_PK 9, but the store has no Keeper with that key; nothing was imported: Cat.keeper is required by the model, so that link cannot be left out: open the store with the app to repair it"
        )
    }
}
