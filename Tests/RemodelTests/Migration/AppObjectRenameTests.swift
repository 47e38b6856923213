import Foundation
import Testing

@testable import Remodel
@testable import RemodelModel

/// The app's indexes, views, triggers and references follow the tables and columns a migration renames, as
/// SQLite's `ALTER TABLE … RENAME` makes them follow, in one pass and step by step alike (issue 28, class 3);
/// one that names what a step drops is refused at planning, however it spells the name.
struct AppObjectRenameTests {
    private static func book(_ attributes: String) -> String {
        #"<entity name="Book" representedClassName="Book">"# + attributes + "</entity>"
    }
    private static let title = #"<attribute name="title" optional="YES" attributeType="String"/>"#
    private static let kind = #"<attribute name="kind" optional="YES" attributeType="String"/>"#
    private static let pages = #"<attribute name="pages" optional="YES" attributeType="Integer 32"/>"#
    private static let seed =
        #"{"Book": [{"_pk": 1, "title": "Emma", "kind": "novel"}, {"_pk": 2, "title": "Odes", "kind": "poems"}]}"#

    /// title → heading → title while the app has an index on title: nothing the index names changes, so the
    /// migration goes ahead in one pass (it was refused since the pass redesign) and step by step (the
    /// index follows heading, then title again).
    @Test func aColumnRenamedAndRenamedBackKeepsTheAppsIndex() async throws {
        let heading = #"<attribute name="heading" optional="YES" attributeType="String" elementID="title"/>"#
        let back = #"<attribute name="title" optional="YES" attributeType="String" elementID="title"/>"#
        let roads = try TwoRoads(
            "Books",
            versions: [
                ("Books", Self.book(Self.title + Self.kind)), ("Books 2", Self.book(heading + Self.kind)),
                ("Books 3", Self.book(back + Self.kind)),
            ],
            seed: Self.seed, app: ["CREATE INDEX app_title ON Book (title)"])
        let export = try await roads.migrateBoth()
        #expect(export.contains(#"{"_pk": 1, "title": "Emma", "kind": "novel"}"#))
        for composed in [true, false] {
            #expect(
                try roads.rows("SELECT name FROM pragma_index_info('app_title')", composed: composed) == [
                    [.text("title")]
                ])
        }
    }

    /// A view and a trigger on a column a step renames are created again on its new name, in both roads.
    @Test func anAppViewAndTriggerFollowAColumnRename() async throws {
        let heading = #"<attribute name="heading" optional="YES" attributeType="String" elementID="title"/>"#
        let roads = try TwoRoads(
            "Books",
            versions: [
                ("Books", Self.book(Self.title + Self.kind)), ("Books 2", Self.book(heading + Self.kind)),
                ("Books 3", Self.book(heading + Self.kind + Self.pages)),
            ],
            seed: Self.seed,
            app: [
                "CREATE VIEW app_titles AS SELECT _pk, title FROM Book",
                "CREATE TABLE app_log (what TEXT)",
                "CREATE TRIGGER app_audit AFTER UPDATE OF title ON Book BEGIN INSERT INTO app_log VALUES (NEW.title); END",
            ])
        _ = try await roads.migrateBoth()
        for composed in [true, false] {
            #expect(
                try roads.rows(
                    "SELECT name, sql FROM sqlite_master WHERE name LIKE 'app_%' ORDER BY name", composed: composed)
                    == [
                        [
                            .text("app_audit"),
                            .text(
                                #"CREATE TRIGGER app_audit AFTER UPDATE OF "heading" ON Book BEGIN INSERT INTO app_log VALUES (NEW."heading"); END"#
                            ),
                        ],
                        [.text("app_log"), .text("CREATE TABLE app_log (what TEXT)")],
                        [.text("app_titles"), .text(#"CREATE VIEW app_titles AS SELECT _pk, "heading" FROM Book"#)],
                    ])
            #expect(
                try roads.rows("SELECT * FROM app_titles ORDER BY _pk", composed: composed) == [
                    [.integer(1), .text("Emma")], [.integer(2), .text("Odes")],
                ])
        }
    }

    /// `"title"` in double quotes names the column; once a step drops it, SQLite would take it for the string
    /// 'title' and the view would answer 'title' for every book. The plan refuses it, naming the view.
    @Test func aDoubleQuotedColumnAStepDropsIsRefusedNotTakenForAString() async throws {
        let roads = try TwoRoads(
            "Books", versions: [("Books", Self.book(Self.title + Self.kind)), ("Books 2", Self.book(Self.kind))],
            seed: Self.seed, app: [#"CREATE VIEW app_titles AS SELECT _pk, "title" FROM Book"#])
        try await roads.expectRefusal(
            "the app's view app_titles does not fit the schema Books → Books 2 leaves (no such column: title): it names a table or column the step renames or drops. Drop it before migrating and create it again for the new version; Remodel does not drop it silently"
        )
    }

    /// The same for an index, whose double-quoted column would become an index on a constant.
    @Test func aDoubleQuotedIndexColumnAStepDropsIsRefused() async throws {
        let roads = try TwoRoads(
            "Books", versions: [("Books", Self.book(Self.title + Self.kind)), ("Books 2", Self.book(Self.kind))],
            seed: Self.seed, app: [#"CREATE INDEX app_title ON Book ("title")"#])
        try await roads.expectRefusal(
            "the app's index app_title (on Book) does not fit the schema Books → Books 2 leaves (no such column: title): it names a table or column the step renames or drops. Drop it before migrating and create it again for the new version; Remodel does not drop it silently"
        )
    }

    /// An app whose view uses double quotes for a string, as SQLite allows, still migrates: the rehearsal
    /// allows it where the store's own schema needs it.
    @Test func aViewWithADoubleQuotedStringStillMigrates() async throws {
        let roads = try TwoRoads(
            "Books",
            versions: [
                ("Books", Self.book(Self.title + Self.kind)),
                ("Books 2", Self.book(Self.title + Self.kind + Self.pages)),
                ("Books 3", Self.book(Self.title + Self.kind)),
            ],
            seed: Self.seed, app: [#"CREATE VIEW app_novels AS SELECT _pk, title FROM Book WHERE kind = "novel""#])
        _ = try await roads.migrateBoth()
        for composed in [true, false] {
            #expect(try roads.rows("SELECT * FROM app_novels", composed: composed) == [[.integer(1), .text("Emma")]])
        }
    }

    /// A trigger `AFTER UPDATE OF title` on a column a step drops would never fire again (SQLite does not check
    /// the list): refused at planning, naming it.
    @Test func aTriggerOnAColumnAStepDropsIsRefused() async throws {
        let roads = try TwoRoads(
            "Books", versions: [("Books", Self.book(Self.title + Self.kind)), ("Books 2", Self.book(Self.kind))],
            seed: Self.seed,
            app: [
                "CREATE TABLE app_log (what TEXT)",
                "CREATE TRIGGER app_audit AFTER UPDATE OF title ON Book BEGIN INSERT INTO app_log VALUES (NEW._pk); END",
            ])
        try await roads.expectRefusal(
            "the app's trigger app_audit (on Book) does not fit the schema Books → Books 2 leaves (no such column: title): it names a table or column the step renames or drops. Drop it before migrating and create it again for the new version; Remodel does not drop it silently"
        )
    }

    /// A column the app added with `REFERENCES Animal` to a table the step rebuilds follows Animal renamed to
    /// Pet: the rebuilt table declares it as SQLite rewrote it, instead of naming a table that is gone.
    @Test func anAppReferenceOnARebuiltTableFollowsARenamedTable() async throws {
        let animal = #"<entity name="Animal"><attribute name="name" optional="YES" attributeType="String"/></entity>"#
        let pet =
            #"<entity name="Pet" elementID="Animal"><attribute name="name" optional="YES" attributeType="String"/></entity>"#
        let visit = { (type: String) in
            #"<entity name="Visit"><attribute name="day" optional="YES" attributeType="\#(type)"/></entity>"#
        }
        let roads = try TwoRoads(
            "Vet",
            versions: [
                ("Vet", animal + visit("Integer 16")), ("Vet 2", pet + visit("Double")),
                ("Vet 3", pet + visit("Double") + #"<entity name="Clinic"/>"#),
            ],
            seed:
                #"{"Animal": [{"_pk": 1, "name": "Rex"}, {"_pk": 2, "name": "Tom"}], "Visit": [{"_pk": 1, "day": 3}]}"#,
            app: [
                "ALTER TABLE Visit ADD COLUMN pet INTEGER REFERENCES Animal (_pk)",
                "UPDATE Visit SET pet = 2",
            ])
        _ = try await roads.migrateBoth()
        for composed in [true, false] {
            #expect(
                try roads.rows("SELECT \"table\" FROM pragma_foreign_key_list('Visit')", composed: composed) == [
                    [.text("Pet")]
                ])
            #expect(
                try roads.rows("SELECT p.name FROM Visit AS v JOIN Pet AS p ON p._pk = v.pet", composed: composed) == [
                    [.text("Tom")]
                ])
        }
    }
}
