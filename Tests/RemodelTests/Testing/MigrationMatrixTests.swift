import Foundation
import Remodel
import RemodelTesting
import Testing

/// The migration test kit on the sample models: every version migrates to the head with generated data,
/// and a broken mapping, policy or hook fails the case naming the version, entity and property.
struct MigrationMatrixTests {
    static let library = MigrationFixtures.packageRoot + "/Models/Library.xcdatamodeld"
    static let diligence = MigrationFixtures.packageRoot + "/Models/Diligence.xcdatamodeld"

    /// As an app's test uses it (docs/TESTING.md's example): one case per version.
    @Test(arguments: MigrationMatrix(model: library, mappings: MigrationFixtures.libraryMappings).cases())
    func migratesToTheCurrentVersion(_ migration: MigrationTestCase) async throws {
        try await migration.run { store in
            let books = try store.objectCount(of: "Book")  // your own checks on the migrated store
            #expect(books > 0)
        }
    }

    /// As docs/TESTING.md's example.
    @Test(arguments: MigrationMatrix(model: library, mappings: MigrationFixtures.libraryMappings, objects: 30).cases())
    func everyLibraryVersionMigrates(_ migration: MigrationTestCase) async throws {
        try await migration.run { store in
            // Your own checks on the migrated store.
            let books = try store.objectCount(of: "Book")
            #expect(books == (try store.originalObjectCount(of: "Book")))
            #expect(store.report.targetVersion == "Library 3")
        }
    }

    @Test func theSampleModelsPassWithEveryVersion() async throws {
        let library = await MigrationMatrix(model: Self.library, mappings: MigrationFixtures.libraryMappings).run()
        #expect(
            library.map(\.testCase.description) == [
                "Library → Library 3", "Library 2 → Library 3", "Library 3 → Library 3",
            ])
        #expect(library.map(\.summary) == ["ok", "ok", "ok"])
        #expect(library.map(\.objectsBefore) == [40, 40, 60])
        #expect(library.map(\.objectsAfter) == [40, 40, 60])
        let diligence = await MigrationMatrix(model: Self.diligence).run()
        #expect(diligence.map(\.summary) == ["ok", "ok"])
        #expect(diligence.allSatisfy { $0.isExpected })
    }

    @Test func aMappingFileThatDropsAValueOrLosesLinksFailsNamingThem() async throws {
        let folder = try TemporaryFolder()
        _ = try folder.write(
            """
            <mapping model="Library" sourceVersion="Library" destinationVersion="Library 2">
                <entity source="Person" destination="Person">
                    <attribute name="fullName" value="trim($source.firstName + ' ' + $source.lastName)"/>
                    <attribute name="age" value="nil"/>
                    <relationship name="books"/>
                </entity>
            </mapping>
            """, to: "broken.xml")
        let results = await MigrationMatrix(model: Self.library, mappings: folder.path).run()
        let first = try #require(results.first)
        #expect(first.testCase.version == "Library")
        #expect(!first.isExpected)
        #expect(first.summary == "failed (2 differences from the plan)")
        #expect(
            first.failures.map(\.description) == [
                "Library → Library 2: Person \"age\": the mapping file drops the values of Person.yearsSinceBirth: inference would carry them ($source.yearsSinceBirth), the file computes it as nil (list \"Person.age\" as an intended change if that is the plan)",
                "Library → Library 2: Person \"books\": the mapping file loses the links of Person.books: inference would carry them, the file leaves it empty (list \"Person.books\" as an intended change if that is the plan)",
            ])
        do {
            try await first.testCase.run()
            Issue.record("the case should throw")
        } catch {
            #expect(
                "\(error)".hasPrefix(
                    "Library → Library 3: expected it migrates; failed (2 differences from the plan)\n  Library → Library 2: Person \"age\""
                ))
        }
        #expect(results.dropFirst().allSatisfy { $0.isExpected }, "the later versions do not take that step")

        var intended = MigrationMatrix(model: Self.library, mappings: folder.path)
        intended.intendedChanges = ["Person.age", "Person.books"]
        #expect(await intended.run().map(\.summary) == ["ok", "ok", "ok"])
    }

    @Test func aFilterMayLeaveObjectsOutAndWhatArrivesIsStillCompared() async throws {
        let folder = try TemporaryFolder()
        _ = try folder.write(
            """
            <mapping model="Library" sourceVersion="Library" destinationVersion="Library 2">
                <entity source="Person" destination="Person" filter="$source.yearsSinceBirth > 1000">
                    <attribute name="fullName" value="trim($source.firstName + ' ' + $source.lastName)"/>
                </entity>
            </mapping>
            """, to: "filtered.xml")
        var options = MigrationOptions(mappingsDirectory: folder.path)
        let bundle = try ModelBundle(contentsOf: Self.library)
        var matrix = MigrationMatrix(bundle: bundle, options: options, objects: 30)
        matrix.versions = ["Library"]
        let passing = try #require(await matrix.run().first)
        #expect(passing.summary == "ok")
        #expect(passing.objectsAfter < passing.objectsBefore, "some people were left out")

        options.hooks.afterStep = { database in
            try database.connection.execute("UPDATE Person SET age = age + 1")
        }
        matrix.options = options
        let failing = try #require(await matrix.run().first)
        #expect(failing.summary == "failed (\(failing.failures.count) differences from the plan)")
        #expect(
            failing.failures.allSatisfy {
                $0.entity == "Person" && $0.property == "age" && $0.message.contains("the plan carries it unchanged")
            })
    }

    @Test func aHookThatChangesCarriedDataFailsNamingTheObject() async throws {
        var options = MigrationOptions(mappingsDirectory: MigrationFixtures.libraryMappings)
        options.hooks.afterStep = { database in
            guard database.step.destination.name == "Library 3" else { return }
            try database.connection.execute(
                "UPDATE Person SET age = NULL WHERE _pk = 3; UPDATE Book SET author = NULL WHERE _pk = 5")
        }
        let bundle = try ModelBundle(contentsOf: Self.library)
        var matrix = MigrationMatrix(bundle: bundle, options: options, objects: 10, seedNumber: 4)
        matrix.versions = ["Library 2"]
        let result = try #require(await matrix.run().first)
        #expect(!result.isExpected)
        let failures = result.failures.map(\.description)
        #expect(
            failures.contains {
                $0.hasPrefix("Person _pk 3 \"age\": was ") && $0.hasSuffix(", is NULL; the plan carries it unchanged")
            }, "\(failures)")
        #expect(
            failures.contains { $0.hasPrefix("Book _pk 5 \"author\": linked [") && $0.contains("links []") },
            "\(failures)")
        #expect(failures.contains { $0.hasPrefix("Person _pk ") && $0.contains("\"books\": linked [") }, "\(failures)")
    }

    @Test func aPolicyThatForgetsAValueFailsNamingIt() async throws {
        var options = MigrationOptions()
        options.policies = [
            EntityPolicy(destination: "Task") { source in
                [
                    DestinationObject([
                        "name": source["name"], "createdAt": source["createdAt"], "colorHex": .text("#000000"),
                    ])
                ]
            }
        ]
        let bundle = try ModelBundle(contentsOf: Self.diligence)
        let result = try #require(await MigrationMatrix(bundle: bundle, options: options, objects: 8).run().first)
        #expect(result.testCase.description == "Diligence → Diligence 2")
        let failures = result.failures.map(\.description)
        #expect(failures.contains { $0.hasPrefix("Task _pk ") && $0.contains("\"focusMinutes\": was ") }, "\(failures)")
        #expect(
            failures.contains { $0.contains("\"color\": was ") && $0.contains("(Task.colorHex of Diligence)") },
            "\(failures)")
    }

    @Test func refusalsAndMissingMappingsAreExpectedOnlyWhenSaid() async throws {
        var options = MigrationOptions()
        options.validations = [
            { _ in
                [
                    ValidationFailure(
                        entity: "Person", primaryKey: 1, property: "age", rule: "adult", message: "too young")
                ]
            }
        ]
        let bundle = try ModelBundle(contentsOf: Self.library)
        var matrix = MigrationMatrix(bundle: bundle, options: options, objects: 5)
        matrix.versions = ["Library", "Library 2"]
        var results = await matrix.run()
        #expect(
            results.map(\.summary).first?.hasPrefix(
                "needs a mapping (cannot migrate Library from Library to Library 3:") == true)
        #expect(results.map(\.summary).last?.hasPrefix("refused (") == true)
        #expect(results.map(\.summary).last?.contains("Person _pk 1 \"age\": too young [adult]") == true)
        #expect(results.map(\.isExpected) == [false, false])

        matrix.missingMappingsAreExpected = true
        matrix.expectations["Library 2"] = .refused(containing: "too young")
        results = await matrix.run()
        #expect(results.map(\.isExpected) == [true, true])
        matrix.expectations["Library 2"] = .refused(containing: "something else")
        #expect(await matrix.run().map(\.isExpected) == [true, false])
    }

    @Test func fixturesAddCasesForTheirVersions() async throws {
        let folder = try TemporaryFolder()
        _ = try folder.write(
            #"{"Person": [{"_pk": 1, "firstName": " Ada", "lastName": "Lovelace ", "yearsSinceBirth": 36, "email": null, "books": [1]}], "Book": [{"_pk": 1, "title": "Notes", "isbn": null, "price": "1.50", "publishedOn": null}]}"#,
            to: "Library.json")
        let bundle = try ModelBundle(contentsOf: Self.library)
        try FileManager.default.createDirectory(atPath: folder.file("Library 2"), withIntermediateDirectories: true)
        _ = try Store.create(at: folder.file("Library 2/empty.sqlite"), bundle: bundle, version: "Library 2")
        let matrix = MigrationMatrix(
            model: Self.library, mappings: MigrationFixtures.libraryMappings, fixtures: folder.path)
        let results = await matrix.run()
        #expect(
            results.map(\.testCase.description) == [
                "Library → Library 3", "Library → Library 3 (Library.json)", "Library 2 → Library 3",
                "Library 2 → Library 3 (empty.sqlite)",
                "Library 3 → Library 3",
            ])
        #expect(results.allSatisfy { $0.isExpected }, "\(results.map(\.summary))")
        #expect(results[1].objectsBefore == 2 && results[3].objectsBefore == 0)
    }

    @Test func theSameSeedNumberGivesTheSameCases() async throws {
        let first = await MigrationMatrix(model: Self.diligence, seedNumber: 8).run()
        let second = await MigrationMatrix(model: Self.diligence, seedNumber: 8).run()
        #expect(first.map(\.objectsBefore) == second.map(\.objectsBefore))
        #expect(first.map(\.summary) == second.map(\.summary))
    }
}
