import Foundation
import Testing

@testable import Remodel
@testable import RemodelModel

/// SQLite compares names without letter case; models do not (issue 28, class 2). Every kind of step runs
/// here against a name that another one has in another case — columns, tables, join tables, relationship
/// columns — in one pass and step by step: each case's middle version makes the change, the last one adds
/// an unrelated attribute so that the two roads differ (one pass of two steps, or two passes). Values are
/// checked object by object in the export, which both roads must give byte for byte.
struct CaseInsensitiveNameTests {
    /// One change against a name that differs only in case.
    struct Clash: Sendable, CustomTestStringConvertible {
        var name: String
        /// The entities of the first and the middle version (the last adds `Tag.extra`).
        var before: String
        var after: String
        var seed: String
        /// Lines the export must hold, each as the export writes it.
        var expected: [String]

        var testDescription: String { name }
    }

    private static func dish(_ attributes: String, name: String = "Dish", elementID: String = "") -> String {
        #"<entity name="\#(name)" representedClassName="\#(name)"\#(elementID)>"# + attributes + "</entity>"
    }

    private static let tag = #"<entity name="Tag"><attribute name="label" optional="YES" attributeType="String"/>"#
    private static let string = #"optional="YES" attributeType="String""#
    private static let integer = #"optional="YES" attributeType="Integer 32""#

    static let clashes: [Clash] = [
        Clash(
            name:
                "an attribute dropped while one of its name in another case is added (menuId String → menuID Integer 32)",
            before: dish(#"<attribute name="title" \#(string)/><attribute name="menuId" \#(string)/>"#),
            after: dish(#"<attribute name="title" \#(string)/><attribute name="menuID" \#(integer)/>"#),
            seed:
                #"{"Dish": [{"_pk": 1, "title": "soup", "menuId": "m-1"}, {"_pk": 2, "title": "pie", "menuId": "m-2"}]}"#,
            expected: [
                #"    {"_pk": 1, "title": "soup", "menuID": null},"#,
                #"    {"_pk": 2, "title": "pie", "menuID": null}"#,
            ]),
        Clash(
            name: "an attribute removed beside its twin in another case (imageURL removed, imageUrl kept)",
            before: dish(#"<attribute name="imageURL" \#(string)/><attribute name="imageUrl" \#(string)/>"#),
            after: dish(#"<attribute name="imageUrl" \#(string)/>"#),
            seed:
                #"{"Dish": [{"_pk": 1, "imageURL": "A", "imageUrl": "a"}, {"_pk": 2, "imageURL": "B", "imageUrl": "b"}]}"#,
            expected: [#"    {"_pk": 1, "imageUrl": "a"},"#, #"    {"_pk": 2, "imageUrl": "b"}"#]),
        Clash(
            name: "an attribute added beside its twin in another case (the old one's column gets a qualifier)",
            before: dish(#"<attribute name="menuId" \#(string)/>"#),
            after: dish(#"<attribute name="menuID" \#(integer)/><attribute name="menuId" \#(string)/>"#),
            seed: #"{"Dish": [{"_pk": 1, "menuId": "m-1"}]}"#,
            expected: [#"    {"_pk": 1, "menuID": null, "menuId": "m-1"}"#]),
        Clash(
            name: "an attribute renamed in case only",
            before: dish(#"<attribute name="menuId" \#(string)/>"#),
            after: dish(#"<attribute name="menuID" \#(string) elementID="menuId"/>"#),
            seed: #"{"Dish": [{"_pk": 1, "menuId": "m-1"}]}"#,
            expected: [#"    {"_pk": 1, "menuID": "m-1"}"#]),
        Clash(
            name: "an attribute renamed to the name of one dropped, in another case",
            before: dish(#"<attribute name="menuId" \#(string)/><attribute name="number" \#(integer)/>"#),
            after: dish(#"<attribute name="menuID" \#(integer) elementID="number"/>"#),
            seed: #"{"Dish": [{"_pk": 1, "menuId": "m-1", "number": 7}]}"#,
            expected: [#"    {"_pk": 1, "menuID": 7}"#]),
        Clash(
            name: "an attribute widened beside its twin in another case (the table is rebuilt)",
            before: dish(#"<attribute name="userID" \#(integer)/><attribute name="userId" \#(string)/>"#),
            after: dish(
                #"<attribute name="userID" optional="YES" attributeType="Double"/><attribute name="userId" \#(string)/>"#
            ),
            seed: #"{"Dish": [{"_pk": 1, "userID": 3, "userId": "u"}]}"#,
            expected: [#"    {"_pk": 1, "userID": 3.0, "userId": "u"}"#]),
        Clash(
            name: "a to-one removed beside its twin in another case",
            before: dish(
                #"<attribute name="title" \#(string)/><relationship name="menu" optional="YES" maxCount="1" deletionRule="Nullify" destinationEntity="Tag"/><relationship name="mENU" optional="YES" maxCount="1" deletionRule="Nullify" destinationEntity="Tag"/>"#
            ),
            after: dish(
                #"<attribute name="title" \#(string)/><relationship name="mENU" optional="YES" maxCount="1" deletionRule="Nullify" destinationEntity="Tag"/>"#
            ),
            seed: #"{"Dish": [{"_pk": 1, "title": "soup", "menu": 1, "mENU": 2}], "Tag": [{"_pk": 1}, {"_pk": 2}]}"#,
            expected: [#"    {"_pk": 1, "title": "soup", "mENU": 2}"#]),
        Clash(
            name: "an entity added beside its twin in another case (NOTE beside Note: Note's table becomes Note_table)",
            before: dish(#"<attribute name="text" \#(string)/>"#, name: "Note"),
            after: dish(#"<attribute name="text" \#(string)/>"#, name: "NOTE")
                + dish(#"<attribute name="text" \#(string)/>"#, name: "Note"),
            seed: #"{"Note": [{"_pk": 1, "text": "first"}]}"#,
            expected: [#"  "NOTE": [],"#, #"    {"_pk": 1, "text": "first"}"#]),
        Clash(
            name: "an entity removed beside its twin in another case (Note_table becomes Note)",
            before: dish(#"<attribute name="text" \#(string)/>"#, name: "NOTE")
                + dish(#"<attribute name="text" \#(string)/>"#, name: "Note"),
            after: dish(#"<attribute name="text" \#(string)/>"#, name: "Note"),
            seed: #"{"NOTE": [{"_pk": 1, "text": "loud"}], "Note": [{"_pk": 1, "text": "quiet"}]}"#,
            expected: [#"  "Note": ["#, #"    {"_pk": 1, "text": "quiet"}"#]),
        Clash(
            name: "an entity renamed in case only",
            before: dish(#"<attribute name="text" \#(string)/>"#, name: "Note"),
            after: dish(#"<attribute name="text" \#(string)/>"#, name: "NOTE", elementID: #" elementID="Note""#),
            seed: #"{"Note": [{"_pk": 4, "text": "first"}]}"#,
            expected: [#"  "NOTE": ["#, #"    {"_pk": 4, "text": "first"}"#]),
        Clash(
            name: "an entity moved under its twin in another case (their tables merged)",
            before: dish(#"<attribute name="text" \#(string)/>"#, name: "NOTE")
                + dish(#"<attribute name="text" \#(string)/>"#, name: "Note"),
            after: #"<entity name="NOTE" parentEntity="Note"/>"#
                + dish(#"<attribute name="text" \#(string)/>"#, name: "Note"),
            seed:
                #"{"NOTE": [{"_pk": 1, "text": "loud"}], "Note": [{"_pk": 1, "text": "quiet"}, {"_pk": 2, "text": "calm"}]}"#,
            expected: [
                #"  "NOTE": ["#, #"    {"_pk": 3, "text": "loud"}"#, #"    {"_pk": 1, "text": "quiet"},"#,
                #"    {"_pk": 2, "text": "calm"}"#,
            ]),
        Clash(
            name: "a many-to-many removed beside its twin's join table in another case",
            before: dish(
                #"<relationship name="tags" optional="YES" toMany="YES" deletionRule="Nullify" destinationEntity="Tag"/>"#,
                name: "NOTE")
                + dish(
                    #"<relationship name="tags" optional="YES" toMany="YES" deletionRule="Nullify" destinationEntity="Tag"/>"#,
                    name: "Note"),
            after: dish("", name: "NOTE")
                + dish(
                    #"<relationship name="tags" optional="YES" toMany="YES" deletionRule="Nullify" destinationEntity="Tag"/>"#,
                    name: "Note"),
            seed:
                #"{"NOTE": [{"_pk": 1, "tags": [1]}], "Note": [{"_pk": 1, "tags": [2]}], "Tag": [{"_pk": 1}, {"_pk": 2}]}"#,
            expected: [#"    {"_pk": 1, "tags": [2]}"#]),
    ]

    @Test(arguments: clashes) func everyKindOfStepAgainstACaseClash(_ clash: Clash) async throws {
        let roads = try TwoRoads(
            "Clash",
            versions: [
                ("Clash", clash.before + Self.tag + "</entity>"), ("Clash 2", clash.after + Self.tag + "</entity>"),
                (
                    "Clash 3",
                    clash.after + Self.tag
                        + #"<attribute name="extra" optional="YES" attributeType="String"/></entity>"#
                ),
            ],
            seed: clash.seed)
        let export = try await roads.migrateBoth()
        let lines = Set(export.split(separator: "\n").map(String.init))
        for line in clash.expected { #expect(lines.contains(line), "\(line)\n\(export)") }
    }

    /// An app's view reading `Note` still reads the objects of Note when a new entity NOTE takes that table's
    /// name: the view follows Note's table to its new name, as SQLite makes it follow a rename.
    @Test func anAppViewFollowsATableWhoseNameANewEntityTakes() async throws {
        let note = #"<entity name="Note"><attribute name="text" optional="YES" attributeType="String"/></entity>"#
        let loud = #"<entity name="NOTE"><attribute name="text" optional="YES" attributeType="String"/></entity>"#
        let tag = #"<entity name="Tag"><attribute name="label" optional="YES" attributeType="String"/></entity>"#
        let extra =
            #"<entity name="Tag"><attribute name="label" optional="YES" attributeType="String"/><attribute name="extra" optional="YES" attributeType="String"/></entity>"#
        let roads = try TwoRoads(
            "Notes",
            versions: [("Notes", note + tag), ("Notes 2", loud + note + tag), ("Notes 3", loud + note + extra)],
            seed: #"{"Note": [{"_pk": 1, "text": "first"}, {"_pk": 2, "text": "second"}]}"#,
            app: ["CREATE VIEW app_notes AS SELECT _pk, text FROM Note"])
        _ = try await roads.migrateBoth()
        for composed in [true, false] {
            #expect(
                try roads.rows("SELECT * FROM app_notes ORDER BY _pk", composed: composed) == [
                    [.integer(1), .text("first")], [.integer(2), .text("second")],
                ])
            #expect(
                try roads.rows("SELECT sql FROM sqlite_master WHERE name = 'app_notes'", composed: composed) == [
                    [.text(#"CREATE VIEW app_notes AS SELECT _pk, text FROM "Note_table""#)]
                ])
        }
    }

    /// A column whose name changes only in case is renamed by one statement (SQLite takes that of a column, not
    /// of a table); a column taking the name another column leaves, in another case, still goes through a
    /// name of its own, and both keep their values.
    @Test func aColumnChangesTheCaseOfItsNameInOneStatement() async throws {
        let bundle = makeBundle(
            "Menu",
            try makeVersion(
                "Menu",
                Self.dish(#"<attribute name="menuId" \#(Self.string)/><attribute name="code" \#(Self.string)/>"#)),
            try makeVersion(
                "Menu 2",
                Self.dish(
                    #"<attribute name="menuID" \#(Self.string) elementID="menuId"/>"#
                        + #"<attribute name="CODE" \#(Self.string) elementID="code"/>"#)),
            try makeVersion(
                "Menu 3",
                Self.dish(
                    #"<attribute name="code" \#(Self.string) elementID="menuID"/>"#
                        + #"<attribute name="menuId" \#(Self.string) elementID="CODE"/>"#)))
        let folder = try TemporaryFolder()
        let seed = try folder.write(#"{"Dish": [{"_pk": 1, "menuId": "m-1", "code": "c-1"}]}"#, to: "seed.json")
        let migration = try MigrationCase(bundle: bundle, seed: seed)
        let pass = migration.store + StoreFiles.temporarySuffix
        StatementCounter.shared.start(watching: pass)
        var options = MigrationOptions()
        options.targetVersion = "Menu 2"
        try await migration.migrate(options)
        #expect(StatementCounter.shared.count(on: pass, startingWith: "ALTER TABLE main.\"Dish\" RENAME COLUMN") == 2)
        #expect(
            StatementCounter.shared.count(on: pass, startingWith: "ALTER TABLE main.\"Dish\" RENAME COLUMN \"_remodel")
                == 0)
        StatementCounter.shared.start(watching: pass)
        try await migration.migrate()
        #expect(StatementCounter.shared.count(on: pass, startingWith: "ALTER TABLE main.\"Dish\" RENAME COLUMN") == 4)
        let rows = try SQLiteConnection(path: migration.store, mode: .readOnly).rows(
            #"SELECT "_pk", "code", "menuId" FROM "Dish""#)
        #expect(rows == [[.integer(1), .text("m-1"), .text("c-1")]])
    }
}
