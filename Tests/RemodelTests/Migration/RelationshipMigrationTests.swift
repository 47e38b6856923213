import Testing

@testable import Remodel
@testable import RemodelModel

/// Every kind of relationship storage carried through a step whose mapping filters objects out.
@Suite struct RelationshipMigrationTests {
    /// Many-to-many (join table), ordered to-many with a to-one inverse (order column) and ordered
    /// many-to-many (join table order) keep their order exactly, renumbered densely when a filter removes
    /// members; self-relationships (its own inverse, and mentor/mentees); a to-many without inverse.
    @Test func relationshipsSurviveAFilter() async throws {
        let migration = try await MigrationCase.checkFixture("Links")
        // Positions are dense 0, 1, 2 … in the store itself, not only in export order.
        let connection = try SQLiteConnection(path: migration.store, mode: .readOnly)
        let songPositions = try connection.rows(
            #"SELECT "_pk", "_album_order" FROM "Song" WHERE "album" = 10 ORDER BY "_album_order""#)
        #expect(
            songPositions == [[.integer(4), .integer(0)], [.integer(1), .integer(1)], [.integer(2), .integer(2)]])
    }

    /// With a batch of one source key, the result is the same.
    @Test func tinyBatchesGiveTheSameResult() async throws {
        try await MigrationCase.checkFixture("Links", batchSize: 1)
    }
}

/// Phase 2 skips clearing the to-one links copied in phase 1 only when every object of the target's
/// table arrived as a kind of the relationship's destination.
@Suite struct KindOfTargetLinkTests {
    /// Song 7's cover is Circle 1 (a damaged source: covers are Squares). The step carries the Media
    /// table, links as they are: the damaged link is kept, never cleared; checking everything, phase 3
    /// refuses it, naming it.
    @Test func aDamagedLinkIsCarriedAndRefusedWhenEverythingIsChecked() async throws {
        let migration = try MigrationCase(fixture: "Inheritance")
        try SQLiteConnection(path: migration.store, mode: .readWrite).execute(
            #"UPDATE "Song" SET "cover" = 1 WHERE "_pk" = 7"#)
        var options = MigrationOptions()
        options.checksEverything = true
        try await expectRefusedUntouched(
            .validationFailed,
            .message(
                #"the data migrated from Inheritance to Inheritance 2 breaks the model's rules, so the store was left as it was:\#n  - Song _pk 7 "cover": points to _pk 1, which is not a Square [dangling]"#
            ), folder: migration.folder.path
        ) {
            try await migration.migrate(options)
        }
        try await migration.migrate()
        let connection = try SQLiteConnection(path: migration.store, mode: .readOnly)
        #expect(
            try connection.rows(#"SELECT "_pk", "cover" FROM "Media" ORDER BY "_pk""#) == [
                [.integer(7), .integer(1)], [.integer(8), .integer(2)], [.integer(9), .null],
            ])
    }
}
