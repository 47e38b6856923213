import Testing

@testable import Remodel
@testable import RemodelModel

/// Two source entities in their own tables, with colliding `_pk`s, merged into one destination
/// hierarchy (`Pet`): keys are remapped, and every object and relationship must still arrive.
@Suite struct KeyRemappingMigrationTests {
    @Test func mergedHierarchyKeepsObjectsAndLinks() async throws {
        try await MigrationCase.checkFixture("Merge")
    }

    @Test func theStepRemapsThePetTable() throws {
        let bundle = try MigrationFixtures.bundle("Merge")
        let mapping = MappingInference.infer(from: bundle.versions[0], to: bundle.versions[1], modelName: "Merge")
        let plan = KeyPlan(
            mapping: mapping, source: StoreLayout(version: bundle.versions[0]),
            destination: StoreLayout(version: bundle.versions[1]))
        #expect(plan.mode(ofDestinationTable: "Pet") == .remapped)
        #expect(plan.mode(ofDestinationTable: "Person") == .preserved(sourceTable: "Person"))
    }

    @Test func remappingWorksInBatchesOfOne() async throws {
        try await MigrationCase.checkFixture("Merge", batchSize: 1)
    }

    /// A filter on a remapped entity: the keys it skips are not handed out, and links to the objects
    /// it drops disappear (ordered to-many renumbered, many-to-many rows left out).
    @Test func filteredRemappedObjectsLeaveNoLinks() async throws {
        let migration = try MigrationCase(fixture: "Merge")
        try await migration.migrate(
            MigrationOptions(mappingsDirectory: MigrationFixtures.path("Merge", "FilterMappings"), batchSize: 1))
        expectSameText(try migration.export(), try MigrationFixtures.text("Merge", "expected-filtered.json"))
    }
}
