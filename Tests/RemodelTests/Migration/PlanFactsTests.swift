import Foundation
import Testing

@testable import Remodel
@testable import RemodelModel

/// The plan carries its facts (issue 27 item 3): what a migration needs to know of the store and of its steps is
/// worked out once, at planning, and read from the plan after — the store's metadata, the type of each
/// expression — instead of being read or checked again by each pass or phase.
@Suite struct PlanFactsTests {
    /// The store's metadata read under the lock is the last it is read: its history goes on the plan and into the
    /// migrated store from there. One read before the lock (to refuse what is not a store of the model before
    /// taking it), one under it.
    @Test(arguments: [true, false]) func aMigrationReadsTheStoresMetadataTwice(composesSteps: Bool) async throws {
        let migration = try MigrationCase(
            bundle: try MigrationFixtures.library(), seed: MigrationFixtures.path("Library", "seed.json"))
        var options = MigrationOptions(mappingsDirectory: MigrationFixtures.libraryMappings)
        options.composesSteps = composesSteps
        StatementCounter.shared.start(watching: migration.store)
        try await migration.migrate(options)
        #expect(StatementCounter.shared.count(on: migration.store, startingWith: "SELECT key, value FROM") == 2)
        // The history carried over: creation, then the two steps.
        let history = try StoreMetadata.read(from: try SQLiteConnection(path: migration.store, mode: .readOnly))
        #expect(try history.get().history.map(\.to) == ["Library", "Library 2", "Library 3"])
    }

    /// `Store.launch` hands what it found to the migration, which reads the store again only under its lock, and
    /// opens the migrated store it just wrote without looking at it a fourth time.
    @Test func launchingAnOlderStoreInspectsItTwice() async throws {
        let folder = try TemporaryFolder()
        let path = folder.file("user.sqlite")
        let bundle = try MigrationFixtures.library()
        _ = try Store.create(at: path, bundle: bundle, version: "Library 2")
        StatementCounter.shared.start(watching: path)
        let (store, outcome) = try await Store.launch(
            at: path, bundle: bundle, options: MigrationOptions(mappingsDirectory: MigrationFixtures.libraryMappings))
        guard case .migrated = outcome else { throw RemodelError(.io, "expected a migration, got \(outcome)") }
        #expect(store.version.name == "Library 3")
        #expect(StatementCounter.shared.count(on: path, startingWith: "SELECT key, value FROM") == 2)
    }

    /// Each expression a step computes is type-checked once, at planning, and kept on the step's resolved mapping:
    /// phase 1 compiles what the plan carries.
    @Test func thePlanCarriesEachExpressionChecked() throws {
        let plan = try MigrationPlanner.plan(
            bundle: try MigrationFixtures.library(), from: "Library",
            mappingsDirectory: MigrationFixtures.libraryMappings)
        let person = try #require(plan.stepPlans[0].resolvedMappings.first { $0.destinationEntity.name == "Person" })
        let fullName = try #require(person.checkedValues["fullName"])
        #expect(fullName.resultType.type == .string)
        // Values copied as they are compile to their column without a check; they carry none.
        #expect(person.checkedValues["age"] == nil)
    }
}
