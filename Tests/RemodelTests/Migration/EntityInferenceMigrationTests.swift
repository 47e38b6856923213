import Testing

@testable import Remodel

/// Inferred entity and relationship changes, store to store.
@Suite struct EntityInferenceMigrationTests {
    /// An entity added (starts empty), removed (its objects and the relationships to them go), and renamed
    /// by renaming identifier with its relationships (renamed too) still pointing at the same objects.
    @Test func entitiesAddedRemovedAndRenamed() async throws {
        try await MigrationCase.checkFixture("Entities")
    }

    /// One-to-one → one-to-many (the link moves from both columns to the to-one side), ordered →
    /// unordered (sorted by `_pk` in the export) and unordered → ordered (ordered by `_pk`).
    @Test func toOneBecomesToManyAndOrderingChanges() async throws {
        try await MigrationCase.checkFixture("Cardinality")
    }

    /// An entity moved under a new abstract parent (new table, same keys), a new attribute on a parent
    /// with a default, and `Square.color` moved up into `Shape`; relationships between them survive.
    @Test func inheritanceChanges() async throws {
        try await MigrationCase.checkFixture("Inheritance")
    }
}
