import Foundation
import Testing

@testable import Remodel
@testable import RemodelModel

/// What planning spends on a step follows what the step changes (issue 29): the versions a migration passes
/// through are not hashed, and phase 3 passes by the entities a step leaves as they were.
@Suite struct PlanningCostTests {
    /// Library → Library 3 reads and plans three versions; only the store's and the current one are ever
    /// recognised or written into a store, so only they are hashed.
    @Test func theVersionsAChainPassesThroughAreNotHashed() async throws {
        let bundle = try MigrationFixtures.library()
        let migration = try MigrationCase(bundle: bundle, seed: MigrationFixtures.path("Library", "seed.json"))
        try await Migrator(
            bundle: bundle, options: MigrationOptions(mappingsDirectory: MigrationFixtures.libraryMappings)
        )
        .migrate(storeAt: migration.store)
        #expect(try bundle.loadVersion(named: "Library 2").hashesAreComputed == false)
        #expect(try bundle.loadVersion(named: "Library").hashesAreComputed)
        #expect(try bundle.loadVersion(named: "Library 3").hashesAreComputed)
    }

    /// Library 2 → 3 gives Person an empty optional column and keeps its `books` (the inverse of `Book.author`,
    /// carried in Book's column): no check of phase 3 applies to Person, though it has a relationship.
    @Test func anEntityWhoseRulesAndValuesStayIsPassedByThoughItHasRelationships() throws {
        let bundle = try MigrationFixtures.library()
        let plan = try MigrationPlanner.plan(
            bundle: bundle, from: "Library 2", mappingsDirectory: MigrationFixtures.libraryMappings)
        let step = try #require(plan.stepPlans.first)
        #expect(step.checks.untouched == ["Person"])
        // Book gains `tags`, a new to-many (its join table is new): its checks still run.
        #expect(step.checks.rules(entity: "Book", property: "tags") == [.minimumCount, .maximumCount])
    }
}
