import Foundation
import Testing

@testable import Remodel
@testable import RemodelModel
@testable import RemodelProject

/// Several entity mappings of a mapping file into one destination entity are all carried (the issue
/// "No data lost", item 3): `Cat` and `Dog` merged into `Pet`, and `Task` into `Task` twice under
/// complementary filters. Two mappings that really conflict are reported with both places.
struct MergingMappingsTests {
    private static let pets = [
        (
            "Pets",
            """
            <entity name="Person"><attribute name="name" attributeType="String"/><relationship name="cats" optional="YES" toMany="YES" deletionRule="Nullify" destinationEntity="Cat" inverseName="owner" inverseEntity="Cat"/><relationship name="dogs" optional="YES" toMany="YES" deletionRule="Nullify" destinationEntity="Dog" inverseName="owner" inverseEntity="Dog"/></entity>
            <entity name="Cat"><attribute name="name" attributeType="String"/><relationship name="owner" optional="YES" maxCount="1" deletionRule="Nullify" destinationEntity="Person" inverseName="cats" inverseEntity="Person"/></entity>
            <entity name="Dog"><attribute name="name" attributeType="String"/><relationship name="owner" optional="YES" maxCount="1" deletionRule="Nullify" destinationEntity="Person" inverseName="dogs" inverseEntity="Person"/></entity>
            """
        ),
        (
            "Pets 2",
            """
            <entity name="Person"><attribute name="name" attributeType="String"/><relationship name="pets" optional="YES" toMany="YES" deletionRule="Nullify" destinationEntity="Pet" inverseName="owner" inverseEntity="Pet"/></entity>
            <entity name="Pet"><attribute name="name" attributeType="String"/><attribute name="species" attributeType="String"/><relationship name="owner" optional="YES" maxCount="1" deletionRule="Nullify" destinationEntity="Person" inverseName="pets" inverseEntity="Person"/></entity>
            """
        ),
    ]

    private static let petsMapping = """
        <mapping model="Pets" sourceVersion="Pets" destinationVersion="Pets 2">
            <entity source="Cat" destination="Pet">
                <attribute name="species" value="'cat'"/>
                <relationship name="owner" source="owner"/>
            </entity>
            <entity source="Dog" destination="Pet">
                <attribute name="species" value="'dog'"/>
                <relationship name="owner" source="owner"/>
            </entity>
        </mapping>
        """

    private func petNames(_ export: String) throws -> [String] {
        let json = try #require(try JSONSerialization.jsonObject(with: Data(export.utf8)) as? [String: [[String: Any]]])
        let people = Dictionary(
            uniqueKeysWithValues: (json["Person"] ?? []).map { ($0["_pk"] as? Int ?? 0, $0["name"] as? String ?? "") })
        return (json["Pet"] ?? []).map { pet in
            "\(pet["species"] ?? "?") \(pet["name"] ?? "?") of \((pet["owner"] as? Int).flatMap { people[$0] } ?? "nobody")"
        }.sorted()
    }

    @Test func catsAndDogsMergeIntoPets() async throws {
        let folder = try TemporaryFolder()
        let bundle = try ModelBundle(contentsOf: try BundleWriting.write("Pets", in: folder.path, versions: Self.pets))
        try FileManager.default.createDirectory(atPath: folder.file("Mappings"), withIntermediateDirectories: true)
        _ = try folder.write(Self.petsMapping, to: "Mappings/merge.xml")
        let report = try ProjectValidation.validate(paths: [folder.file("Pets.xcdatamodeld"), folder.file("Mappings")])
        #expect(report.diagnostics.map(\.description) == [])
        let seed = try folder.write(
            """
            {"Person": [{"_pk": 1, "name": "Ann"}, {"_pk": 2, "name": "Bob"}],
             "Cat": [{"_pk": 1, "name": "Tom", "owner": 1}, {"_pk": 2, "name": "Kit", "owner": 2}],
             "Dog": [{"_pk": 1, "name": "Rex", "owner": 1}, {"_pk": 2, "name": "Max"}]}
            """, to: "seed.json")
        let store = folder.file("store.sqlite")
        _ = try Store.create(at: store, bundle: bundle, version: "Pets", seed: seed)
        let options = MigrationOptions(mappingsDirectory: folder.file("Mappings"), batchSize: 1)
        let plan = try Migrator(bundle: bundle, options: options).plan(storeAt: store)
        #expect(plan.description.contains("Pet from Cat: transform"))
        #expect(plan.description.contains("Pet from Dog: transform"))
        _ = try await Migrator(bundle: bundle, options: options).migrate(storeAt: store)
        let output = folder.file("export.json")
        try Store.open(at: store, bundle: bundle).exportJSON(to: output)
        let export = try String(contentsOfFile: output, encoding: .utf8)
        #expect(try petNames(export) == ["cat Kit of Bob", "cat Tom of Ann", "dog Max of nobody", "dog Rex of Ann"])
        #expect(export.contains(#""name": "Ann", "pets": ["#))
    }

    /// A column the app added to both Cat and Dog arrives in Pet with each object's own value: the copy from
    /// one source table leaves the objects of the other alone.
    @Test func anAppColumnOfEveryMergedTableKeepsItsValues() async throws {
        let folder = try TemporaryFolder()
        let bundle = try ModelBundle(contentsOf: try BundleWriting.write("Pets", in: folder.path, versions: Self.pets))
        try FileManager.default.createDirectory(atPath: folder.file("Mappings"), withIntermediateDirectories: true)
        _ = try folder.write(Self.petsMapping, to: "Mappings/merge.xml")
        let seed = try folder.write(
            """
            {"Person": [{"_pk": 1, "name": "Ann"}],
             "Cat": [{"_pk": 1, "name": "Tom", "owner": 1}, {"_pk": 2, "name": "Kit"}],
             "Dog": [{"_pk": 1, "name": "Rex", "owner": 1}, {"_pk": 2, "name": "Max"}]}
            """, to: "seed.json")
        let store = folder.file("store.sqlite")
        _ = try Store.create(at: store, bundle: bundle, version: "Pets", seed: seed)
        try SQLiteConnection(path: store, mode: .readWrite).execute(
            """
            ALTER TABLE "Cat" ADD COLUMN "note" TEXT; UPDATE "Cat" SET "note" = 'cat ' || "name";
            ALTER TABLE "Dog" ADD COLUMN "note" TEXT; UPDATE "Dog" SET "note" = 'dog ' || "name"
            """)
        let options = MigrationOptions(mappingsDirectory: folder.file("Mappings"))
        _ = try await Migrator(bundle: bundle, options: options).migrate(storeAt: store)
        let rows = try SQLiteConnection(path: store, mode: .readOnly).rows(
            #"SELECT "name", "note" FROM "Pet" ORDER BY "name""#)
        #expect(
            rows == [
                [.text("Kit"), .text("cat Kit")], [.text("Max"), .text("dog Max")], [.text("Rex"), .text("dog Rex")],
                [.text("Tom"), .text("cat Tom")],
            ])
    }

    @Test func oneEntityMappedTwiceUnderComplementaryFiltersKeepsEveryObject() async throws {
        let folder = try TemporaryFolder()
        let versions = [
            (
                "Tasks",
                #"<entity name="Project"><attribute name="title" attributeType="String"/><relationship name="tasks" optional="YES" toMany="YES" deletionRule="Nullify" destinationEntity="Task" inverseName="project" inverseEntity="Task"/></entity><entity name="Task"><attribute name="title" attributeType="String"/><attribute name="done" attributeType="Boolean"/><relationship name="project" optional="YES" maxCount="1" deletionRule="Nullify" destinationEntity="Project" inverseName="tasks" inverseEntity="Project"/></entity>"#
            ),
            (
                "Tasks 2",
                #"<entity name="Project"><attribute name="title" attributeType="String"/><relationship name="tasks" optional="YES" toMany="YES" deletionRule="Nullify" destinationEntity="Task" inverseName="project" inverseEntity="Task"/></entity><entity name="Task"><attribute name="title" attributeType="String"/><attribute name="state" attributeType="String"/><relationship name="project" optional="YES" maxCount="1" deletionRule="Nullify" destinationEntity="Project" inverseName="tasks" inverseEntity="Project"/></entity>"#
            ),
        ]
        let bundle = try ModelBundle(contentsOf: try BundleWriting.write("Tasks", in: folder.path, versions: versions))
        try FileManager.default.createDirectory(atPath: folder.file("Mappings"), withIntermediateDirectories: true)
        _ = try folder.write(
            """
            <mapping model="Tasks" sourceVersion="Tasks" destinationVersion="Tasks 2">
                <entity source="Task" destination="Task" filter="$source.done"><attribute name="state" value="'archived'"/></entity>
                <entity source="Task" destination="Task" filter="!$source.done"><attribute name="state" value="'open'"/></entity>
            </mapping>
            """, to: "Mappings/split.xml")
        let seed = try folder.write(
            """
            {"Project": [{"_pk": 1, "title": "P"}],
             "Task": [{"_pk": 1, "title": "a", "done": true, "project": 1}, {"_pk": 2, "title": "b", "done": false, "project": 1},
                      {"_pk": 3, "title": "c", "done": true}]}
            """, to: "seed.json")
        let store = folder.file("store.sqlite")
        _ = try Store.create(at: store, bundle: bundle, version: "Tasks", seed: seed)
        _ = try await Migrator(bundle: bundle, options: MigrationOptions(mappingsDirectory: folder.file("Mappings")))
            .migrate(storeAt: store)
        let output = folder.file("export.json")
        try Store.open(at: store, bundle: bundle).exportJSON(to: output)
        let json = try #require(
            try JSONSerialization.jsonObject(with: Data(try String(contentsOfFile: output, encoding: .utf8).utf8))
                as? [String: [[String: Any]]])
        let tasks = (json["Task"] ?? []).map {
            "\($0["title"] ?? "") \($0["state"] ?? "") \($0["project"] as? Int ?? 0)"
        }.sorted()
        #expect(tasks == ["a archived 1", "b open 1", "c archived 0"])
        #expect((json["Project"]?.first?["tasks"] as? [Int])?.count == 2)
    }

    @Test func twoMappingsThatReallyConflictAreReportedWithBothPlaces() throws {
        let folder = try TemporaryFolder()
        try BundleWriting.write("Pets", in: folder.path, versions: Self.pets)
        try FileManager.default.createDirectory(atPath: folder.file("Mappings"), withIntermediateDirectories: true)
        let file = try folder.write(
            """
            <mapping model="Pets" sourceVersion="Pets" destinationVersion="Pets 2">
                <entity source="Cat" destination="Pet"><attribute name="species" value="'cat'"/></entity>
                <entity source="Dog" destination="Pet"><attribute name="species" value="'dog'"/></entity>
                <entity source="Cat" destination="Pet"><attribute name="species" value="'kitten'"/></entity>
                <entity source="Dog"/>
            </mapping>
            """, to: "Mappings/conflict.xml")
        let report = try ProjectValidation.validate(paths: [folder.file("Pets.xcdatamodeld"), folder.file("Mappings")])
        #expect(
            report.diagnostics.map(\.description) == [
                "\(file):4:5: error: Cat → Pet is mapped twice with no filter, so every object would arrive twice; give each a filter that tells them apart, or remove one (the other entity mapping is at line 2, column 5) [mapping-conflict]",
                "\(file):5:5: error: Dog is removed here but mapped to Pet (the other entity mapping is at line 3, column 5) [mapping-conflict]",
            ])
    }
}
