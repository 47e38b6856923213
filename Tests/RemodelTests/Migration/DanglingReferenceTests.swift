import Testing

@testable import Remodel
@testable import RemodelModel

/// Phase 3's dangling-reference checks on a damaged Links 2 store, with the indexes the checks are
/// driven by and without them (the row-by-row fallback): the same failures either way.
@Suite struct DanglingReferenceTests {
    /// A Links 2 store from the fixture's seed with `damage` applied, validated as phase 3 does.
    private func failures(indexes: Bool, damage: String) throws -> [String] {
        let folder = try TemporaryFolder()
        let path = folder.file("store.sqlite")
        let bundle = try MigrationFixtures.bundle("Links")
        let version = try #require(bundle.version(named: "Links 2"))
        _ = try Store.create(
            at: path, bundle: bundle, version: version.name, seed: MigrationFixtures.path("Links", "seed.json"))
        let connection = try SQLiteConnection(path: path, mode: .readWrite)
        let layout = StoreLayout(version: version)
        if !indexes {
            for index in layout.indexes { try connection.execute("DROP INDEX \(quoteIdentifier(index.name))") }
        }
        try connection.execute(damage)
        let validator = MigrationValidator(
            connection: connection, version: version, layout: layout, customValidations: []
        ) { (_: Int, _: Int, _: String?) throws(RemodelError) in }
        return try validator.run().map(\.description)
    }

    /// To-one links to a missing key (99) and to a key of another table (20 is a Playlist).
    @Test(arguments: [true, false]) func toOneLinkToNoObject(indexes: Bool) throws {
        let found = try failures(
            indexes: indexes,
            damage:
                #"UPDATE "Song" SET "album" = 99 WHERE "_pk" = 1; UPDATE "Person" SET "mentor" = 20 WHERE "_pk" = 34"#)
        #expect(
            found == [
                #"Person _pk 34 "mentor": points to _pk 20, which is not a Person [dangling]"#,
                #"Song _pk 1 "album": points to _pk 99, which is not a Album [dangling]"#,
            ])
    }

    /// A to-one link into a gap between keys (Song 3 removed, 1…7 otherwise there) is found too.
    @Test(arguments: [true, false]) func toOneLinkIntoAGap(indexes: Bool) throws {
        let found = try failures(
            indexes: indexes,
            damage:
                #"DELETE FROM "Song" WHERE "_pk" = 3; DELETE FROM "_Playlist_songs" WHERE "destination" = 3; DELETE FROM "_Person_favorites" WHERE "destination" = 3; UPDATE "Person" SET "mentor" = 3 WHERE "_pk" = 34"#
        )
        #expect(found == [#"Person _pk 34 "mentor": points to _pk 3, which is not a Person [dangling]"#])
    }

    /// Join-table rows whose destination or source is no object: each reported on the object at the
    /// other end, with the relationship's name (or the join table's, when there is no inverse).
    @Test(arguments: [true, false]) func joinRowsToNoObject(indexes: Bool) throws {
        let found = try failures(
            indexes: indexes,
            damage: """
                INSERT INTO "_Course_students" ("source", "destination") VALUES (40, 99), (98, 30);
                INSERT INTO "_Person_favorites" ("source", "destination") VALUES (30, 97), (96, 1)
                """)
        #expect(
            found == [
                #"Course _pk 40 "students": points to _pk 99, which is not a Person [dangling]"#,
                #"Person _pk 30 "courses": points to _pk 98, which is not a Course [dangling]"#,
                #"Person _pk 30 "favorites": points to _pk 97, which is not a Song [dangling]"#,
                "Song _pk 1: is linked from _pk 96 in _Person_favorites, which is not a Person [dangling]",
            ])
    }

    /// An undamaged store has no dangling reference.
    @Test(arguments: [true, false]) func undamagedStoreHasNone(indexes: Bool) throws {
        #expect(try failures(indexes: indexes, damage: "SELECT 1").isEmpty)
    }
}
