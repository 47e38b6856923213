import Foundation
import Testing

@testable import Remodel

/// SQLite takes two names for one only when they differ in ASCII letter case; every other byte counts (DESIGN.md,
/// "Names"). Swift's `lowercased()` folds `É` into `é`, and its `String` takes `é` (U+00E9) and `e` + U+0301 for
/// one: keyed so, the app's table `cafÉ` or `Cafe`+U+0301 was the model's `Café`, and a column renamed `NAMÉ` →
/// `NAMé` was no drift (issue 40, item 6). Here the app's objects and the model's names differ in those ways only,
/// through a migration (one pass and step by step, the model's table rebuilt), the drift check and the export.
struct BeyondASCIINameTests {
    static let string = #"optional="YES" attributeType="String""#
    /// `Café` (U+00E9) and its attribute `NAMÉ` (U+00C9).
    static let cafe = "Caf\u{E9}"
    static let upperName = "NAM\u{C9}"

    /// The app's names beside the model's `Café` and `NAMÉ`, each another name to SQLite.
    struct Twins: Sendable, CustomTestStringConvertible {
        /// The app's table, beside the model's table `Café`.
        var table: String
        /// The app's column on `Café`, beside the model's column `NAMÉ`.
        var column: String
        var testDescription: String
    }

    static let twins = [
        Twins(table: "caf\u{C9}", column: "NAM\u{E9}", testDescription: "in non-ASCII case: cafÉ, NAMé"),
        Twins(
            table: "Cafe\u{301}", column: "NAME\u{301}", testDescription: "in other scalars: Cafe+U+0301, NAME+U+0301"),
    ]

    /// `Café.size` Integer 32 → Double (its table rebuilt), then an attribute of `Tag` added.
    private static func versions() -> [(String, String)] {
        let tag = #"<entity name="Tag"><attribute name="label" \#(string)/>"#
        func entity(size: String) -> String {
            #"<entity name="\#(Self.cafe)"><attribute name="\#(upperName)" \#(string)/>"#
                + #"<attribute name="size" optional="YES" attributeType="\#(size)"/></entity>"#
        }
        return [
            ("Names", entity(size: "Integer 32") + tag + "</entity>"),
            ("Names 2", entity(size: "Double") + tag + "</entity>"),
            ("Names 3", entity(size: "Double") + tag + #"<attribute name="extra" \#(string)/></entity>"#),
        ]
    }

    private static let seed =
        #"{"\#(cafe)": [{"_pk": 1, "\#(upperName)": "one", "size": 1}, {"_pk": 2, "\#(upperName)": "two", "size": 2}]}"#

    /// The app's table, index, view and trigger named like the model's table, and its column and index on the
    /// model's table named like the model's column: every one is the app's own, carried with its rows and values,
    /// and no trigger of the app's is said to miss the step's writes (none fires on the rebuilt table).
    @Test(arguments: twins) func theAppsObjectsNamedLikeTheModelsAreTheAppsOwn(_ twins: Twins) async throws {
        let (table, column) = (quoteIdentifier(twins.table), quoteIdentifier(twins.column))
        let app = [
            "CREATE TABLE \(table) (x TEXT)", "INSERT INTO \(table) VALUES ('app row')",
            "CREATE INDEX \(quoteIdentifier(twins.table + "_x")) ON \(table)(x)",
            "CREATE VIEW \(quoteIdentifier(twins.table + "_view")) AS SELECT x FROM \(table)",
            "CREATE TABLE app_log (what TEXT)",
            "CREATE TRIGGER \(quoteIdentifier(twins.table + "_log")) AFTER UPDATE ON \(table) BEGIN INSERT INTO app_log VALUES (new.x); END",
            "ALTER TABLE \(quoteIdentifier(Self.cafe)) ADD COLUMN \(column) TEXT",
            "UPDATE \(quoteIdentifier(Self.cafe)) SET \(column) = 'app ' || _pk",
            "CREATE INDEX \(quoteIdentifier(Self.cafe + "_app")) ON \(quoteIdentifier(Self.cafe))(\(column))",
        ]
        let roads = try TwoRoads("Names", versions: Self.versions(), seed: Self.seed, app: app)
        let objects = "SELECT type, name FROM sqlite_master WHERE name NOT LIKE 'sqlite%' ORDER BY type, name"
        let before = try SQLiteConnection(path: roads.original, mode: .readOnly).rows(objects)
        var exports: [String] = []
        for composed in [true, false] {
            let report = try await roads.migrate(composed: composed)
            #expect(report.unfiredTriggers.isEmpty, "\(report.unfiredTriggers)")
            #expect(try roads.rows("SELECT x FROM \(table)", composed: composed) == [[.text("app row")]])
            #expect(
                try roads.rows("SELECT * FROM \(quoteIdentifier(twins.table + "_view"))", composed: composed) == [
                    [.text("app row")]
                ])
            #expect(
                try roads.rows(
                    "SELECT _pk, \(column) FROM \(quoteIdentifier(Self.cafe)) ORDER BY _pk", composed: composed)
                    == [[.integer(1), .text("app 1")], [.integer(2), .text("app 2")]])
            // Every object of the store, byte for byte: the app's as they were; the model's own (its table, its
            // `_entity` index) too, since the rebuilt table keeps its name.
            let after = try roads.rows(objects, composed: composed)
            #expect(Self.spelled(after) == Self.spelled(before))
            exports.append(try roads.export(composed: composed))
        }
        expectSameText(exports[0], exports[1])
        let lines = Set(exports[0].split(separator: "\n").map(String.init))
        for line in [
            #"    {"_pk": 1, "\#(Self.upperName)": "one", "size": 1.0},"#,
            #"    {"_pk": 2, "\#(Self.upperName)": "two", "size": 2.0}"#,
        ] {
            #expect(lines.contains(line), "\(line)\n\(exports[0])")
        }
    }

    /// Two entities whose names differ only beyond ASCII (`Café` and `CAFÉ`) are two tables to SQLite: one rebuilt
    /// beside the other, each keeps its objects.
    @Test func twoEntitiesWhoseNamesDifferOnlyInNonASCIICaseAreTwo() async throws {
        let upper = "CAF\u{C9}"
        let other = #"<entity name="\#(upper)"><attribute name="label" \#(Self.string)/></entity>"#
        let versions = Self.versions().map { ($0.0, $0.1 + other) }
        let roads = try TwoRoads(
            "Names", versions: versions,
            seed:
                #"{"\#(Self.cafe)": [{"_pk": 1, "\#(Self.upperName)": "one", "size": 1}], "\#(upper)": [{"_pk": 1, "label": "loud"}]}"#
        )
        let export = try await roads.migrateBoth()
        let lines = Set(export.split(separator: "\n").map(String.init))
        for line in [
            #"  "\#(upper)": ["#, #"    {"_pk": 1, "label": "loud"}"#, #"  "\#(Self.cafe)": ["#,
            #"    {"_pk": 1, "\#(Self.upperName)": "one", "size": 1.0}"#,
        ] {
            #expect(lines.contains(line), "\(line)\n\(export)")
        }
    }

    /// An entity and an attribute renamed to their other spelling (`Café` → `Cafe`+U+0301, `NAMÉ` → `NAME`+U+0301:
    /// the same to Swift's `==`, two names to SQLite and Core Data): the table and the column are renamed, by
    /// bytes, and the objects keep their values.
    @Test func aRenameToTheOtherSpellingIsARename() async throws {
        let (entity, attribute) = ("Cafe\u{301}", "NAME\u{301}")
        let renamed =
            #"<entity name="\#(entity)" elementID="\#(Self.cafe)"><attribute name="\#(attribute)" \#(Self.string) elementID="\#(Self.upperName)"/>"#
            + #"<attribute name="size" optional="YES" attributeType="Integer 32"/></entity>"#
        let tag = #"<entity name="Tag"><attribute name="label" \#(Self.string)/>"#
        let versions = [
            Self.versions()[0], ("Names 2", renamed + tag + "</entity>"),
            ("Names 3", renamed + tag + #"<attribute name="extra" \#(Self.string)/></entity>"#),
        ]
        let roads = try TwoRoads("Names", versions: versions, seed: Self.seed)
        let export = try await roads.migrateBoth()
        let lines = Set(export.split(separator: "\n").map { Self.spelled(String($0)) })
        for line in [#"  "\#(entity)": ["#, #"    {"_pk": 1, "\#(attribute)": "one", "size": 1},"#] {
            #expect(lines.contains(Self.spelled(line)), "\(Self.spelled(line))\n\(export)")
        }
        for composed in [true, false] {
            let tables = try roads.rows(
                "SELECT m.name, p.name FROM sqlite_master AS m JOIN pragma_table_info(m.name) AS p WHERE p.name LIKE 'NAM%'",
                composed: composed)
            #expect(Self.spelled(tables) == [Self.spelled("\(entity) \(attribute)")])
        }
    }

    /// A model table or column renamed by hand to a name SQLite takes for another (`Café` → `CAFÉ`, `NAMÉ` → `NAMé`
    /// or `NAME`+U+0301) is drift, named exactly; one renamed in ASCII case only (`size` → `SIZE`) is not.
    @Test(arguments: twins) func aNameChangedBeyondASCIIIsDrift(_ twins: Twins) throws {
        let folder = try TemporaryFolder()
        let path = try BundleWriting.write("Names", in: folder.path, versions: Array(Self.versions().prefix(1)))
        let bundle = try ModelBundle(contentsOf: path)
        let store = folder.file("names.sqlite")
        _ = try Store.create(
            at: store, bundle: bundle, version: "Names", seed: try folder.write(Self.seed, to: "s.json"))
        let cafe = quoteIdentifier(Self.cafe)
        func drifts(after sql: [String]) throws -> [String] {
            let copy = folder.file("copy-\(UUID().uuidString).sqlite")
            try FileManager.default.copyItem(atPath: store, toPath: copy)
            let connection = try SQLiteConnection(path: copy, mode: .readWrite)
            for statement in sql { try connection.execute(statement) }
            guard case .schemaDrift(_, let drifts) = try StoreInspector.inspect(path: copy, bundle: bundle).state else {
                return []
            }
            return drifts.map { Self.spelled($0.description) }
        }
        #expect(try drifts(after: ["ALTER TABLE \(cafe) RENAME COLUMN size TO SIZE"]) == [])
        #expect(
            try drifts(after: [
                "ALTER TABLE \(cafe) RENAME COLUMN \(quoteIdentifier(Self.upperName)) TO \(quoteIdentifier(twins.column))"
            ]) == [
                Self.spelled(
                    "table \"\(Self.cafe)\" has no column \"\(Self.upperName)\" (its columns the model does not have: \"\(twins.column)\")"
                )
            ])
        #expect(
            try drifts(after: ["ALTER TABLE \(cafe) RENAME TO \(quoteIdentifier(twins.table))"]) == [
                Self.spelled("table \"\(Self.cafe)\" is missing")
            ])
    }

    /// Text with its scalars spelled out (`cafU+c9`): compared so, a difference of scalars shows (Swift's `==`
    /// takes canonically equivalent spellings for one).
    private static func spelled(_ text: String) -> String {
        text.unicodeScalars.map { $0.isASCII ? String($0) : "U+\(String($0.value, radix: 16))" }.joined()
    }

    private static func spelled(_ rows: [[SQLiteValue]]) -> [String] {
        rows.map { row in
            row.map { value in
                guard case .text(let text) = value else { return value.description }
                return spelled(text)
            }.joined(separator: " ")
        }
    }
}
