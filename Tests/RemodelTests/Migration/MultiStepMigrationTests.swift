import Testing

@testable import Remodel
@testable import RemodelModel

/// Migrations across several versions of the sample `Library` bundle.
@Suite struct MultiStepMigrationTests {
    private static let seed = MigrationFixtures.path("Library", "seed.json")
    private static let options = MigrationOptions(mappingsDirectory: MigrationFixtures.libraryMappings)

    private func library() throws -> MigrationCase {
        try MigrationCase(bundle: try MigrationFixtures.library(), version: "Library", seed: Self.seed)
    }

    private func history(_ migration: MigrationCase) throws -> [String] {
        try Store.open(at: migration.store, bundle: migration.bundle).metadata().history.map {
            "\($0.from ?? "-") → \($0.to): \($0.mapping.replacingOccurrences(of: MigrationFixtures.packageRoot + "/", with: ""))"
        }
    }

    /// Step 1 uses `Mappings/Library to Library 2.xml`, step 2 is inferred; both are recorded in the history.
    @Test func mappingFileForOneStepThenInference() async throws {
        let migration = try library()
        let plan = try Migrator(bundle: migration.bundle, options: Self.options).plan(storeAt: migration.store)
        #expect(
            plan.steps.map { "\($0.source.name) → \($0.destination.name)" } == [
                "Library → Library 2", "Library 2 → Library 3",
            ])
        #expect(plan.steps.map(\.isInferred) == [false, true])
        let report = try await migration.migrate(Self.options)
        #expect(report.steps == 2)
        #expect(report.objects == 3, "the objects written: Person's, rebuilt; Book is carried")
        expectSameText(try migration.export(), try MigrationFixtures.text("Library", "expected-3.json"))
        #expect(
            try history(migration) == [
                "- → Library: created", "Library → Library 2: Mappings/Library to Library 2.xml",
                "Library 2 → Library 3: inferred",
            ])
        #expect(try migration.folder.contents() == ["store.sqlite"])
    }

    /// `email` is dropped in Library 2 and added again in Library 3: migrating Library → Library 3 in
    /// one call goes through Library 2, so it arrives empty although Library had values.
    @Test func skippedVersionTrapLeavesEmailEmpty() async throws {
        let migration = try library()
        #expect(try migration.export().contains("ada@example.com"))
        try await migration.migrate(Self.options)
        let export = try migration.export()
        #expect(!export.contains("@example.com"))
        #expect(export.contains(#""email": null, "fullName": "Ada Lovelace""#))
    }

    /// Stopping at Library 2 and going on later gives the same result as going all the way at once.
    @Test func oneStepAtATimeGivesTheSameResult() async throws {
        let migration = try library()
        var options = Self.options
        options.targetVersion = "Library 2"
        let first = try await migration.migrate(options)
        #expect(first.steps == 1)
        #expect(try migration.versionName() == "Library 2")
        let second = try await migration.migrate(Self.options)
        #expect(second.steps == 1)
        expectSameText(try migration.export(), try MigrationFixtures.text("Library", "expected-3.json"))
        let third = try await migration.migrate(Self.options)
        #expect(third.steps == 0, "a store at the target is left alone")
    }

    /// A mapping file from Library to Library 3 replaces both steps, so `email` is carried over.
    @Test func spanningMappingFileReplacesTheSteps() async throws {
        let migration = try library()
        let options = MigrationOptions(mappingsDirectory: MigrationFixtures.path("Library", "Span"))
        let plan = try Migrator(bundle: migration.bundle, options: options).plan(storeAt: migration.store)
        #expect(plan.steps.map { "\($0.source.name) → \($0.destination.name)" } == ["Library → Library 3"])
        let report = try await migration.migrate(options)
        #expect(report.steps == 1)
        expectSameText(try migration.export(), try MigrationFixtures.text("Library", "expected-span.json"))
        #expect(
            try history(migration).last
                == "Library → Library 3: Tests/RemodelTests/Fixtures/Migration/Library/Span/span.xml")
    }
}
