import Foundation
import Testing

@testable import Remodel
@testable import RemodelModel

/// `EntityPolicy` through whole migrations, checked row by row in the migrated store.
@Suite struct PolicyMigrationTests {
    private static let source = #"""
        <entity name="Item">
            <attribute name="name" optional="YES" attributeType="String"/>
            <attribute name="count" optional="YES" attributeType="Integer 64"/>
            <attribute name="ratio" optional="YES" attributeType="Double"/>
            <attribute name="data" optional="YES" attributeType="Binary"/>
        </entity>
        """#
    private static let destination = #"""
        <entity name="Item">
            <attribute name="label" optional="YES" attributeType="String"/>
            <attribute name="count" optional="YES" attributeType="Integer 64"/>
            <attribute name="ratio" optional="YES" attributeType="Double"/>
            <attribute name="data" optional="YES" attributeType="Binary"/>
            <attribute name="status" attributeType="Integer 32" defaultValueString="7"/>
            <attribute name="note" optional="YES" attributeType="String" defaultValueString="none"/>
        </entity>
        """#

    /// A store at the source version holding `rows` of (`_pk`, name, count, ratio, data).
    private static func migration(_ rows: [[SQLiteValue]]) throws -> MigrationCase {
        let bundle = makeBundle("Items", try makeVersion("Items", source), try makeVersion("Items 2", destination))
        let migration = try MigrationCase(bundle: bundle, seed: nil)
        let connection = try SQLiteConnection(path: migration.store, mode: .readWrite)
        let insert = try connection.prepare(
            "INSERT INTO Item (_pk, _entity, name, count, ratio, data) VALUES (?, 'Item', ?, ?, ?, ?)")
        for row in rows {
            try insert.bind(row)
            try insert.step()
        }
        return migration
    }

    private static func items(in migration: MigrationCase) throws -> [[SQLiteValue]] {
        try SQLiteConnection(path: migration.store, mode: .readOnly)
            .rows("SELECT _pk, _entity, label, count, ratio, data, status, note FROM Item ORDER BY _pk")
    }

    /// Every storage class arrives exactly, batch after batch (text with U+0000, empty text and blob,
    /// long text, extreme numbers, NULL), and the source objects a policy keeps keep their own values
    /// even though rows are read into shared storage.
    @Test func valuesArriveRowByRowAndKeptSourceObjectsKeepTheirs() async throws {
        let rows: [[SQLiteValue]] = [
            [.integer(2), .text("Ada"), .integer(36), .real(1.5), .blob(Data([1, 2, 3]))],
            [.integer(3), .text(""), .integer(0), .real(-0.25), .blob(Data())],
            [.integer(10), .text("a\u{0}b"), .integer(.max), .real(1e300), .null],
            [.integer(11), .null, .null, .null, .null],
            [
                .integer(40), .text("Ünïcødé ✓, and longer than fifteen bytes"), .integer(.min), .real(3),
                .blob(Data(repeating: 7, count: 1000)),
            ],
        ]
        let migration = try Self.migration(rows)
        let kept = Collector<SourceObject>()
        var options = MigrationOptions(batchSize: 2)
        options.policies = [
            EntityPolicy(destination: "Item") { item in
                kept.append(item)
                return [
                    DestinationObject([
                        "label": item["name"], "count": item["count"], "ratio": item["ratio"], "data": item["data"],
                    ])
                ]
            }
        ]
        try await migration.migrate(options)

        #expect(
            try Self.items(in: migration)
                == rows.map { row in
                    [row[0], .text("Item")] + row[1...] + [.integer(7), .text("none")]
                })
        #expect(
            kept.values.map { item in
                [.integer(item.primaryKey)] + ["name", "count", "ratio", "data"].map { item[$0] }
            } == rows)
        #expect(kept.values.allSatisfy { $0.entity == "Item" && $0["label"] == .null && $0["_pk"] == .null })
    }

    /// An attribute an object leaves out takes its model default even when an earlier object set it;
    /// an explicit `.null` stays NULL; names that are not attributes are ignored; values may come in
    /// any order and a repeated name's last value counts. Small batches and one batch larger than a
    /// statement's rows (so statements run full and part full).
    @Test(arguments: [2, 5, 1_000])
    func leftOutAttributesTakeTheirDefaultsObjectByObject(batchSize: Int) async throws {
        let keys = 1...150
        let migration = try Self.migration(
            keys.map { [.integer(Int64($0)), .text("n\($0)"), .integer(Int64($0)), .null, .null] })
        var options = MigrationOptions(batchSize: batchSize)
        options.policies = [
            EntityPolicy(destination: "Item") { item in
                switch item.primaryKey % 3 {
                case 1:
                    return [
                        DestinationObject([
                            "status": .integer(1), "note": .text("set"), "label": item["name"], "count": item["count"],
                        ])
                    ]
                case 2:
                    var object = DestinationObject()
                    object["count"] = item["count"]
                    object["bogus"] = .integer(9)
                    object["label"] = item["name"]
                    return [object]
                default:
                    let note = "note"
                    return [DestinationObject([note: .text("replaced"), "label": item["name"], "note": .null])]
                }
            }
        ]
        try await migration.migrate(options)

        #expect(
            try Self.items(in: migration)
                == keys.map { (key: Int) -> [SQLiteValue] in
                    let label = SQLiteValue.text("n\(key)")
                    switch key % 3 {
                    case 1:
                        return [
                            .integer(Int64(key)), .text("Item"), label, .integer(Int64(key)), .null, .null, .integer(1),
                            .text("set"),
                        ]
                    case 2:
                        return [
                            .integer(Int64(key)), .text("Item"), label, .integer(Int64(key)), .null, .null, .integer(7),
                            .text("none"),
                        ]
                    default:
                        return [.integer(Int64(key)), .text("Item"), label, .null, .null, .null, .integer(7), .null]
                    }
                })
    }

    /// Several objects from one source object and none from another, where keys are remapped (Cat and Dog
    /// merged into one Pet table): the first object takes the source object's links through the key table,
    /// the second a fresh key and no link; a dropped object leaves no link.
    @Test func severalAndNoObjectsWithRemappedKeys() async throws {
        let migration = try MigrationCase(fixture: "Merge")
        var options = MigrationOptions(batchSize: 1)
        options.policies = [
            EntityPolicy(destination: "Dog") { dog in
                guard case .text(let name) = dog["name"] else { return [] }
                switch name {
                case "Max": return []
                case "Rex":
                    return [
                        DestinationObject(["name": .text("Rex")]),
                        DestinationObject(["name": .text("Rex Jr"), "good": .integer(0)]),
                    ]
                default: return [DestinationObject(["name": .text(name.uppercased()), "good": dog["good"]])]
                }
            }
        ]
        try await migration.migrate(options)
        expectSameText(
            try migration.export(),
            """
            {
              "Cat": [
                {"_pk": 1, "name": "Tom", "owner": 100, "rivals": [5]},
                {"_pk": 2, "name": "Kit", "owner": null, "rivals": [3, 5]}
              ],
              "Dog": [
                {"_pk": 3, "name": "Rex", "good": true, "owner": 100, "chases": 2, "rivals": [2]},
                {"_pk": 4, "name": "Rex Jr", "good": false, "owner": null, "chases": null, "rivals": []},
                {"_pk": 5, "name": "FIDO", "good": false, "owner": 100, "chases": 1, "rivals": [1, 2]}
              ],
              "Person": [
                {"_pk": 100, "name": "Ann", "cats": [1], "dogs": [5, 3]}
              ]
            }

            """)
    }

    /// Thousands of objects in batches that do not divide into full statements, with zero, one and two
    /// objects per source object: every row arrives once, the extra objects numbered after every source key.
    @Test func manyObjectsInUnevenBatches() async throws {
        let count = 700
        let migration = try Self.migration(
            (1...count).map {
                [.integer(Int64($0)), .text("item \($0)"), .integer(Int64($0)), .real(Double($0) / 4), .null]
            })
        var options = MigrationOptions(batchSize: 300)
        options.policies = [
            EntityPolicy(destination: "Item") { item in
                guard case .integer(let number) = item["count"] else { return [] }
                let object = DestinationObject([
                    "label": item["name"], "count": .integer(number), "ratio": item["ratio"],
                ])
                switch number % 7 {
                case 0: return []
                case 1: return [object, DestinationObject(["label": .text("extra \(number)")])]
                default: return [object]
                }
            }
        ]
        try await migration.migrate(options)

        var expected: [[SQLiteValue]] = []
        var extras: [[SQLiteValue]] = []
        for number in 1...Int64(count) where number % 7 != 0 {
            expected.append([
                .integer(number), .text("Item"), .text("item \(number)"), .integer(number), .real(Double(number) / 4),
                .null, .integer(7), .text("none"),
            ])
            if number % 7 == 1 {
                extras.append([
                    .integer(Int64(count) + Int64(extras.count) + 1), .text("Item"), .text("extra \(number)"), .null,
                    .null, .null, .integer(7), .text("none"),
                ])
            }
        }
        #expect(try Self.items(in: migration) == expected + extras)
    }

    /// A policy that throws stops the migration with a message naming the object, and the store is left
    /// exactly as it was (both threads stop; nothing is left beside the store).
    @Test func aThrowingPolicyStopsTheMigrationAndLeavesTheStore() async throws {
        struct Refused: Error, CustomStringConvertible {
            var description: String { "refused" }
        }
        let migration = try Self.migration((1...50).map { [.integer(Int64($0)), .text("n"), .null, .null, .null] })
        var options = MigrationOptions(batchSize: 4)
        options.policies = [
            EntityPolicy(destination: "Item") { item in
                if item.primaryKey == 23 { throw Refused() }
                return [DestinationObject(["label": item["name"]])]
            }
        ]
        let error = try await expectRefusedUntouched(
            .invalidValue, .message("the migration policy for Item failed on Item _pk 23: refused"),
            folder: migration.folder.path
        ) { try await migration.migrate(options) }
        #expect(error?.primaryKey == 23)
    }

    /// Cancelling while a policy is making objects stops both threads and leaves the store as it was.
    @Test func cancellingDuringAPolicyLeavesTheStore() async throws {
        let migration = try Self.migration((1...200).map { [.integer(Int64($0)), .text("n"), .null, .null, .null] })
        let before = try migration.snapshot()
        // The policy cancels the run itself at object 100, so cancelling lands mid-entity whatever the timing.
        let runs = Collector<MigrationRun>()
        var options = MigrationOptions(batchSize: 10)
        options.policies = [
            EntityPolicy(destination: "Item") { item in
                if item.primaryKey == 100 {
                    while runs.values.isEmpty { usleep(1_000) }
                    runs.values.first?.cancel()
                }
                return [DestinationObject(["label": item["name"]])]
            }
        ]
        let run = Migrator(bundle: migration.bundle, options: options).start(storeAt: migration.store)
        runs.append(run)
        var phases: [MigrationProgress.Phase] = []
        for await progress in run.progressUpdates { phases.append(progress.phase) }
        let error = await #expect(throws: RemodelError.self) { try await run.result }
        #expect(error?.code == .cancelled)
        #expect(!phases.contains(.relationships))
        #expect(try migration.snapshot() == before)
        #expect(try migration.folder.contents() == ["store.sqlite"])
    }

    /// The policy's reading thread opens the source store by its path: characters that mean something
    /// in a URI (`%`, `?`, `#`, a space) must not get in the way.
    @Test func aStoreWhosePathNeedsEscaping() async throws {
        let bundle = makeBundle(
            "Items", try makeVersion("Items", Self.source), try makeVersion("Items 2", Self.destination))
        let folder = try TemporaryFolder()
        let inner = folder.file("odd %41 ? # name")
        try FileManager.default.createDirectory(atPath: inner, withIntermediateDirectories: true)
        let store = inner + "/store.sqlite"
        _ = try Store.create(at: store, bundle: bundle, version: "Items", seed: nil)
        try SQLiteConnection(path: store, mode: .readWrite).run(
            "INSERT INTO Item (_pk, _entity, name) VALUES (1, 'Item', 'x')")
        var options = MigrationOptions()
        options.policies = [EntityPolicy(destination: "Item") { item in [DestinationObject(["label": item["name"]])] }]
        _ = try await Migrator(bundle: bundle, options: options).migrate(storeAt: store)
        #expect(
            try SQLiteConnection(path: store, mode: .readOnly).rows("SELECT _pk, label FROM Item") == [
                [.integer(1), .text("x")]
            ])
    }

    /// The example in `EntityPolicy`'s documentation, as written there: one name split in two.
    @Test func theDocumentedSplitExample() async throws {
        let bundle = makeBundle(
            "People",
            try makeVersion(
                "People",
                #"<entity name="Person"><attribute name="name" optional="YES" attributeType="String"/></entity>"#),
            try makeVersion(
                "People 2",
                #"<entity name="Person"><attribute name="firstName" optional="YES" attributeType="String"/><attribute name="lastName" optional="YES" attributeType="String"/></entity>"#
            ))
        let migration = try MigrationCase(bundle: bundle, seed: nil)
        try SQLiteConnection(path: migration.store, mode: .readWrite).execute(
            "INSERT INTO Person (_pk, _entity, name) VALUES (1, 'Person', 'Ada Lovelace'), (2, 'Person', 'Plato'), (3, 'Person', NULL)"
        )
        let split = EntityPolicy(destination: "Person") { source in
            guard case .text(let full) = source["name"] else { return [] }
            let parts = full.split(separator: " ", maxSplits: 1).map(String.init)
            return [
                DestinationObject(["firstName": .text(parts[0]), "lastName": .text(parts.count > 1 ? parts[1] : "")])
            ]
        }
        var options = MigrationOptions()
        options.policies = [split]
        try await migration.migrate(options)
        #expect(
            try SQLiteConnection(path: migration.store, mode: .readOnly).rows(
                "SELECT _pk, firstName, lastName FROM Person ORDER BY _pk") == [
                    [.integer(1), .text("Ada"), .text("Lovelace")], [.integer(2), .text("Plato"), .text("")],
                ])
    }

    /// Objects a policy makes keep their own to-one links, also where another entity of their table is copied
    /// by SQL and got the same column's keys in phase 1 (the column was then taken as done for both: the
    /// policy's blocks lost their `chain`, silently where it is optional).
    @Test func objectsAPolicyMakesKeepTheirOwnToOneLinks() async throws {
        let model = """
            <entity name="Chain"><attribute name="name" optional="YES" attributeType="String"/><relationship name="blocks" optional="YES" toMany="YES" deletionRule="Nullify" destinationEntity="Block" inverseName="chain" inverseEntity="Block"/></entity>
            <entity name="Block" isAbstract="YES"><attribute name="height" optional="YES" attributeType="Integer 64"/><relationship name="chain" optional="YES" maxCount="1" deletionRule="Nullify" destinationEntity="Chain" inverseName="blocks" inverseEntity="Chain"/></entity>
            <entity name="MerkleBlock" parentEntity="Block"/>
            <entity name="PlainBlock" parentEntity="Block"/>
            """
        let changed = model.replacingOccurrences(
            of: #"<entity name="Chain">"#, with: #"<entity name="Chain" versionHashModifier="2">"#)
        let bundle = makeBundle("Blocks", try makeVersion("Blocks", model), try makeVersion("Blocks 2", changed))
        let folder = try TemporaryFolder()
        let seed = try folder.write(
            """
            {"Chain": [{"_pk": 1, "name": "main"}, {"_pk": 2, "name": "test"}],
             "MerkleBlock": [{"_pk": 1, "height": 10, "chain": 1}, {"_pk": 2, "height": 11, "chain": 2}],
             "PlainBlock": [{"_pk": 3, "height": 12, "chain": 2}]}
            """, to: "seed.json")
        let migration = try MigrationCase(bundle: bundle, seed: seed)
        var options = MigrationOptions()
        options.policies = [
            EntityPolicy(destination: "MerkleBlock") { block in [DestinationObject(["height": block["height"]])] }
        ]
        try await migration.migrate(options)
        let rows = try SQLiteConnection(path: migration.store, mode: .readOnly).rows(
            #"SELECT "_pk", "_entity", "chain" FROM "Block" ORDER BY "_pk""#)
        #expect(
            rows == [
                [.integer(1), .text("MerkleBlock"), .integer(1)], [.integer(2), .text("MerkleBlock"), .integer(2)],
                [.integer(3), .text("PlainBlock"), .integer(2)],
            ])
    }
}
