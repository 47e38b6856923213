import Testing

@testable import Remodel

/// Mapping files with value expressions and filters.
@Suite struct MappingFileMigrationTests {
    /// String building, arithmetic (Integer, Double, Decimal), `??`, `coalesce`, functions, to-one paths,
    /// `@count`, `?:`; a filter drops objects, and links to them are removed from the objects that stay.
    @Test func expressionsAndFilter() async throws {
        let migration = try await MigrationCase.checkFixture("Expressions")
        let plan = try Migrator(bundle: migration.bundle).plan(storeAt: migration.store)
        #expect(plan.steps.isEmpty, "the store is at the current version afterwards")
    }
}
