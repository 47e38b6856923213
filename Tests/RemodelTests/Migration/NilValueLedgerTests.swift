import Foundation
import Testing

@testable import Remodel

/// Every non-nil value a conversion, an expression or a policy turns into nil is counted, per step and
/// attribute, with one example `_pk` and the values read (issue 40 item 1; DESIGN, Migration item 12): in
/// the closing lines, `MigrationReport.losses`, the JSON report, the plan of a dry run, and a lossless
/// downgrade refuses it. The reproduction: `age = int(trim($source.age))` turned `"forty"` into nil without
/// a word.
struct NilValueLedgerTests {
    /// A `People` bundle: `Person` with a text `age` (and `nickname`, `friend`), then `age` as `ageType` with the
    /// mapping `People 2.xml` gives it.
    private struct People {
        let folder: TemporaryFolder
        let bundle: ModelBundle
        let store: String
        var mappings: String { folder.file("Mappings") }

        init(
            age ageType: String = #"optional="YES" attributeType="Integer 32""#, value: String,
            seed: String =
                #"{"Person": [{"_pk": 1, "age": " 36 "}, {"_pk": 2, "age": "forty"}, {"_pk": 3}, {"_pk": 4, "age": "12"}]}"#
        ) throws {
            folder = try TemporaryFolder()
            let friend =
                #"<relationship name="friend" optional="YES" maxCount="1" deletionRule="Nullify" destinationEntity="Person" inverseName="friendOf" inverseEntity="Person"/><relationship name="friendOf" optional="YES" toMany="YES" deletionRule="Nullify" destinationEntity="Person" inverseName="friend" inverseEntity="Person"/>"#
            let path = try BundleWriting.write(
                "People", in: folder.path,
                versions: [
                    (
                        "People",
                        #"<entity name="Person"><attribute name="age" optional="YES" attributeType="String"/><attribute name="nickname" optional="YES" attributeType="String"/>\#(friend)</entity>"#
                    ),
                    (
                        "People 2",
                        #"<entity name="Person"><attribute name="age" \#(ageType)/><attribute name="nickname" optional="YES" attributeType="String"/>\#(friend)</entity>"#
                    ),
                ])
            bundle = try ModelBundle(contentsOf: path)
            try FileManager.default.createDirectory(atPath: folder.file("Mappings"), withIntermediateDirectories: true)
            _ = try folder.write(
                """
                <mapping model="People" sourceVersion="People" destinationVersion="People 2">
                  <entity source="Person" destination="Person">
                    <attribute name="age" value="\(value)"/>
                  </entity>
                </mapping>
                """, to: "Mappings/People 2.xml")
            store = folder.file("people.sqlite")
            _ = try Store.create(
                at: store, bundle: bundle, version: "People", seed: try folder.write(seed, to: "seed.json"))
        }

        func migrate(composed: Bool = true) async throws -> MigrationReport {
            var options = MigrationOptions(mappingsDirectory: mappings)
            options.composesSteps = composed
            return try await Migrator(bundle: bundle, options: options).migrate(storeAt: store)
        }
    }

    @Test func aConversionThatGivesNilIsCountedWithItsFirstObject() async throws {
        let people = try People(value: "int(trim($source.age))")
        let report = try await people.migrate()
        #expect(
            report.losses.map(\.description) == [
                "People → People 2: `int(trim($source.age))` gave nil for 1 value of Person.age, e.g. _pk 2 'forty'"
            ])
        #expect(report.losses.first?.count == 1)
        #expect(
            report.losses.first?.cause
                == .becameNil(
                    expression: "int(trim($source.age))", example: DataLoss.Example(primaryKey: 2, values: "'forty'")))
        let ages = try SQLiteConnection(path: people.store, mode: .readOnly).rows(
            #"SELECT _pk, age FROM "Person" ORDER BY _pk"#)
        #expect(ages.map { $0[1] } == [.integer(36), .null, .null, .integer(12)])
    }

    @Test func migrateSaysSoInItsClosingLinesAndItsJSONReport() throws {
        let people = try People(value: "int($source.age)")
        let plan = try RemodelProcess.run([
            "migrate", people.store, "--model", people.bundle.path, "--mappings", people.mappings, "--dry-run",
        ])
        #expect(plan.status == 0, "\(plan)")
        #expect(
            plan.output.contains(
                "\n  Loses: `int($source.age)` gave nil for 2 values of Person.age, e.g. _pk 1 ' 36 '\n"),
            "\(plan.output)")
        let report = people.folder.file("report.jsonl")
        let result = try RemodelProcess.run([
            "migrate", people.store, "--model", people.bundle.path, "--mappings", people.mappings, "--report", report,
            "--progress", "none",
        ])
        #expect(result.status == 0, "\(result)")
        #expect(
            result.output.contains(
                "\n  Lost: People → People 2: `int($source.age)` gave nil for 2 values of Person.age, e.g. _pk 1 ' 36 '\n"
            ),
            "\(result.output)")
        let line = try String(contentsOfFile: report, encoding: .utf8)
        #expect(
            line.contains(
                #""losses":[{"from":"People","to":"People 2","entity":"Person","property":"age","count":2,"cause":"nil","expression":"int($source.age)","example":{"_pk":1,"values":"' 36 '"}}]"#
            ), "\(line)")
    }

    /// A required attribute with a default takes the default where its expression gives nil: the default is no
    /// value of the source either, so it is counted (and a default the source held is not).
    @Test func aDefaultInTheNilsPlaceIsCountedToo() async throws {
        let people = try People(
            age: #"attributeType="Integer 32" defaultValueString="0""#, value: "int($source.age)",
            seed:
                #"{"Person": [{"_pk": 1, "age": "0"}, {"_pk": 2, "age": "forty"}, {"_pk": 3, "age": "x"}, {"_pk": 4}]}"#
        )
        let report = try await people.migrate()
        #expect(
            report.losses.map(\.description) == [
                "People → People 2: `int($source.age)` gave nil for 2 values of Person.age, e.g. _pk 2 'forty'"
            ])
    }

    /// Several values read, one through a to-one relationship: counted only where every one is non-nil, and the
    /// example names each.
    @Test func anExpressionOfSeveralValuesNamesEachInItsExample() async throws {
        let people = try People(
            value: "int($source.age) + int($source.friend.nickname)",
            seed: #"""
                {"Person": [{"_pk": 1, "age": "1", "nickname": "2", "friend": 2}, {"_pk": 2, "age": "3", "nickname": "b", "friend": 1},
                 {"_pk": 3, "age": "x", "friend": 2}, {"_pk": 4, "age": "5"}]}
                """#)
        let report = try await people.migrate()
        #expect(
            report.losses.map(\.description) == [
                "People → People 2: `int($source.age) + int($source.friend.nickname)` gave nil for 2 values of Person.age, e.g. _pk 1 age '1', friend.nickname 'b'"
            ])
    }

    /// Arithmetic that overflows or divides by zero, and a `nil` the expression writes, are counted as conversions
    /// are; an expression that cannot give nil from values (`??` with a constant) is not read again at all.
    @Test(arguments: [
        ("int(trim($source.age)) / (int(trim($source.age)) - 12)", 2, "_pk 2 'forty'"),
        ("length($source.age) > 4 ? nil : length($source.age)", 1, "_pk 2 'forty'"),
        ("length($source.age) * 2305843009213693952 / 4611686018427387904", 2, "_pk 1 ' 36 '"),
    ])
    func arithmeticAndNilAreCounted(value: String, count: Int, example: String) async throws {
        let people = try People(value: value)
        let report = try await people.migrate()
        #expect(report.losses.map(\.count) == [count], "\(report.losses)")
        #expect(report.losses.first?.detail.hasSuffix("e.g. \(example)") == true, "\(report.losses)")
    }

    @Test func anExpressionThatCannotGiveNilFromValuesIsNotCounted() async throws {
        let people = try People(value: "int($source.age) ?? 0")
        #expect(try await people.migrate().losses == [])
        let checked = try ExpressionTypeChecker(
            model: try #require(people.bundle.version(named: "People")),
            entity: try #require(people.bundle.version(named: "People")?.entity(named: "Person"))
        ).check(try ExpressionParser.parse("int($source.age) ?? 0"))
        #expect(!checked.canTurnValuesIntoNil)
    }

    /// The objects of two entities merged into one get new keys (the key table): each mapping's values are counted
    /// on its own objects, and the two counts of one expression are added.
    @Test func mappingsMergedIntoOneEntityAreCountedTogether() async throws {
        let folder = try TemporaryFolder()
        let path = try BundleWriting.write(
            "Pets", in: folder.path,
            versions: [
                (
                    "Pets",
                    #"<entity name="Cat"><attribute name="weight" optional="YES" attributeType="String"/></entity><entity name="Dog"><attribute name="weight" optional="YES" attributeType="String"/></entity>"#
                ),
                (
                    "Pets 2",
                    #"<entity name="Pet"><attribute name="weight" optional="YES" attributeType="Double"/></entity>"#
                ),
            ])
        let bundle = try ModelBundle(contentsOf: path)
        try FileManager.default.createDirectory(atPath: folder.file("Mappings"), withIntermediateDirectories: true)
        _ = try folder.write(
            """
            <mapping model="Pets" sourceVersion="Pets" destinationVersion="Pets 2">
              <entity source="Cat" destination="Pet"><attribute name="weight" value="double($source.weight)"/></entity>
              <entity source="Dog" destination="Pet"><attribute name="weight" value="double($source.weight)"/></entity>
            </mapping>
            """, to: "Mappings/Pets 2.xml")
        let store = folder.file("pets.sqlite")
        let seed = try folder.write(
            #"{"Cat": [{"weight": "4.5"}, {"weight": "heavy"}], "Dog": [{"weight": "light"}, {"weight": "big"}, {}]}"#,
            to: "seed.json")
        _ = try Store.create(at: store, bundle: bundle, version: "Pets", seed: seed)
        let report = try await Migrator(
            bundle: bundle, options: MigrationOptions(mappingsDirectory: folder.file("Mappings"))
        )
        .migrate(storeAt: store)
        #expect(
            report.losses.map(\.description) == [
                "Pets → Pets 2: `double($source.weight)` gave nil for 3 values of Pet.weight, e.g. _pk 2 'heavy'"
            ])
    }

    /// A policy (Swift code) that leaves an attribute nil where the source attribute it is mapped from held a value.
    @Test func aPolicyThatSetsNilIsCounted() async throws {
        let people = try People(
            age: #"optional="YES" attributeType="String""#, value: "$source.age",
            seed:
                #"{"Person": [{"_pk": 1, "age": "1", "nickname": "a"}, {"_pk": 2, "age": "2", "nickname": "b"}, {"_pk": 3}]}"#
        )
        var options = MigrationOptions(mappingsDirectory: people.mappings)
        options.policies = [
            EntityPolicy(destination: "Person") { source in
                [DestinationObject(["age": source["age"]])]
            }
        ]
        let report = try await Migrator(bundle: people.bundle, options: options).migrate(storeAt: people.store)
        #expect(
            report.losses.map(\.description) == [
                "People → People 2: the entity policy gave nil for 2 values of Person.nickname, e.g. _pk 1 'a'"
            ])
    }
}
