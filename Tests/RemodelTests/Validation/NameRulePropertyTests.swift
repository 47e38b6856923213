import Foundation
import Testing

@testable import Remodel
@testable import RemodelModel
@testable import RemodelProject

/// One rule for names everywhere (DESIGN.md, "Names"; issue 40, item 6), over names drawn from letters, combining
/// marks, NFC/NFD pairs (`é` as U+00E9, or `e` and U+0301), letters that differ in case, digits and the
/// delimiters of the files names are written in (`<-`, `#`, `.`, `$`, quotes, spaces). Each name goes through:
///
/// - `validate`, as an attribute: accepted exactly when ``SQLName/isIdentifier(_:)`` says it is a name (and it is
///   not reserved: `_…`);
/// - a mapping expression, `uppercase($source.NAME)`: it parses and type-checks exactly when `validate` accepts
///   the name;
/// - the version order file, as a former name right after the arrow (`V 2 <-NAME`): the file's pieces, found by
///   bytes, are the former names, byte for byte;
/// - a rename: the next version's attribute `renamed` with the renaming identifier NAME takes its values, and one
///   whose identifier is NAME spelled with other scalars (its NFC or NFD twin) does not;
/// - a migration: the values of NAME arrive under NAME.
///
/// And pairs: two attributes whose names are an NFC/NFD pair are refused as `equivalent-names` (never called the
/// same attribute); two whose names differ only in ASCII case are two attributes, each keeping its values.
///
/// `REMODEL_NAMES_COUNT` sets how many names one run draws (24 by default), `REMODEL_NAMES_SEED` the seed.
struct NameRulePropertyTests {
    static let seed = ProcessInfo.processInfo.environment["REMODEL_NAMES_SEED"].flatMap { UInt64($0) } ?? 0x40_6000
    static let count = ProcessInfo.processInfo.environment["REMODEL_NAMES_COUNT"].flatMap { Int($0) } ?? 24

    /// The pieces names are drawn from.
    static let letters = [
        "a", "n", "N", "e", "E", "\u{E9}", "e\u{301}", "\u{C9}", "E\u{301}", "\u{DF}", "\u{1C6}", "\u{3B1}",
    ]
    static let marks = ["\u{301}", "\u{308}", "\u{327}"]
    static let others = ["_", "1", "<-", "#", ".", "$", " ", "-", "'", "\"", "<", "@", "\u{200D}"]

    /// A name: a few pieces, most of them letters and marks.
    static func draw(_ random: inout SplitMix64) -> String {
        var name = ""
        for index in 0..<Int.random(in: 1...4, using: &random) {
            let roll = Int.random(in: 0..<100, using: &random)
            // A first piece is most often a letter; now and then a mark, which joins the `<-` before it into one
            // character of Swift's string search.
            let pool =
                index == 0
                ? (roll < 80 ? letters : roll < 90 ? marks : others)
                : (roll < 55 ? letters : roll < 80 ? marks : others)
            name += pool[Int.random(in: 0..<pool.count, using: &random)]
        }
        return name
    }

    /// `é` and `É` written the other way: U+00E9 for `e` U+0301, and back.
    static func twin(_ name: String) -> String? {
        let swapped = name.replacingEvery("e\u{301}", with: "\u{1}").replacingEvery("\u{E9}", with: "e\u{301}")
            .replacingEvery("\u{1}", with: "\u{E9}").replacingEvery("E\u{301}", with: "\u{2}")
            .replacingEvery("\u{C9}", with: "E\u{301}").replacingEvery("\u{2}", with: "\u{C9}")
        return SQLName.identical(swapped, name) ? nil : swapped
    }

    @Test func everyNameIsOneNameEverywhere() async throws {
        var random = SplitMix64(seed: Self.seed)
        var names: [String] = []
        while names.count < Self.count {
            let name = Self.draw(&random)
            if !names.contains(where: { SQLName.identical($0, name) }) { names.append(name) }
        }
        var valid = 0
        for name in names {
            do {
                if try await check(name) { valid += 1 }
            } catch {
                Issue.record("\(Self.spelled(name)): \(error)")
            }
        }
        // A run of names none of which is valid (or all) would not compare the two sides.
        #expect(valid > 0 && valid < names.count, "\(valid) of \(names.count) names valid")
    }

    /// Two attributes whose names are an NFC/NFD pair, and two whose names differ only in case, ASCII or not
    /// (SQLite folds ASCII case only: `café` and `CAFÉ` are two columns, `name` and `NAME` one name it lays out
    /// twice), or whose upper cases are one (`straße` and `STRASSE`, which Core Data would call `ZSTRASSE` both).
    @Test(arguments: [
        ("caf\u{E9}", "cafe\u{301}"), ("\u{C9}t\u{E9}", "E\u{301}te\u{301}"), ("name", "NAME"),
        ("caf\u{E9}", "CAF\u{C9}"), ("caf\u{E9}", "caf\u{C9}"), ("\u{3B1}lpha", "\u{391}lpha"),
        ("\u{1C6}ungla", "\u{1C4}ungla"), ("stra\u{DF}e", "STRASSE"), ("stra\u{DF}e", "strasse"),
    ])
    func pairs(first: String, second: String) async throws {
        let folder = try TemporaryFolder()
        let versions = [
            ("Pair", "<entity name=\"Thing\">\(Self.attribute(first))\(Self.attribute(second))</entity>"),
            (
                "Pair 2",
                "<entity name=\"Thing\">\(Self.attribute(first))\(Self.attribute(second))</entity><entity name=\"Extra\"/>"
            ),
        ]
        let path = try BundleWriting.write("Pair", in: folder.path, versions: versions)
        let errors = try Validation.validate(paths: [path]).diagnostics.filter { $0.severity == .error }
        guard first.unicodeScalars.elementsEqual(second.unicodeScalars) || first != second else {
            #expect(
                errors.count == 2 && errors.allSatisfy { $0.rule == DiagnosticRule.equivalentNames.rawValue },
                "\(errors)")
            return
        }
        #expect(errors.isEmpty, "\(errors)")
        let bundle = try ModelBundle(contentsOf: path)
        let store = folder.file("pair.sqlite")
        let seed = try folder.write(
            #"{"Thing": [{"_pk": 1, \#(Self.json(first)): "one", \#(Self.json(second)): "two"}]}"#, to: "seed.json")
        _ = try Store.create(at: store, bundle: bundle, version: "Pair", seed: seed)
        _ = try await Migrator(bundle: bundle).migrate(storeAt: store)
        let export = folder.file("export.json")
        try Store.open(at: store, bundle: bundle).exportJSON(to: export)
        let text = try String(contentsOfFile: export, encoding: .utf8)
        #expect(
            text.contains("\(Self.json(first)): \"one\"") && text.contains("\(Self.json(second)): \"two\""), "\(text)")
    }

    // MARK: - One name through everything

    /// Checks one name on every road. - Returns: Whether it is a name (`validate` accepts it).
    private func check(_ name: String) async throws -> Bool {
        let spelled = Self.spelled(name)
        let isName = SQLName.isIdentifier(name) && !name.hasPrefix("_")
        let folder = try TemporaryFolder()
        let renamed =
            #"<attribute name="renamed" optional="YES" attributeType="String" elementID="\#(Self.escaped(name))"/>"#
        let versions = [
            ("V", "<entity name=\"Thing\">\(Self.attribute(name))</entity>"),
            ("V 2", "<entity name=\"Thing\">\(Self.attribute(name))\(Self.attribute("full"))</entity>"),
            ("V 3", "<entity name=\"Thing\">\(renamed)\(Self.attribute("full"))</entity>"),
        ]
        let path = try BundleWriting.write("Names", in: folder.path, versions: versions)

        // validate, the model alone.
        let errors = try Validation.validate(paths: [path]).diagnostics.filter { $0.severity == .error }
        #expect(errors.isEmpty == isName, "\(spelled): \(errors)")

        // The version order file: `V 2 <-NAME`, its pieces found by bytes.
        _ = try folder.write("V\nV 2 <-\(name)\nV 3\n", to: "Names.xcdatamodeld/.remodel-version-order")
        let expected = Self.formerNames(name)
        let bundle = try ModelBundle(contentsOf: path)
        let former = bundle.formerVersionNames.filter { $0.value == "V 2" }.keys.sorted()
        #expect(
            former.count == expected.count && zip(former.sorted(), expected.sorted()).allSatisfy(SQLName.identical),
            "\(spelled): former names \(former.map(Self.spelled)), expected \(expected.map(Self.spelled))")
        try FileManager.default.removeItem(atPath: folder.file("Names.xcdatamodeld/.remodel-version-order"))
        guard let version = try? ModelBundle(contentsOf: path).loadVersion(named: "V"), isName,
            let thing = version.entity(named: "Thing")
        else {
            // Not a name: the expression is refused too.
            let parsed = Result { try ExpressionParser.parse("uppercase($source.\(name))") }
            if case .success(let expression) = parsed,
                let version = try? ModelBundle(contentsOf: path).loadVersion(named: "V"),
                let thing = version.entity(named: "Thing")
            {
                #expect(
                    (try? ExpressionTypeChecker(model: version, entity: thing).check(expression)) == nil,
                    "\(spelled): not a name, but the expression reads it")
            }
            return false
        }

        // A mapping expression reads the name as validate does.
        let checked = try ExpressionTypeChecker(model: version, entity: thing).check("uppercase($source.\(name))")
        #expect(checked.resultType.type == .string, "\(spelled)")

        // A migration through a mapping file that computes `full` from it, then the rename.
        try FileManager.default.createDirectory(atPath: folder.file("Mappings"), withIntermediateDirectories: true)
        _ = try folder.write(
            #"<mapping model="Names" sourceVersion="V" destinationVersion="V 2"><entity source="Thing" destination="Thing"><attribute name="full" value="uppercase($source.\#(Self.escaped(name)))"/></entity></mapping>"#,
            to: "Mappings/full.xml")
        let store = folder.file("names.sqlite")
        _ = try Store.create(
            at: store, bundle: bundle, version: "V",
            seed: try folder.write(#"{"Thing": [{"_pk": 1, \#(Self.json(name)): "value"}]}"#, to: "seed.json"))
        _ = try await Migrator(bundle: bundle, options: MigrationOptions(mappingsDirectory: folder.file("Mappings")))
            .migrate(storeAt: store)
        #expect(
            try SQLiteConnection(path: store, mode: .readOnly).rows("SELECT renamed, full FROM Thing") == [
                [.text("value"), .text("VALUE")]
            ], "\(spelled)")

        // The twin (the same look, other scalars) is another name: a renaming identifier spelled so takes nothing.
        if let twin = Self.twin(name), SQLName.isIdentifier(twin) {
            let other = try TemporaryFolder()
            let twinRenamed =
                #"<attribute name="renamed" optional="YES" attributeType="String" elementID="\#(Self.escaped(twin))"/>"#
            let twinPath = try BundleWriting.write(
                "Twins", in: other.path,
                versions: [
                    ("T", "<entity name=\"Thing\">\(Self.attribute(name))</entity>"),
                    ("T 2", "<entity name=\"Thing\">\(twinRenamed)</entity>"),
                ])
            let twins = try ModelBundle(contentsOf: twinPath)
            let plan = try MigrationPlanner.plan(bundle: twins, from: "T", to: "T 2", mappingsDirectory: nil)
            let attribute = plan.steps.first?.mapping.entities.first?.attribute("renamed")
            #expect(attribute?.value == nil, "\(spelled): the twin \(Self.spelled(twin)) took its values")
        }
        return true
    }

    // MARK: - Writing names

    /// The version order file's former names on `V 2 <-NAME`, worked out by bytes here: the pieces between the
    /// line's `<-`, without the spaces around them, empty ones left out.
    static func formerNames(_ name: String) -> [String] {
        let line = Array("V 2 <-\(name)".utf8)
        var pieces: [[UInt8]] = [[]]
        var index = 0
        while index < line.count {
            if index + 1 < line.count, line[index] == UInt8(ascii: "<"), line[index + 1] == UInt8(ascii: "-") {
                pieces.append([])
                index += 2
            } else {
                pieces[pieces.count - 1].append(line[index])
                index += 1
            }
        }
        return pieces.dropFirst().compactMap { piece -> String? in
            let trimmed = piece.drop { $0 == 0x20 }.reversed().drop { $0 == 0x20 }.reversed()
            return trimmed.isEmpty ? nil : String(decoding: Array(trimmed), as: UTF8.self)
        }.filter { !SQLName.identical($0, "V") && !SQLName.identical($0, "V 2") && !SQLName.identical($0, "V 3") }
    }

    static func attribute(_ name: String) -> String {
        #"<attribute name="\#(escaped(name))" optional="YES" attributeType="String"/>"#
    }

    /// A name as an XML attribute value.
    static func escaped(_ name: String) -> String {
        name.replacingEvery("&", with: "&amp;").replacingEvery("\"", with: "&quot;").replacingEvery("<", with: "&lt;")
    }

    /// A name as a JSON string.
    static func json(_ name: String) -> String {
        "\"" + name.replacingEvery("\\", with: "\\\\").replacingEvery("\"", with: "\\\"") + "\""
    }

    /// A name with its scalars spelled out, for a message (`n a m e U+301`).
    static func spelled(_ name: String) -> String {
        name.unicodeScalars.map { $0.isASCII && $0.value > 32 ? String($0) : "U+\(String($0.value, radix: 16))" }
            .joined(separator: " ")
    }
}
