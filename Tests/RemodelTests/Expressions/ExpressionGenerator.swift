import Foundation

@testable import Remodel
@testable import RemodelModel

/// Random well-typed expressions and rows over `LibraryFixture`.
struct ExpressionGenerator {
    var random: SplitMix64

    init(seed: UInt64) { random = SplitMix64(seed: seed) }

    mutating func chance(_ percent: Int) -> Bool { Int.random(in: 0..<100, using: &random) < percent }
    mutating func pick<T>(_ values: [T]) -> T { values[Int.random(in: 0..<values.count, using: &random)] }

    // MARK: - Values

    static let strings: [String] = [
        "", "a", "A", "abc", "ABC", "é", "e\u{301}", "ß", "İ", "ǅ", "ΣΑΣ", "😀", "👍🏽", "中文字", "  padded \t\n",
        "\u{00A0}nbsp\u{2003}", "Zürich", "x'y\"z\\", "0", "12", "-7", "+4", "12abc", " 12", "1.5", "1e3", "nan", "inf",
        "9223372036854775808", "-9223372036854775808", "0x10", "1.50", "ﬁ", "ǰ", "\u{1F1FA}\u{1F1F8}",
        "a\u{301}\u{302}b",
        "line\nbreak", "nul\u{0}inside", "Ǆemal", "ﬀ", "ŉ", "\u{0130}stanbul", "σς", "-0.000",
        "123456789012345678901234567890.5",
    ]
    static let integers: [Int64] = [
        0, 1, -1, 2, 3, 7, -7, 10, 100, 255, -32768, 32767, 1 << 32, 1 << 53, (1 << 53) + 1, Int64.max, Int64.min,
        Int64.max - 1, Int64.min + 1, 3_037_000_499, 3_037_000_500, -4_611_686_018_427_387_904,
    ]
    static let doubles: [Double] = [
        0, -0.0, 1, -1, 0.1, 0.5, 1.5, -2.5, 3.75, 1e20, -1e20, 1e308, -1e308, 1.7976931348623157e308,
        Double.leastNonzeroMagnitude, 1e-300, 123.456,
        9_007_199_254_740_994, 9.223372036854775807e18, -9.223372036854775808e18, 2.5e-7, 1e15, 65504,
    ]
    static let decimals: [String] = [
        "0", "1", "1.50", "-12.3400", "0.1", "123456789012345678901234567890.123456",
        "0.000000000000000000000000000001",
        "99999999999999999999999999999999999999", "-0.5", "3.14159265358979323846264338327950288",
        "9223372036854775807",
        "-9223372036854775809", "1e5", "2.5E-3",
    ]
    static let dates: [Double] = [
        0, -1e9, 1.7e9, 1_700_000_000.123, 253_402_300_799.999, -62_135_596_800, 1e15, -0.001, 86_399.9995,
    ]

    mutating func integerLiteral() -> Int64 {
        chance(70) ? pick(Self.integers) : Int64.random(in: -1000...1000, using: &random)
    }

    mutating func doubleLiteral() -> Double {
        chance(70) ? pick(Self.doubles) : Double(Int.random(in: -100_000...100_000, using: &random)) / 64
    }

    // MARK: - Rows

    /// Inserts persons and books with random values, returning the persons' keys.
    mutating func insertRows(into connection: SQLiteConnection, persons: Int, books: Int) throws -> [Int64] {
        func maybe(_ value: SQLiteValue, _ generator: inout ExpressionGenerator) -> SQLiteValue {
            generator.chance(20) ? .null : value
        }
        for pk in 1...books {
            let values: [SQLiteValue] = [
                .integer(Int64(pk)), .text("Book"),
                maybe(.text(pick(Self.strings)), &self),
                maybe(.integer(Int64.random(in: -5...2000, using: &random)), &self),
                maybe(.text(pick(Self.decimals)), &self), maybe(.real(doubleLiteral()), &self),
                chance(25) ? .null : .integer(Int64.random(in: 1...Int64(persons), using: &random)),
            ]
            try connection.run("INSERT INTO \"Book\" VALUES (?, ?, ?, ?, ?, ?, ?)", values)
        }
        for pk in 1...persons {
            let photo = Data(
                (0..<Int.random(in: 0...4, using: &random)).map { _ in UInt8.random(in: 0...255, using: &random) })
            let values: [SQLiteValue] = [
                .integer(Int64(pk)), .text("Person"),
                maybe(.text(pick(Self.strings)), &self), .text(pick(Self.strings)),
                maybe(.text(pick(Self.strings)), &self),
                maybe(.integer(integerLiteral()), &self), .integer(Int64.random(in: -32768...32767, using: &random)),
                maybe(.real(doubleLiteral()), &self), maybe(.real(Double(Float(doubleLiteral()))), &self),
                maybe(.text(pick(Self.decimals)), &self), maybe(.integer(chance(50) ? 1 : 0), &self),
                maybe(.real(pick(Self.dates)), &self), maybe(.text(UUID().uuidString), &self),
                maybe(.blob(photo), &self),
                maybe(.text(pick(["https://example.com/ä", "file:///tmp/x", ""])), &self), .null,
                chance(25) ? .null : .integer(Int64.random(in: 1...Int64(books), using: &random)),
            ]
            try connection.run(
                "INSERT INTO \"Person\" VALUES (\(Array(repeating: "?", count: values.count).joined(separator: ", ")))",
                values)
        }
        return (1...persons).map(Int64.init)
    }

    // MARK: - Expressions

    /// A random expression of `type`, at most `depth` operators deep, fully parenthesized.
    mutating func expression(_ type: ExpressionType, depth: Int) -> String {
        if depth <= 0 || chance(25) { return leaf(type) }
        let d = depth - 1
        func p(_ text: String) -> String { "(" + text + ")" }
        // Shared forms for every type.
        switch Int.random(in: 0..<12, using: &random) {
        case 0:
            return p(
                "\(expression(.boolean, depth: d)) ? \(expression(type, depth: d)) : \(expression(type, depth: d))")
        case 1: return p("\(expression(type, depth: d)) ?? \(expression(type, depth: d))")
        case 2:
            return
                "coalesce(\(expression(type, depth: d)), \(chance(50) ? "nil" : expression(type, depth: d)), \(expression(type, depth: d)))"
        default: break
        }
        switch type {
        case .integer:
            switch Int.random(in: 0..<6, using: &random) {
            case 0, 1:
                return p(
                    "\(expression(.integer, depth: d)) \(pick(["+", "-", "*", "/", "%"])) \(expression(.integer, depth: d))"
                )
            case 2: return "-" + p(expression(.integer, depth: d))
            case 3: return "length(\(expression(.string, depth: d)))"
            default: return "int(\(expression(pick([.double, .decimal, .string, .boolean, .integer]), depth: d)))"
            }
        case .double:
            switch Int.random(in: 0..<5, using: &random) {
            case 0, 1:
                let (l, r) = pick([
                    (ExpressionType.double, ExpressionType.double), (.integer, .double), (.double, .integer),
                    (.decimal, .double),
                ])
                return p("\(expression(l, depth: d)) \(pick(["+", "-", "*", "/", "%"])) \(expression(r, depth: d))")
            case 2: return "-" + p(expression(.double, depth: d))
            default: return "double(\(expression(pick([.integer, .decimal, .string, .boolean]), depth: d)))"
            }
        case .decimal:
            switch Int.random(in: 0..<5, using: &random) {
            case 0, 1:
                let (l, r) = pick([
                    (ExpressionType.decimal, ExpressionType.decimal), (.integer, .decimal), (.decimal, .integer),
                ])
                return p("\(expression(l, depth: d)) \(pick(["+", "-", "*", "/"])) \(expression(r, depth: d))")
            case 2: return "-" + p(expression(.decimal, depth: d))
            default: return "decimal(\(expression(pick([.integer, .double, .string]), depth: d)))"
            }
        case .string:
            switch Int.random(in: 0..<7, using: &random) {
            case 0: return p("\(expression(.string, depth: d)) + \(expression(.string, depth: d))")
            case 1: return "\(pick(["lowercase", "uppercase", "trim"]))(\(expression(.string, depth: d)))"
            case 2: return "substring(\(expression(.string, depth: d)), \(smallInteger(d)), \(smallInteger(d)))"
            case 3:
                return
                    "replace(\(expression(.string, depth: d)), \(expression(.string, depth: d)), \(expression(.string, depth: d)))"
            default:
                return
                    "string(\(expression(pick([.integer, .double, .decimal, .boolean, .date, .uuid, .uri, .string]), depth: d)))"
            }
        case .boolean:
            switch Int.random(in: 0..<6, using: &random) {
            case 0, 1:
                let (l, r) = pick([
                    (ExpressionType.integer, ExpressionType.integer), (.double, .double), (.integer, .double),
                    (.decimal, .decimal),
                    (.decimal, .integer), (.decimal, .double), (.string, .string), (.date, .date),
                ])
                return p(
                    "\(expression(l, depth: d)) \(pick(["==", "!=", "<", "<=", ">", ">="])) \(expression(r, depth: d))")
            case 2:
                let t = pick([ExpressionType.boolean, .uuid, .uri, .binary, .string])
                return p("\(expression(t, depth: d)) \(pick(["==", "!="])) \(expression(t, depth: d))")
            case 3:
                return p(
                    "\(expression(pick([.integer, .string, .binary, .decimal]), depth: d)) \(pick(["==", "!="])) nil")
            case 4:
                return p("\(expression(.boolean, depth: d)) \(pick(["&&", "||"])) \(expression(.boolean, depth: d))")
            default: return "!" + p(expression(.boolean, depth: d))
            }
        default:
            return leaf(type)
        }
    }

    /// Small integers for substring bounds, sometimes negative or huge.
    mutating func smallInteger(_ depth: Int) -> String {
        if chance(20) { return expression(.integer, depth: depth) }
        return String(pick([0, 1, 2, 3, 5, -1, -5, 100, Int64.max, Int64.min]))
    }

    mutating func leaf(_ type: ExpressionType) -> String {
        switch type {
        case .integer:
            return chance(50)
                ? String(integerLiteral())
                : pick([
                    "$source.age", "$source.small", "$source.books.@count", "$source.favoriteBook.pages",
                    "$source.favoriteBook.author.age", "$source.favoriteBook.author.books.@count",
                ])
        case .double:
            return chance(50)
                ? String(doubleLiteral())
                : pick([
                    "$source.score", "$source.ratio", "$source.favoriteBook.rating",
                    "$source.favoriteBook.author.score",
                ])
        case .decimal:
            return chance(40)
                ? "decimal(\(ExpressionLexer.quote(pick(Self.decimals))))"
                : pick(["$source.balance", "$source.favoriteBook.price", "$source.favoriteBook.author.balance"])
        case .string:
            return chance(50)
                ? ExpressionLexer.quote(pick(Self.strings))
                : pick([
                    "$source.name", "$source.nickname", "$source.favoriteBook.title",
                    "$source.favoriteBook.author.name",
                ])
        case .boolean: return pick(["true", "false", "$source.active", "$source.favoriteBook.author.active"])
        case .date: return pick(["$source.birthday", "now()", "$source.favoriteBook.author.birthday"])
        case .uuid: return pick(["$source.id", "$source.favoriteBook.author.id"])
        case .binary: return "$source.photo"
        case .uri: return "$source.homepage"
        case .nil: return "nil"
        }
    }
}
