import Testing
@testable import Remodel

/// Two source entities in their own tables, with colliding `_pk`s, merged into one destination
/// hierarchy (`Pet`): keys are remapped, and every object and relationship must still arrive.
@Suite struct KeyRemappingMigrationTests {
    @Test func mergedHierarchyKeepsObjectsAndLinks() async throws {
        try await MigrationCase.checkFixture("Merge")
    }

    @Test func theStepRemapsThePetTable() throws {
        let bundle = try MigrationFixtures.bundle("Merge")
        let mapping = MappingInference.infer(from: bundle.versions[0], to: bundle.versions[1], modelName: "Merge")
        let plan = KeyPlan(mapping: mapping, source: StoreLayout(version: bundle.versions[0]), destination: StoreLayout(version: bundle.versions[1]))
        #expect(plan.mode(ofDestinationTable: "Pet") == .remapped)
        #expect(plan.mode(ofDestinationTable: "Person") == .preserved(sourceTable: "Person"))
    }

    @Test func remappingWorksInBatchesOfOne() async throws {
        try await MigrationCase.checkFixture("Merge", batchSize: 1)
    }
}
