import Foundation
import Testing

@testable import Remodel
@testable import RemodelModel

/// Migrations that must be refused leave the store byte-identical with nothing added beside it, and
/// say what is wrong: the error's code, entity, `_pk` and property, also named in its message.
@Suite struct RefusalMigrationTests {
    /// Runs a migration that must fail and returns its error, checking that the folder is unchanged.
    private func refusal(
        _ migration: MigrationCase, bundle: ModelBundle? = nil, _ options: MigrationOptions = MigrationOptions(),
        sourceLocation: Testing.SourceLocation = #_sourceLocation
    ) async throws -> RemodelError {
        let before = try migration.snapshot()
        let migrator = Migrator(bundle: bundle ?? migration.bundle, options: options)
        var caught: RemodelError?
        do throws(RemodelError) {
            _ = try await migrator.migrate(storeAt: migration.store)
        } catch {
            caught = error
        }
        let after = try migration.snapshot()
        #expect(
            after == before, "the store and its folder are unchanged (before: \(before); after: \(after))",
            sourceLocation: sourceLocation)
        return try #require(caught, "the migration must fail", sourceLocation: sourceLocation)
    }

    @Test func notInferableWithoutMappingFile() async throws {
        let migration = try MigrationCase(fixture: "NotInferable")
        let error = try await refusal(migration)
        #expect(error.code == .migrationNotPlannable)
        #expect(error.entity == "Item")
        #expect(error.property == "code")
        #expect(error.message.contains("Item"))
        #expect(error.message.contains("code"))
        #expect(error.message.contains("String → Integer 32"))
    }

    @Test func requiredValueMissingFailsValidation() async throws {
        let migration = try MigrationCase(fixture: "RequiredNil")
        let error = try await refusal(
            migration, MigrationOptions(mappingsDirectory: MigrationFixtures.mappings("RequiredNil")))
        #expect(error.code == .validationFailed)
        #expect(error.entity == "Item")
        #expect(error.primaryKey == 2)
        #expect(error.property == "number")
        #expect(error.message.contains(#"Item _pk 2 "number""#))
        #expect(error.message.contains(#"Item _pk 3 "number""#), "every offender is listed")
        #expect(error.message.contains("[required]"))
        #expect(error.description.hasPrefix(migration.store + ": "), "the error names the store")
    }

    @Test func uniquenessBrokenByMigratedData() async throws {
        let migration = try MigrationCase(fixture: "Unique")
        let error = try await refusal(migration)
        #expect(error.code == .validationFailed)
        #expect(error.entity == "Item")
        #expect(error.primaryKey == 3)
        #expect(error.property == "name")
        #expect(error.message.contains(#"Item _pk 3 "name""#))
        #expect(error.message.contains("_pk 1"))
        #expect(error.message.contains("[unique]"))
    }

    /// Every member of each group of duplicates is listed against the group's first (not one per group), so
    /// that one round of fixes is enough: here `a` is at _pk 1, 3, 6 and 7, `b` at 2 and 5.
    @Test func uniquenessRefusalListsEveryDuplicate() async throws {
        let folder = try TemporaryFolder()
        let seed = try folder.write(
            """
            {"Item": [{"_pk": 1, "name": "a"}, {"_pk": 2, "name": "b"}, {"_pk": 3, "name": "a"}, {"_pk": 4, "name": "c"},
                      {"_pk": 5, "name": "b"}, {"_pk": 6, "name": "a"}, {"_pk": 7, "name": "a"}]}
            """, to: "seed.json")
        let migration = try MigrationCase(bundle: try MigrationFixtures.bundle("Unique"), seed: seed)
        let error = try await refusal(migration)
        let lines = error.message.split(separator: "\n").dropFirst().map { String($0.dropFirst(4)) }
        let constraint = "the uniqueness constraint on (name) does not allow it [unique]"
        #expect(
            lines == [
                #"Item _pk 3 "name": has the same (name) as _pk 1; "# + constraint,
                #"Item _pk 6 "name": has the same (name) as _pk 1; "# + constraint,
                #"Item _pk 7 "name": has the same (name) as _pk 1; "# + constraint,
                #"Item _pk 5 "name": has the same (name) as _pk 2; "# + constraint,
            ])
    }

    @Test func storeNewerThanTheBundle() async throws {
        let library = try MigrationFixtures.library()
        let migration = try MigrationCase(bundle: library, version: "Library 3", seed: nil)
        let older = ModelBundle(name: "Library", path: library.path, versions: Array(library.versions.prefix(2)))
        let error = try await refusal(migration, bundle: older)
        #expect(error.code == .newerStore)
        #expect(error.message.contains("Library 3"))
    }

    @Test func anotherModelsStore() async throws {
        let diligence = try ModelBundle(contentsOf: MigrationFixtures.packageRoot + "/Models/Diligence.xcdatamodeld")
        let migration = try MigrationCase(bundle: diligence, seed: nil)
        let error = try await refusal(migration, bundle: try MigrationFixtures.library())
        #expect(error.code == .otherModel)
        #expect(error.message.contains("Diligence"))
    }

    @Test func garbageFile() async throws {
        let migration = try MigrationCase(bundle: try MigrationFixtures.library(), seed: nil)
        try FileManager.default.removeItem(atPath: migration.store)
        try Data([0x00, 0x53, 0x51, 0x4C, 0xFF] + Array("not a database, just bytes".utf8)).write(
            to: URL(fileURLWithPath: migration.store))
        let error = try await refusal(migration)
        #expect(error.code == .notAStore)
        #expect(error.path == migration.store || error.message.contains(migration.store))
    }

    /// Step 1 (Library → Library 2) is built, then step 2 fails a custom validation: the step file is
    /// removed and the original is untouched.
    @Test func failureInTheSecondStepLeavesTheOriginal() async throws {
        let migration = try MigrationCase(
            bundle: try MigrationFixtures.library(), seed: MigrationFixtures.path("Library", "seed.json"))
        var options = MigrationOptions(mappingsDirectory: MigrationFixtures.libraryMappings)
        options.validations = [
            { store in
                // Only the Library 3 store has a Tag table.
                guard try store.scalar("SELECT count(*) FROM main.sqlite_master WHERE name = 'Tag'") == .integer(1)
                else { return [] }
                return [
                    ValidationFailure(
                        entity: "Tag", primaryKey: nil, property: nil, rule: "custom", message: "no tags allowed")
                ]
            }
        ]
        let error = try await refusal(migration, options)
        #expect(error.code == .validationFailed)
        #expect(error.entity == "Tag")
        #expect(error.message.contains("Library 2 to Library 3"))
        #expect(error.message.contains("no tags allowed"))
    }
}
