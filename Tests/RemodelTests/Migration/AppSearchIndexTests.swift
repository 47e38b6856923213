import Foundation
import Testing

@testable import Remodel

private let text = #"<attribute name="text" optional="YES" attributeType="String"/>"#
private let rank = #"<attribute name="rank" optional="YES" attributeType="Integer 32" usesScalarValueType="YES"/>"#

/// The app's full-text indexes stay true to the data (DESIGN.md, Migration 13; issue 40, item 3). An FTS index with
/// external content (`content='Note'`) keeps its own copy of the words and finds rows by their keys; the migration
/// used to carry it as it was while it changed the rows under it: objects of a removed sub-entity stayed findable
/// (reading such a hit gave SQLite's "database disk image is malformed"), objects of an entity moved into the table
/// were never indexed, objects a mapping's `filter` left out stayed findable. Now a step that rewrites the rows an
/// index reads rebuilds it in the pass; one that cannot be rebuilt (contentless) is refused at planning, naming it;
/// and the app's triggers the migration's writes did not fire are named in the plan and the closing lines.
///
/// Each case migrates both roads (one pass, a pass per step) and checks the index row by row: every term finds
/// exactly the rows whose content holds it, and SQLite's own `integrity-check` of the index passes.
struct AppSearchIndexTests {

    /// The usual way an app keeps an external-content index: triggers on its content table.
    private static func searchIndex(_ module: String = "fts5") -> [String] {
        let create =
            module == "fts5"
            ? "CREATE VIRTUAL TABLE note_search USING fts5(text, content='Note', content_rowid='_pk')"
            : "CREATE VIRTUAL TABLE note_search USING fts4(content=\"Note\", text)"
        let delete =
            module == "fts5"
            ? "AFTER DELETE ON Note BEGIN INSERT INTO note_search (note_search, rowid, text) VALUES ('delete', old._pk, old.text); END"
            : "BEFORE DELETE ON Note BEGIN DELETE FROM note_search WHERE docid = old._pk; END"
        return [
            create,
            "INSERT INTO note_search (note_search) VALUES ('rebuild')",
            "CREATE TRIGGER note_ai AFTER INSERT ON Note BEGIN INSERT INTO note_search (rowid, text) VALUES (new._pk, new.text); END",
            "CREATE TRIGGER note_ad \(delete)",
        ]
    }

    /// Notes: Note and its sub-entity Memo, in one table. Notes 2 removes Memo.
    private static func removedSubEntity(app: [String]) throws -> TwoRoads {
        try TwoRoads(
            "Notes",
            versions: [
                (
                    "Notes",
                    #"<entity name="Note">\#(text)</entity><entity name="Memo" parentEntity="Note"><attribute name="due" optional="YES" attributeType="Date"/></entity>"#
                ),
                ("Notes 2", #"<entity name="Note">\#(text)</entity>"#),
            ],
            seed: """
                {"Note": [{"_pk": 1, "text": "alpha apple"}, {"_pk": 2, "text": "beta"}],
                 "Memo": [{"_pk": 3, "text": "alpha memo"}, {"_pk": 4, "text": "gamma memo"}]}
                """, app: app)
    }

    @Test(arguments: ["fts5", "fts4"])
    func objectsOfARemovedSubEntityAreNoLongerFound(module: String) async throws {
        let roads = try Self.removedSubEntity(app: Self.searchIndex(module))
        _ = try await roads.migrateBoth()
        try expectTrue(roads, terms: ["alpha", "apple", "beta", "memo", "gamma"])
        for composed in [true, false] {
            #expect(
                try roads.rows(
                    "SELECT rowid, text FROM note_search WHERE note_search MATCH 'alpha' ORDER BY rowid",
                    composed: composed) == [[.integer(1), .text("alpha apple")]])
        }
    }

    /// Pets 2 moves Cat under Pet: Cat's objects arrive in Pet's table with new keys, and are found.
    @Test func objectsOfAnEntityMovedIntoTheTableAreFound() async throws {
        let name = #"<attribute name="name" optional="YES" attributeType="String"/>"#
        let roads = try TwoRoads(
            "Pets",
            versions: [
                ("Pets", #"<entity name="Cat">\#(name)</entity><entity name="Pet">\#(name)</entity>"#),
                ("Pets 2", #"<entity name="Cat" parentEntity="Pet"/><entity name="Pet">\#(name)</entity>"#),
                ("Pets 3", #"<entity name="Cat" parentEntity="Pet"/><entity name="Pet">\#(name)\#(rank)</entity>"#),
            ],
            seed:
                #"{"Cat": [{"_pk": 1, "name": "Tom cat"}], "Pet": [{"_pk": 1, "name": "Rex dog"}, {"_pk": 4, "name": "Bo dog"}]}"#,
            app: [
                "CREATE VIRTUAL TABLE pet_search USING fts5(name, content='Pet', content_rowid='_pk')",
                "INSERT INTO pet_search (pet_search) VALUES ('rebuild')",
            ])
        _ = try await roads.migrateBoth()
        try expectTrue(roads, index: "pet_search", content: "Pet", column: "name", terms: ["tom", "cat", "dog", "rex"])
        for composed in [true, false] {
            #expect(
                try roads.rows("SELECT rowid FROM pet_search WHERE pet_search MATCH 'tom'", composed: composed) == [
                    [.integer(5)]
                ])
        }
    }

    /// A mapping file keeps only the notes of rank 2 and more: the others are no longer found.
    @Test func objectsAFilterLeavesOutAreNoLongerFound() async throws {
        let roads = try TwoRoads(
            "Ranked",
            versions: [
                ("Ranked", #"<entity name="Note">\#(text)\#(rank)</entity>"#),
                ("Ranked 2", #"<entity name="Note" versionHashModifier="2">\#(text)\#(rank)</entity>"#),
            ],
            seed: """
                {"Note": [{"_pk": 1, "text": "alpha kept", "rank": 3}, {"_pk": 2, "text": "alpha dropped", "rank": 1},
                          {"_pk": 3, "text": "beta kept", "rank": 2}]}
                """, app: Self.searchIndex(),
            mappings: [
                (
                    "ranked.xml",
                    #"<mapping model="Ranked" sourceVersion="Ranked" destinationVersion="Ranked 2"><entity source="Note" destination="Note" filter="$source.rank >= 2"/></mapping>"#
                )
            ])
        _ = try await roads.migrateBoth()
        try expectTrue(roads, terms: ["alpha", "kept", "dropped", "beta"])
    }

    /// `status` and `--dry-run` say the index is rebuilt (not "carried as it is"), and the closing lines say it was.
    @Test func thePlanAndTheClosingLinesNameTheIndexRebuilt() throws {
        let roads = try Self.removedSubEntity(app: Self.searchIndex())
        let store = roads.store(composed: true)
        let rebuilds =
            "  Rebuilds the app's full-text index note_search over Note: the step rewrites the rows it indexes (its triggers note_ai, note_ad do not fire)"
        for arguments in [
            ["status", store, "--model", roads.bundle.path],
            ["migrate", store, "--model", roads.bundle.path, "--dry-run"],
        ] {
            let (status, output, error) = try RemodelProcess.run(arguments)
            #expect(status == 0, "\(error)")
            #expect(output.contains("\n\(rebuilds)\n"), "\(output)")
            #expect(
                output.contains("\nCarried as they are: trigger note_ai on Note, trigger note_ad on Note\n"),
                "\(output)")
        }
        let (status, output, error) = try RemodelProcess.run(["migrate", store, "--model", roads.bundle.path])
        #expect(status == 0, "\(error)")
        #expect(
            output.contains(
                "\n  Rebuilt the app's full-text index note_search: the migration rewrote the rows of Note, which it indexes.\n"
            ), "\(output)")
        #expect(!output.contains("did not fire"), "\(output)")
    }

    /// A step that does not rewrite the index's table leaves the index's pages as they were: it costs nothing.
    @Test func anIndexOverRowsTheStepDoesNotRewriteIsNotRebuilt() async throws {
        let roads = try TwoRoads(
            "Calm",
            versions: [
                ("Calm", #"<entity name="Note">\#(text)</entity>"#),
                ("Calm 2", #"<entity name="Note">\#(text)</entity><entity name="Tag">\#(text)</entity>"#),
            ],
            seed: #"{"Note": [{"_pk": 1, "text": "alpha"}]}"#, app: Self.searchIndex())
        let before = try roads.rows("SELECT * FROM note_search_data ORDER BY id", composed: true)
        let plan = try Migrator(bundle: roads.bundle).plan(storeAt: roads.store(composed: true))
        #expect(!plan.description.contains("Rebuilds"), "\(plan.description)")
        let report = try await roads.migrate(composed: true)
        #expect(report.rebuiltIndexes.isEmpty && report.unfiredTriggers.isEmpty)
        #expect(try roads.rows("SELECT * FROM note_search_data ORDER BY id", composed: true) == before)
    }

    /// A contentless index (`content=''`) keeps no copy of what it indexes and cannot be rebuilt: kept by a trigger
    /// from a table the step rewrites, it is refused at planning, naming it, and the store is left as it was.
    @Test func aContentlessIndexOverRowsTheStepRewritesIsRefused() async throws {
        let roads = try Self.removedSubEntity(app: [
            "CREATE VIRTUAL TABLE note_words USING fts5(text, content='')",
            "INSERT INTO note_words (rowid, text) SELECT _pk, text FROM Note",
            "CREATE TRIGGER note_words_ai AFTER INSERT ON Note BEGIN INSERT INTO note_words (rowid, text) VALUES (new._pk, new.text); END",
        ])
        try await roads.expectRefusal(
            "the app's full-text index note_words is contentless (content=''), and the app's trigger note_words_ai keeps it from Note, whose rows Notes → Notes 2 rewrites: a contentless index cannot be rebuilt, and would answer with rows that are gone or miss rows that arrived. Drop it before migrating and build it again for the new version; Remodel does not leave it stale silently"
        )
    }

    /// An app table kept up to date by triggers on a model table cannot be brought up to date by Remodel (what the
    /// trigger computes is the app's): the plan and the closing lines name each trigger that did not fire.
    @Test func triggersTheMigrationDidNotFireAreNamed() async throws {
        let roads = try Self.removedSubEntity(app: [
            "CREATE TABLE note_count (n INTEGER)", "INSERT INTO note_count SELECT count(*) FROM Note",
            "CREATE TRIGGER note_count_ai AFTER INSERT ON Note BEGIN UPDATE note_count SET n = n + 1; END",
            "CREATE TRIGGER note_count_ad AFTER DELETE ON Note BEGIN UPDATE note_count SET n = n - 1; END",
        ])
        let plan = try Migrator(bundle: roads.bundle).plan(storeAt: roads.store(composed: true))
        let lines = plan.description.split(separator: "\n").map(String.init)
        for (trigger, event) in [("note_count_ai", "AFTER INSERT"), ("note_count_ad", "AFTER DELETE")] {
            #expect(
                lines.contains(
                    "  Writes Note without firing the app's trigger \(trigger) (\(event)): what it writes (note_count) is not brought up to date"
                ), "\(plan.description)")
        }
        let store = roads.store(composed: false)
        let (status, output, error) = try RemodelProcess.run(["migrate", store, "--model", roads.bundle.path])
        #expect(status == 0, "\(error)")
        #expect(
            output.contains(
                "\n  The app's trigger note_count_ai (AFTER INSERT on Note) did not fire for the migration's writes: what it writes (note_count) was not brought up to date.\n  The app's trigger note_count_ad (AFTER DELETE on Note) did not fire for the migration's writes: what it writes (note_count) was not brought up to date."
            ), "\(output)")
        // Known, not changed: the count still holds the memos the migration dropped.
        #expect(try roads.rows("SELECT n FROM note_count", composed: false) == [[.integer(4)]])
    }

    // MARK: - Checking an index against its content

    private func expectTrue(
        _ roads: TwoRoads, index: String = "note_search", content: String = "Note", column: String = "text",
        terms: [String], sourceLocation: Testing.SourceLocation = #_sourceLocation
    ) throws {
        for composed in [true, false] {
            let connection = try SQLiteConnection(path: roads.store(composed: composed), mode: .readWrite)
            for term in terms {
                let found = try connection.rows(
                    "SELECT rowid FROM \(quoteIdentifier(index)) WHERE \(quoteIdentifier(index)) MATCH ? ORDER BY rowid",
                    [.text(term)])
                let held = try connection.rows(
                    "SELECT _pk FROM \(quoteIdentifier(content)) WHERE \(quoteIdentifier(column)) LIKE ? ORDER BY _pk",
                    [.text("%\(term)%")])
                #expect(
                    found == held, "\(composed ? "composed" : "step by step"): '\(term)'",
                    sourceLocation: sourceLocation)
            }
            let check = "INSERT INTO \(quoteIdentifier(index)) (\(quoteIdentifier(index))) VALUES ('integrity-check')"
            #expect(throws: Never.self, sourceLocation: sourceLocation) { try connection.execute(check) }
        }
    }
}
