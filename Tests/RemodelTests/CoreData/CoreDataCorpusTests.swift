import Foundation
import Testing

@testable import Remodel
@testable import RemodelCoreData

/// Every real Core Data store of `shared/corpus-coredata` imports at the version it was matched to,
/// with every object, value, link and order checked against the store read the plain way, and not a
/// byte written in the store's folder.
@Suite(.tags(.corpus), .skippable(.corpus), .corpusStaysUnchanged)
struct CoreDataCorpusTests {
    static let enabled = Testing.ConditionTrait.enabled(
        if: CoreDataCorpus.exists, "shared/corpus-coredata is not beside the repository")

    @Test(enabled, arguments: CoreDataCorpus.fixtures)
    func importsEveryObjectValueAndLinkWithoutWritingTheSource(fixture: CoreDataCorpus.Fixture) throws {
        let folder = try TemporaryFolder()
        try FileManager.default.createDirectory(atPath: folder.file("source"), withIntermediateDirectories: true)
        let source = try fixture.copyStore(into: folder.file("source"))
        let before = try folderBytes(folder.file("source"))
        let bundle = try ModelBundle(contentsOf: fixture.bundlePath)

        let result = try Store.importCoreData(from: source, bundle: bundle, into: folder.file("imported.sqlite"))

        #expect(result.versionName == fixture.version)
        #expect(!result.versionWasGiven)
        #expect(try folderBytes(folder.file("source")) == before, "the import wrote in the source's folder")
        let reference = try CoreDataReference(copyOf: fixture, in: folder)
        let store = try SQLiteConnection(path: folder.file("imported.sqlite"), mode: .readOnly)
        try Self.checkObjects(
            reference: reference, store: store, version: try bundle.loadVersion(named: fixture.version),
            counts: result.objectCounts)
        #expect(try store.scalar("PRAGMA integrity_check") == .text("ok"))
        // The new store is a Remodel store at that version: status and the migrator take it from here.
        let inspection = try StoreInspector.inspect(path: folder.file("imported.sqlite"), bundle: bundle)
        switch inspection.state {
        case .current(let version), .older(let version, _):
            #expect(version == fixture.version)
        case .newer(let version):
            // A fixture of a version after the one the bundle marks current (CoreDataPlus's SampleModel2).
            #expect(
                version == fixture.version
                    && bundle.index(ofVersion: version) ?? 0 > bundle.index(ofVersion: bundle.currentVersionName) ?? 0)
        default:
            Issue.record("the imported store: \(inspection.message)")
        }
        // Every fixture but the oldest (framework 419) has Core Data's model cache, one row: skipped and said so.
        let hasModelCache =
            try reference.connection.scalar("SELECT count(*) FROM sqlite_master WHERE name = 'Z_MODELCACHE'")
            == .integer(1)
        #expect(result.skippedTables == (hasModelCache ? ["Z_MODELCACHE": 1] : [:]))
    }

    /// Each Core Data row against its Remodel object: entity, every attribute, every to-one, the
    /// positions of ordered to-manys, and the links of many-to-manys.
    static func checkObjects(
        reference: CoreDataReference, store: SQLiteConnection, version: ModelVersion, counts: [String: Int]
    ) throws {
        let layout = StoreLayout(version: version)
        let numbers = try reference.entityNumbers()
        for entity in version.entities where !entity.isAbstract {
            let root = version.root(of: entity)
            let table = try #require(layout.table(forEntity: entity.name))
            let number = try #require(
                numbers[entity.name] ?? entity.elementID.flatMap { numbers[$0] }, "no entity number for \(entity.name)")
            let rows = try reference.connection.rows(
                "SELECT * FROM \(quoteIdentifier("Z" + root.name.uppercased())) WHERE Z_ENT = ? ORDER BY Z_PK",
                [.integer(number)])
            let names = try reference.connection.prepare(
                "SELECT * FROM \(quoteIdentifier("Z" + root.name.uppercased())) LIMIT 0")
            let columnIndex = Dictionary(
                uniqueKeysWithValues: (0..<rows.first.map(\.count).orZero).map {
                    (names.columnName(at: $0).uppercased(), $0)
                })
            #expect(
                counts[entity.name] == rows.count,
                "\(entity.name): \(counts[entity.name] ?? -1) imported, \(rows.count) in the store")
            let imported = try store.scalar(
                "SELECT count(*) FROM \(quoteIdentifier(table.name)) WHERE _entity = ?", [.text(entity.name)])
            #expect(imported == .integer(Int64(rows.count)))
            for row in rows {
                guard case .integer(let key) = row[columnIndex["Z_PK"] ?? 0] else { continue }
                let object = try store.rows(
                    "SELECT * FROM \(quoteIdentifier(table.name)) WHERE _pk = ?", [.integer(key)]
                ).first
                let statement = try store.prepare("SELECT * FROM \(quoteIdentifier(table.name)) LIMIT 0")
                let found = Dictionary(
                    uniqueKeysWithValues: (0..<(object?.count ?? 0)).map {
                        (statement.columnName(at: $0), object?[$0] ?? .null)
                    })
                #expect(found["_entity"] == .text(entity.name), "\(entity.name) Z_PK \(key)")
                for attribute in version.attributes(of: entity) where attribute.isStored {
                    let column = try #require(layout.columnName(of: attribute.name, in: entity.name))
                    let sourceIndex = try #require(
                        columnIndex["Z" + attribute.name.uppercased()], "no column for \(entity.name).\(attribute.name)"
                    )
                    let expected = CoreDataReference.expected(row[sourceIndex], type: attribute.type)
                    #expect(found[column] == expected, "\(entity.name) Z_PK \(key) \(attribute.name)")
                }
                for relationship in version.relationships(of: entity)
                where !relationship.isToMany && layout.isStored(relationship) {
                    let column = try #require(layout.columnName(of: relationship.name, in: entity.name))
                    let sourceIndex = try #require(columnIndex["Z" + relationship.name.uppercased()])
                    #expect(found[column] == row[sourceIndex], "\(entity.name) Z_PK \(key) \(relationship.name)")
                    if let order = layout.orderColumnByToOne[
                        StoreLayout.PropertyKey(
                            entity: version.declaringEntity(of: relationship, in: entity).name,
                            property: relationship.name)]
                    {
                        let expected = try position(
                            of: key, in: "Z" + root.name.uppercased(), partition: "Z" + relationship.name.uppercased(),
                            reference: reference)
                        #expect(
                            found[order] == expected,
                            "\(entity.name) Z_PK \(key) position in \(relationship.name)'s ordered inverse")
                    }
                }
            }
        }
        for join in layout.joinTables {
            try checkJoin(join, reference: reference, store: store)
        }
    }

    /// The 0-based position of an object among those with the same to-one, by Core Data's ordering key.
    static func position(of key: Int64, in table: String, partition: String, reference: CoreDataReference) throws
        -> SQLiteValue
    {
        let fok = "Z_FOK_" + partition.dropFirst()
        let rows = try reference.connection.rows(
            "SELECT Z_PK, \(quoteIdentifier(partition)), \(quoteIdentifier(fok)) FROM \(quoteIdentifier(table)) WHERE \(quoteIdentifier(partition)) = (SELECT \(quoteIdentifier(partition)) FROM \(quoteIdentifier(table)) WHERE Z_PK = ?)",
            [.integer(key)])
        guard !rows.isEmpty else { return .null }
        let sorted = rows.sorted { (a, b) in
            let ka = a[2].integer ?? 0, kb = b[2].integer ?? 0
            return ka != kb ? ka < kb : (a[0].integer ?? 0) < (b[0].integer ?? 0)
        }
        return .integer(Int64(sorted.firstIndex { $0[0] == .integer(key) } ?? -1))
    }

    /// The Remodel join table holds exactly the Core Data join table's pairs, with positions ranked in Swift.
    static func checkJoin(_ join: StoreLayout.JoinTable, reference: CoreDataReference, store: SQLiteConnection) throws {
        let inverse = try #require(join.destinationRelationship).uppercased()
        let relationship = join.sourceRelationship.uppercased()
        let tables = try reference.connection.rows(
            "SELECT name FROM sqlite_master WHERE type = 'table' AND name LIKE 'Z\\_%' ESCAPE '\\'"
        )
        .compactMap { if case .text(let name) = $0[0] { return name } else { return nil } }
        var found: (table: String, owner: String, member: String)?
        for table in tables where table.hasSuffix(relationship) || table.hasSuffix(inverse) {
            let columns = try reference.connection.rows("SELECT name FROM pragma_table_info(?)", [.text(table)])
                .compactMap { if case .text(let name) = $0[0] { return name } else { return nil } }
            if let member = columns.first(where: { $0.hasSuffix(relationship) && !$0.hasPrefix("Z_FOK_") }),
                let owner = columns.first(where: { $0.hasSuffix(inverse) && !$0.hasPrefix("Z_FOK_") })
            {
                found = (table, owner, member)
            }
        }
        let (table, owner, member) = try #require(found, "no Core Data join table for \(join.name)")
        let columns = try reference.connection.rows("SELECT name FROM pragma_table_info(?)", [.text(table)]).compactMap
        { $0[0].text }
        let memberOrder = "Z_FOK_" + member.dropFirst(2), ownerOrder = "Z_FOK_" + owner.dropFirst(2)
        let select = [
            owner, member, columns.contains(memberOrder) ? memberOrder : "NULL",
            columns.contains(ownerOrder) ? ownerOrder : "NULL",
        ]
        .map { $0 == "NULL" ? $0 : quoteIdentifier($0) }.joined(separator: ", ")
        let pairs = try reference.connection.rows("SELECT \(select) FROM \(quoteIdentifier(table))").map {
            $0.map { $0.integer }
        }
        func ranks(by groupIndex: Int, _ otherIndex: Int, key: Int, ordered: Bool) -> [String: Int64] {
            guard ordered else { return [:] }
            var result: [String: Int64] = [:]
            for group in Dictionary(grouping: pairs, by: { $0[groupIndex] ?? 0 }).values {
                let sorted = group.sorted { ($0[key] ?? 0, $0[otherIndex] ?? 0) < ($1[key] ?? 0, $1[otherIndex] ?? 0) }
                for (position, pair) in sorted.enumerated() {
                    result["\(pair[0] ?? 0)-\(pair[1] ?? 0)"] = Int64(position)
                }
            }
            return result
        }
        let sourceOrders = ranks(by: 0, 1, key: 2, ordered: join.sourceIsOrdered)
        let destinationOrders = ranks(by: 1, 0, key: 3, ordered: join.destinationIsOrdered)
        var expected: [[SQLiteValue]] = pairs.map { pair in
            let id = "\(pair[0] ?? 0)-\(pair[1] ?? 0)"
            return [
                .integer(pair[0] ?? 0), .integer(pair[1] ?? 0), sourceOrders[id].map(SQLiteValue.integer) ?? .null,
                destinationOrders[id].map(SQLiteValue.integer) ?? .null,
            ]
        }
        expected.sort { ($0[0].integer ?? 0, $0[1].integer ?? 0) < ($1[0].integer ?? 0, $1[1].integer ?? 0) }
        let actual = try store.rows(
            "SELECT source, destination, source_order, destination_order FROM \(quoteIdentifier(join.name)) ORDER BY source, destination"
        )
        #expect(actual == expected, "\(join.name)")
    }
}

extension SQLiteValue {
    var integer: Int64? { if case .integer(let value) = self { return value } else { return nil } }
    var text: String? { if case .text(let value) = self { return value } else { return nil } }
}

extension Optional where Wrapped == Int {
    var orZero: Int { self ?? 0 }
}
