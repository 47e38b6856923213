import Testing
@testable import Remodel

/// Every kind of relationship storage carried through a step whose mapping filters objects out.
@Suite struct RelationshipMigrationTests {
    /// Many-to-many (join table), ordered to-many with a to-one inverse (order column) and ordered
    /// many-to-many (join table order) keep their order exactly, renumbered densely when a filter removes
    /// members; self-relationships (its own inverse, and mentor/mentees); a to-many without inverse.
    @Test func relationshipsSurviveAFilter() async throws {
        let migration = try await MigrationCase.checkFixture("Links")
        // Positions are dense 0, 1, 2 … in the store itself, not only in export order.
        let connection = try SQLiteConnection(path: migration.store, mode: .readOnly)
        let songPositions = try connection.rows(#"SELECT "_pk", "_album_order" FROM "Song" WHERE "album" = 10 ORDER BY "_album_order""#)
        #expect(songPositions == [[.integer(4), .integer(0)], [.integer(1), .integer(1)], [.integer(2), .integer(2)]])
    }

    /// With a batch of one source key, the result is the same.
    @Test func tinyBatchesGiveTheSameResult() async throws {
        try await MigrationCase.checkFixture("Links", batchSize: 1)
    }
}
