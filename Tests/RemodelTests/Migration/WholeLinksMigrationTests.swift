import Testing

@testable import Remodel
@testable import RemodelModel

/// Links fixture migrated without its mapping file: every object arrives with its key, so the step
/// carries join tables and to-one columns as they are. A damaged source (links to no object) is then
/// carried as it is, never dropped; asked to check everything, phase 3 refuses it, naming the link.
@Suite struct WholeLinksMigrationTests {
    /// Every kind of relationship storage (many-to-many, ordered many-to-many, self-relationships,
    /// to-many without inverse, ordered to-many with a to-one inverse) comes through unchanged.
    @Test func linksCopiedAsTheyAreAreExact() async throws {
        let migration = try MigrationCase(fixture: "Links")
        try await migration.migrate()
        expectSameText(try migration.export(), try MigrationFixtures.text("Links", "expected-unfiltered.json"))
    }

    /// The Links source store with `damage` applied, migrated without mappings and checking everything:
    /// the error's lines about links (the store must be left as it was). Migrated with the default checks,
    /// the damaged links are carried as they are.
    private func refusal(
        _ damage: String, kept: String, sourceLocation: Testing.SourceLocation = #_sourceLocation
    ) async throws -> [String] {
        let carried = try MigrationCase(fixture: "Links")
        try SQLiteConnection(path: carried.store, mode: .readWrite).execute(damage)
        try await carried.migrate()
        let found = try SQLiteConnection(path: carried.store, mode: .readOnly).scalar(kept)
        #expect(found == .integer(1), "the damaged links are carried as they are", sourceLocation: sourceLocation)

        let migration = try MigrationCase(fixture: "Links")
        try SQLiteConnection(path: migration.store, mode: .readWrite).execute(damage)
        let before = try migration.snapshot()
        var options = MigrationOptions()
        options.checksEverything = true
        let error = try await #require(throws: RemodelError.self, sourceLocation: sourceLocation) {
            try await migration.migrate(options)
        }
        #expect(error.code == .validationFailed, sourceLocation: sourceLocation)
        #expect(try migration.snapshot() == before, sourceLocation: sourceLocation)
        return error.message.split(separator: "\n").dropFirst().map { String($0.dropFirst(4)) }
    }

    @Test func joinRowsToNoObjectAreReported() async throws {
        let lines = try await refusal(
            #"INSERT INTO "_Course_students" ("source", "destination") VALUES (40, 99), (98, 30)"#,
            kept:
                #"SELECT count(*) = 2 FROM "_Course_students" WHERE ("source" = 40 AND "destination" = 99) OR ("source" = 98 AND "destination" = 30)"#
        )
        #expect(
            lines == [
                #"Course _pk 40 "students": points to _pk 99, which is not a Person [dangling]"#,
                #"Person _pk 30 "courses": points to _pk 98, which is not a Course [dangling]"#,
            ])
    }

    @Test func orderedJoinRowToNoObjectIsReported() async throws {
        let lines = try await refusal(
            #"INSERT INTO "_Playlist_songs" ("source", "destination", "source_order") VALUES (22, 95, 1)"#,
            kept: #"SELECT count(*) FROM "_Playlist_songs" WHERE "source" = 22 AND "destination" = 95"#)
        #expect(lines == [#"Playlist _pk 22 "songs": points to _pk 95, which is not a Song [dangling]"#])
    }

    @Test func toOneLinkToNoObjectIsReported() async throws {
        let lines = try await refusal(
            #"UPDATE "Song" SET "album" = 99 WHERE "_pk" = 1"#,
            kept: #"SELECT count(*) FROM "Song" WHERE "_pk" = 1 AND "album" = 99"#)
        #expect(lines == [#"Song _pk 1 "album": points to _pk 99, which is not a Album [dangling]"#])
    }
}
