import Foundation
import Testing

@testable import Remodel

/// The ledger of values turned into nil, against a count made apart: from a seed, random people (text that is a
/// number or not, with spaces or without, nil; numbers at the edges of Int64; doubles, zero among them; links to
/// each other), and two steps whose mapping files compute attributes with random conversions and arithmetic
/// that fail on part of the data (a filter now and then). The migration's `MigrationReport.losses`, composed and
/// step by step, equal what Swift counts by running the expressions through ``ExpressionInterpreter`` over the
/// source objects, step after step: every object whose computed value is nil while every value the expression
/// read is non-nil, with the first such object's `_pk`.
///
/// `REMODEL_LEDGER_COUNT` sets how many seeds run (24 by default, about a second).
struct NilValueLedgerPropertyTests {
    static let count = ProcessInfo.processInfo.environment["REMODEL_LEDGER_COUNT"].flatMap { Int($0) } ?? 24

    @Test(arguments: (0..<UInt64(count)).map { 0x1ED6_E500 + $0 })
    func theLedgerIsWhatSwiftCounts(seed: UInt64) async throws {
        var random = SplitMix64(seed: seed)
        let draw = Draw(random: &random)
        let folder = try TemporaryFolder()
        let bundle = try ModelBundle(
            contentsOf: try BundleWriting.write("People", in: folder.path, versions: Draw.versions))
        try FileManager.default.createDirectory(atPath: folder.file("Mappings"), withIntermediateDirectories: true)
        _ = try folder.write(draw.firstMapping, to: "Mappings/People 2.xml")
        _ = try folder.write(draw.secondMapping, to: "Mappings/People 3.xml")
        let template = folder.file("template.sqlite")
        _ = try Store.create(
            at: template, bundle: bundle, version: "People", seed: try folder.write(draw.seed, to: "seed.json"))

        let expected = try Self.expected(draw, bundle: bundle, template: template)
        var ledgers: [[String]] = []
        for composed in [true, false] {
            let store = folder.file("store-\(composed).sqlite")
            try FileManager.default.copyItem(atPath: template, toPath: store)
            var options = MigrationOptions(mappingsDirectory: folder.file("Mappings"), batchSize: 7)
            options.composesSteps = composed
            let report = try await Migrator(bundle: bundle, options: options).migrate(storeAt: store)
            ledgers.append(report.losses.filter(\.becameNil).map(\.description).sorted())
        }
        let context = "seed \(seed):\n\(draw.firstMapping)\n\(draw.secondMapping)\n\(draw.seed)"
        #expect(ledgers[0] == expected, "composed\n\(context)")
        #expect(ledgers[1] == expected, "step by step\n\(context)")
    }

    // MARK: - What is drawn

    /// One seed's data and mapping files.
    struct Draw {
        /// `People`: text, code, number, ratio, friend. `People 2` adds a, b (Double), c (required, default 7), d
        /// (String); `People 3` adds e.
        static let versions: [(String, String)] = {
            let links =
                #"<relationship name="friend" optional="YES" maxCount="1" deletionRule="Nullify" destinationEntity="Person" inverseName="friendOf" inverseEntity="Person"/><relationship name="friendOf" optional="YES" toMany="YES" deletionRule="Nullify" destinationEntity="Person" inverseName="friend" inverseEntity="Person"/>"#
            let first =
                #"<attribute name="text" optional="YES" attributeType="String"/><attribute name="code" optional="YES" attributeType="String"/><attribute name="number" optional="YES" attributeType="Integer 64"/><attribute name="ratio" optional="YES" attributeType="Double"/>"#
            let second =
                first
                + #"<attribute name="a" optional="YES" attributeType="Integer 64"/><attribute name="b" optional="YES" attributeType="Double"/><attribute name="c" attributeType="Integer 64" defaultValueString="7"/><attribute name="d" optional="YES" attributeType="String"/>"#
            let third = second + #"<attribute name="e" optional="YES" attributeType="Integer 64"/>"#
            return [
                ("People", "<entity name=\"Person\">\(first)\(links)</entity>"),
                ("People 2", "<entity name=\"Person\">\(second)\(links)</entity>"),
                ("People 3", "<entity name=\"Person\">\(third)\(links)</entity>"),
            ]
        }()

        static let integers = [
            "int($source.text)", "int(trim($source.text))", "int($source.code) + int($source.text)",
            "$source.number / ($source.number - 7)", "$source.number * 2", "-$source.number", "int($source.ratio)",
            "length($source.text) > 3 ? nil : $source.number", "int($source.friend.text)",
            "coalesce(int($source.text), int($source.code))", "int($source.text) ?? 0", "$source.number",
            "$source.friendOf.@count * $source.number", "int(string($source.ratio))",
        ]
        static let doubles = [
            "double($source.text)", "$source.ratio / $source.ratio", "double($source.code) + $source.ratio",
            "$source.ratio", "double(trim($source.code)) * 2.0",
        ]
        static let strings = [
            "string($source.number)", "substring($source.text, 1, 2)", "trim($source.text) + $source.code",
            "string(int($source.text))", "string($source.ratio)",
        ]
        /// The second step's expressions, over `People 2`.
        static let laterIntegers = [
            "int($source.d)", "$source.a / $source.c", "int(trim($source.d)) + $source.c", "$source.c - $source.a",
            "int($source.b)", "int($source.friend.d) * $source.a",
        ]
        static let texts = [
            "12", " 7 ", "-3", "+4", "forty", "", "1.5", "1e3", "  ", "9223372036854775807", "99999999999999999999",
            "0",
        ]
        static let numbers: [Int64] = [0, 7, 12, -1, 3, .max, .min, 1 << 62]
        static let ratios = ["0.0", "1.5", "-2.5", "1e300", "3.0"]

        var values: [String: String] = [:]
        var filter: String?
        var later = ""
        var seed = ""

        init(random: inout SplitMix64) {
            func pick<T>(_ values: [T]) -> T { values[Int.random(in: 0..<values.count, using: &random)] }
            func chance(_ percent: Int) -> Bool { Int.random(in: 0..<100, using: &random) < percent }
            for (name, pool) in [("a", Self.integers), ("b", Self.doubles), ("c", Self.integers), ("d", Self.strings)]
            where chance(85) {
                values[name] = pick(pool)
            }
            filter =
                chance(30) ? pick(["$source.number != 12", "length($source.text) < 3", "$source.ratio > 0.0"]) : nil
            later = pick(Self.laterIntegers)
            let count = Int.random(in: 6...30, using: &random)
            var objects: [String] = []
            for key in 1...count {
                var fields = ["\"_pk\": \(key)"]
                func text(_ name: String) {
                    guard chance(80) else { return }
                    let value = pick(Self.texts)
                    fields.append("\"\(name)\": \"\(value)\"")
                }
                text("text")
                text("code")
                if chance(80) { fields.append("\"number\": \(pick(Self.numbers))") }
                if chance(80) { fields.append("\"ratio\": \(pick(Self.ratios))") }
                if chance(60) { fields.append("\"friend\": \(Int.random(in: 1...count, using: &random))") }
                objects.append("{" + fields.joined(separator: ", ") + "}")
            }
            seed = "{\"Person\": [\n" + objects.joined(separator: ",\n") + "]}"
        }

        var firstMapping: String {
            let attributes = values.sorted { $0.key < $1.key }.map {
                "    <attribute name=\"\($0.key)\" value=\"\(Self.escaped($0.value))\"/>"
            }
            let filtered = filter.map { " filter=\"\(Self.escaped($0))\"" } ?? ""
            return """
                <mapping model="People" sourceVersion="People" destinationVersion="People 2">
                  <entity source="Person" destination="Person"\(filtered)>
                \(attributes.joined(separator: "\n"))
                  </entity>
                </mapping>
                """
        }

        var secondMapping: String {
            """
            <mapping model="People" sourceVersion="People 2" destinationVersion="People 3">
              <entity source="Person" destination="Person">
                <attribute name="e" value="\(Self.escaped(later))"/>
              </entity>
            </mapping>
            """
        }

        static func escaped(_ text: String) -> String {
            text.replacingOccurrences(of: "&", with: "&amp;").replacingOccurrences(of: "<", with: "&lt;")
                .replacingOccurrences(of: "\"", with: "&quot;")
        }
    }

    // MARK: - The count made apart

    /// One object's stored values, and every object's, for the interpreter.
    struct Row: ExpressionRow {
        let key: Int64
        let objects: [Int64: [String: SQLiteValue]]

        func value(of attribute: String, through relationships: [String]) -> SQLiteValue {
            var current = key
            for relationship in relationships {
                guard case .integer(let next)? = objects[current]?[relationship] else { return .null }
                current = next
            }
            return objects[current]?[attribute] ?? .null
        }

        func count(of relationship: String, through relationships: [String]) -> SQLiteValue {
            var current = key
            for step in relationships {
                guard case .integer(let next)? = objects[current]?[step] else { return .null }
                current = next
            }
            // The only to-many is `friendOf`, the inverse of `friend`.
            return .integer(Int64(objects.values.filter { $0["friend"] == .integer(current) }.count))
        }
    }

    /// The ledger the two steps should report, counted in Swift: the first step's from the template's rows, the
    /// second's from the objects the first step makes (computed the same way, with `c`'s default in its nils).
    static func expected(_ draw: Draw, bundle: ModelBundle, template: String) throws -> [String] {
        let connection = try SQLiteConnection(path: template, mode: .readOnly)
        var objects: [Int64: [String: SQLiteValue]] = [:]
        for row in try connection.rows(#"SELECT _pk, text, code, number, ratio, friend FROM "Person""#) {
            guard case .integer(let key) = row[0] else { continue }
            objects[key] = ["text": row[1], "code": row[2], "number": row[3], "ratio": row[4], "friend": row[5]]
        }
        let interpreter = ExpressionInterpreter()
        var ledger: [String] = []
        let first = try #require(bundle.version(named: "People"))
        let second = try #require(bundle.version(named: "People 2"))
        let third = try #require(bundle.version(named: "People 3"))
        // Step 1: the filter decides who arrives; each attribute's value, with c's default where it is nil.
        let filter = try draw.filter.map { try check($0, in: first, into: nil) }
        var arrived: [Int64: [String: SQLiteValue]] = [:]
        for key in objects.keys.sorted() {
            let row = Row(key: key, objects: objects)
            if let filter, try interpreter.evaluate(filter, row: row) != .integer(1) { continue }
            arrived[key] = objects[key]
        }
        var computed = arrived
        for (name, text) in draw.values.sorted(by: { $0.key < $1.key }) {
            let attribute = try #require(
                second.entity(named: "Person").flatMap { second.attribute(named: name, in: $0) })
            let checked = try check(text, in: first, into: attribute)
            var lost: [(Int64, SQLiteValue)] = []
            for key in arrived.keys.sorted() {
                let row = Row(key: key, objects: objects)
                let value = try interpreter.evaluate(checked, row: row)
                computed[key]?[name] = value.isNull && name == "c" ? .integer(7) : value
                guard value.isNull else { continue }
                let inputs = checked.inputs.map {
                    $0.isCount ? row.count(of: $0.name, through: $0.path) : row.value(of: $0.name, through: $0.path)
                }
                if !inputs.contains(where: \.isNull) { lost.append((key, inputs.count == 1 ? inputs[0] : .null)) }
            }
            ledger += line(
                "People → People 2", text, name, lost, checked: checked, row: { Row(key: $0, objects: objects) })
        }
        for key in computed.keys where computed[key]?["c"] == nil { computed[key]?["c"] = .integer(7) }
        // Links to objects the filter left out are gone.
        for key in computed.keys {
            if case .integer(let target)? = computed[key]?["friend"], computed[target] == nil {
                computed[key]?["friend"] = .null
            }
        }
        // Step 2: e over the objects step 1 made.
        let attribute = try #require(third.entity(named: "Person").flatMap { third.attribute(named: "e", in: $0) })
        let checked = try check(draw.later, in: second, into: attribute)
        var lost: [(Int64, SQLiteValue)] = []
        for key in computed.keys.sorted() {
            let row = Row(key: key, objects: computed)
            guard try interpreter.evaluate(checked, row: row).isNull else { continue }
            let inputs = checked.inputs.map { row.value(of: $0.name, through: $0.path) }
            if !inputs.contains(where: \.isNull) { lost.append((key, .null)) }
        }
        ledger += line(
            "People 2 → People 3", draw.later, "e", lost, checked: checked, row: { Row(key: $0, objects: computed) })
        return ledger.sorted()
    }

    /// The report's line for the objects an expression turned into nil (none when there are none).
    private static func line(
        _ step: String, _ expression: String, _ attribute: String, _ lost: [(Int64, SQLiteValue)],
        checked: CheckedExpression, row: (Int64) -> Row
    ) -> [String] {
        guard let first = lost.first?.0 else { return [] }
        let example = row(first)
        let values = DataLoss.Example.describe(
            checked.inputs.map { input in
                (
                    input.text,
                    input.isCount
                        ? example.count(of: input.name, through: input.path)
                        : example.value(of: input.name, through: input.path)
                )
            })
        let count = lost.count == 1 ? "1 value" : "\(lost.count) values"
        return ["\(step): `\(expression)` gave nil for \(count) of Person.\(attribute), e.g. _pk \(first) \(values)"]
    }

    private static func check(_ text: String, in version: ModelVersion, into attribute: Attribute?) throws
        -> CheckedExpression
    {
        let checker = ExpressionTypeChecker(model: version, entity: try #require(version.entity(named: "Person")))
        let parsed = try ExpressionParser.parse(text)
        guard let attribute else { return try checker.check(parsed) }
        return try checker.check(parsed, assignableTo: attribute.type, optional: attribute.isOptional)
    }
}
