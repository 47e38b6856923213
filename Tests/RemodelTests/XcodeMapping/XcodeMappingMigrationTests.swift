import Foundation
import Testing

@testable import Remodel
@testable import RemodelModel

/// Stores migrated through a hand-written Xcode mapping model: values, filters and relationships as
/// Core Data would give them, and migration policy classes standing in as registered Swift code.
struct XcodeMappingMigrationTests {
    static let seed = """
        {
          "Item": [
            {"_pk": 1, "name": "apple", "price": 1.5, "count": 3, "active": true, "code": "a", "tags": [10]},
            {"_pk": 2, "name": "pear", "price": 2.25, "count": 0, "active": false, "code": "b", "tags": [10, 11]},
            {"_pk": 3, "name": null, "price": null, "count": 5, "active": null, "code": null, "tags": []},
            {"_pk": 4, "name": "fig", "price": 0.1, "count": 7, "active": true, "code": "skip&drop", "tags": [11]}
          ],
          "Note": [{"_pk": 20, "text": "hello"}],
          "Tag": [{"_pk": 10, "label": "fruit"}, {"_pk": 11, "label": "green"}]
        }
        """

    /// A Shop store at version `Shop` holding the seed.
    private func store(_ project: ShopProject) throws -> String {
        let seed = try project.folder.write(Self.seed, to: "seed.json")
        let path = project.folder.file("shop.sqlite")
        _ = try Store.create(at: path, bundle: try project.bundle(), version: "Shop", seed: seed)
        return path
    }

    /// Item 2 (count 0) and item 4 (code "skip&drop") are filtered out; item 3's nil code is not equal to
    /// "skip&drop", as NSPredicate decides it, so it stays; `uppercaseString`, Double → Decimal, Boolean →
    /// Integer 16 and `tags` → `labels` as the mapping model says; Note goes.
    @Test func theMappingModelMigratesTheStore() async throws {
        let project = try ShopProject()
        try project.write(try XcodeMappingValidationTests.complete(project))
        let path = try store(project)
        let bundle = try project.bundle()
        let report = try await Migrator(bundle: bundle, options: MigrationOptions(mappingsDirectory: project.mappings))
            .migrate(storeAt: path)
        #expect(report.targetVersion == "Shop 2")
        expectSameText(
            try Store.open(at: path, bundle: bundle).exportJSONString(),
            """
            {
              "Item": [
                {"_pk": 1, "title": "APPLE", "price": "1.5", "count": 3, "active": 1, "code": "a", "labels": [10]},
                {"_pk": 3, "title": null, "price": null, "count": 5, "active": null, "code": null, "labels": []}
              ],
              "Tag": [
                {"_pk": 10, "label": "fruit", "items": [1]},
                {"_pk": 11, "label": "green", "items": []}
              ]
            }

            """)
    }

    /// The plan names the policy the entity mapping needs; without it the migration is refused, the store untouched.
    @Test func aPolicyClassMustBeRegistered() async throws {
        let project = try ShopProject()
        var fixture = try XcodeMappingValidationTests.complete(project)
        fixture.entities[0].policy = "ShopKit.ItemPolicy"
        let mapping = try project.write(fixture)
        let line = try #require(
            XcodeMappingFixture.line(
                of: "migrationpolicyclassname", in: try String(contentsOfFile: mapping, encoding: .utf8)))
        let path = try store(project)
        let before = try Data(contentsOf: URL(fileURLWithPath: path))
        let migrator = Migrator(
            bundle: try project.bundle(), options: MigrationOptions(mappingsDirectory: project.mappings))
        do {
            _ = try await migrator.migrate(storeAt: path)
            Issue.record("migrated without the policy")
        } catch {
            #expect(error.code == .migrationNotPlannable)
            #expect(error.location == SourceLocation(file: mapping, line: line, column: 66))
            #expect(error.entity == "Item")
            #expect(
                error.message
                    == "step Shop → Shop 2: the entity mapping ItemToItem needs a Swift policy named 'ShopKit.ItemPolicy' (line \(line)); Core Data runs those classes there: register Swift code for each with MigrationOptions.register(_:forClass:), or write the step as a Remodel mapping file"
            )
        }
        #expect(try Data(contentsOf: URL(fileURLWithPath: path)) == before)
    }

    /// A registered class makes the objects of its entity mapping (filter included: it sees the objects
    /// the filter keeps); the other entity mappings run as translated; relationships are rebuilt.
    @Test func aRegisteredPolicyMakesTheObjects() async throws {
        let project = try ShopProject()
        var fixture = try XcodeMappingValidationTests.complete(project)
        fixture.entities[0].policy = "ShopKit.ItemPolicy"
        try project.write(fixture)
        let path = try store(project)
        let bundle = try project.bundle()
        let seen = Collector<Int64>()
        var options = MigrationOptions(mappingsDirectory: project.mappings)
        options.register(
            EntityPolicy(destination: "ignored") { item in
                seen.append(item.primaryKey)
                guard case .text(let name) = item["name"] else {
                    return [DestinationObject(["title": .text("(unnamed)"), "count": item["count"]])]
                }
                return [DestinationObject(["title": .text(String(name.reversed())), "count": item["count"]])]
            }, forClass: "ShopKit.ItemPolicy")
        let migrator = Migrator(bundle: bundle, options: options)
        let plan = try migrator.plan(storeAt: path)
        #expect(
            plan.description.contains(
                "Item: transform where ((($source.count > 0) ?? false) && !((($source.code == 'skip&drop') ?? false)))")
        )
        #expect(plan.description.contains(", made by the Swift policy registered for ShopKit.ItemPolicy)"))
        _ = try await migrator.migrate(storeAt: path)
        #expect(seen.values == [1, 3])
        expectSameText(
            try Store.open(at: path, bundle: bundle).exportJSONString(),
            """
            {
              "Item": [
                {"_pk": 1, "title": "elppa", "price": null, "count": 3, "active": null, "code": null, "labels": [10]},
                {"_pk": 3, "title": "(unnamed)", "price": null, "count": 5, "active": null, "code": null, "labels": []}
              ],
              "Tag": [
                {"_pk": 10, "label": "fruit", "items": [1]},
                {"_pk": 11, "label": "green", "items": []}
              ]
            }

            """)
    }

    /// A class registered under another name does not count; the planner names the one missing.
    @Test func aClassRegisteredUnderAnotherNameDoesNotCount() throws {
        let project = try ShopProject()
        var fixture = try XcodeMappingValidationTests.complete(project)
        fixture.entities[0].policy = "ShopKit.ItemPolicy"
        try project.write(fixture)
        let path = try store(project)
        var options = MigrationOptions(mappingsDirectory: project.mappings)
        options.register(EntityPolicy(destination: "Item") { _ in [] }, forClass: "ItemPolicy")
        #expect(throws: RemodelError.self) {
            try Migrator(bundle: try project.bundle(), options: options).plan(storeAt: path)
        }
    }
}

/// Several Xcode entity mappings that fill one destination entity (Cat and Dog into Pet).
struct XcodeMappingMergeTests {
    @Test func everyEntityMappingOfOneDestinationBecomesARule() throws {
        let pets = """
            <entity name="Cat"><attribute name="name" optional="YES" attributeType="String"/></entity>
            <entity name="Dog"><attribute name="name" optional="YES" attributeType="String"/></entity>
            """
        let bundle = makeBundle(
            "Pets", try makeVersion("Pets", pets),
            try makeVersion(
                "Pets 2", #"<entity name="Pet"><attribute name="name" optional="YES" attributeType="String"/></entity>"#
            ))
        let folder = try TemporaryFolder()
        let fixture = XcodeMappingFixture(
            sourcePath: "Pets.xcdatamodeld/Pets.xcdatamodel", destinationPath: "Pets.xcdatamodeld/Pets 2.xcdatamodel",
            entities: [
                XcodeMappingFixture.EntityMapping(source: "Cat", destination: "Pet"),
                XcodeMappingFixture.EntityMapping(source: "Dog", destination: "Pet"),
            ])
        let path = try fixture.write(in: folder.path, name: "Pets")
        let loaded = try #require(XcodeMappingLoader.load(path: path, bundle: bundle))
        #expect(
            loaded.translation?.file.entities.map { "\($0.sourceEntity ?? "-") → \($0.destinationEntity ?? "-")" } == [
                "Cat → Pet", "Dog → Pet",
            ])
        #expect(loaded.mapping?.entities.filter { $0.destination == "Pet" }.compactMap(\.source) == ["Cat", "Dog"])
    }
}
