import Foundation
import Testing

@testable import Remodel
@testable import RemodelModel

/// Expressions written to hurt: SQL in string literals, deep nesting, long text, and
/// arithmetic edges. Each gives a clear error or a defined value, the same in the
/// interpreter and in SQL, and never crashes.
struct HostileExpressionTests {
    private static var version: ModelVersion { Reliability.library.version(named: "Library")! }
    private static var person: Entity { version.entity(named: "Person")! }

    /// An in-memory Library store with one person and her book.
    private static func store() throws -> SQLiteConnection {
        let connection = try SQLiteConnection(path: ":memory:", mode: .create)
        for sql in StoreLayout(version: version).createTablesSQL { try connection.execute(sql) }
        try ExpressionFunctions.register(on: connection)
        try connection.execute(
            """
            INSERT INTO "Person" ("_pk", "_entity", "firstName", "lastName", "yearsSinceBirth") VALUES (1, 'Person', 'Ada', 'Lovelace', 36);
            INSERT INTO "Book" ("_pk", "_entity", "title", "author") VALUES (1, 'Book', 'Notes', 1);
            """)
        return connection
    }

    private struct Row: ExpressionRow {
        func value(of attribute: String, through relationships: [String]) -> SQLiteValue {
            ["firstName": .text("Ada"), "lastName": .text("Lovelace"), "yearsSinceBirth": .integer(36)][attribute]
                ?? .null
        }
        func count(of relationship: String, through relationships: [String]) -> SQLiteValue { .integer(1) }
    }

    /// The value of `text` for the one person, from the interpreter and from SQL (which must agree).
    private func evaluate(_ text: String, on connection: SQLiteConnection) throws -> SQLiteValue {
        let checked = try ExpressionTypeChecker(model: Self.version, entity: Self.person).check(text)
        let environment = ExpressionEnvironment(secondsSince1970: 0)
        let interpreted = try ExpressionInterpreter(environment: environment).evaluate(checked, row: Row())
        let context = SourceSQLContext(
            layout: StoreLayout(version: Self.version), entity: Self.person, tables: TableReferences(schema: "main"),
            alias: "s")
        let compiled = ExpressionSQLCompiler(environment: environment).compile(checked, context: context)
        let sql = try connection.scalar("SELECT \(compiled.sql) FROM main.\"Person\" AS s", compiled.parameters)
        #expect(sql == interpreted, "`\(text)`: SQL gives \(String(describing: sql)), the interpreter \(interpreted)")
        return interpreted
    }

    @Test(arguments: [
        ("'x\\'); DROP TABLE \"Book\"; --'", "x'); DROP TABLE \"Book\"; --"),
        ("\"a\\\"; DROP TABLE Book; --\"", "a\"; DROP TABLE Book; --"),
        ("'\\'); DELETE FROM \"Person\"; --'", "'); DELETE FROM \"Person\"; --"),
        ("$source.firstName + '\\'; --' + '\\u{1F600} é ☃'", "Ada'; --😀 é ☃"),
        ("'\\0 NUL inside'", "\u{0} NUL inside"),
    ])
    func stringLiteralsAreDataNotSQL(expression: String, expected: String) throws {
        let connection = try Self.store()
        #expect(try evaluate(expression, on: connection) == .text(expected))
        #expect(try connection.scalar("SELECT count(*) FROM \"Book\"") == .integer(1))
        #expect(try connection.scalar("SELECT count(*) FROM \"Person\"") == .integer(1))
    }

    /// A long generated expression, named shortly in test output.
    struct Deep: Sendable, CustomTestStringConvertible {
        var name: String
        var text: String
        var testDescription: String { name }
    }

    @Test(arguments: [
        Deep(
            name: "10 000 parentheses",
            text: String(repeating: "(", count: 10_000) + "1" + String(repeating: ")", count: 10_000)),
        Deep(name: "100 000 nots", text: String(repeating: "!", count: 100_000) + "true"),
        Deep(name: "100 000 minus signs", text: String(repeating: "-", count: 100_000) + "1"),
        Deep(name: "100 000 additions", text: "1" + String(repeating: " + 1", count: 100_000)),
        Deep(name: "50 000 ??", text: "$source.yearsSinceBirth" + String(repeating: " ?? 1", count: 50_000)),
        Deep(
            name: "20 000 nested conditionals",
            text: String(repeating: "true ? ", count: 20_000) + "1" + String(repeating: " : 2", count: 20_000)),
        Deep(
            name: "5 000 nested calls",
            text: String(repeating: "lowercase(", count: 5_000) + "'a'" + String(repeating: ")", count: 5_000)),
    ])
    func deepExpressionsAreAnErrorNotACrash(deep: Deep) throws {
        let error = #expect(throws: ExpressionDiagnostic.self) {
            _ = try ExpressionTypeChecker(model: Self.version, entity: Self.person).check(deep.text)
        }
        #expect(
            error?.message.contains("deep") == true || error?.message.contains("nest") == true,
            "\(error?.message ?? "")")
    }

    /// Below the limit, the same constructs are fine (`??` chains used to overflow the stack at any length).
    @Test func chainsBelowTheLimitAreValues() throws {
        let checker = ExpressionTypeChecker(model: Self.version, entity: Self.person)
        _ = try checker.check("$source.email" + String(repeating: " ?? $source.email", count: 150) + " ?? 'none'")
        _ = try checker.check("1" + String(repeating: " + 1", count: 150))
        let connection = try Self.store()
        #expect(
            try evaluate(
                "$source.email" + String(repeating: " ?? $source.email", count: 12) + " ?? 'none'", on: connection)
                == .text("none"))
        #expect(try evaluate("1" + String(repeating: " + 1", count: 12), on: connection) == .integer(13))
    }

    /// Known issue (docs/RELIABILITY.md): SQLite's parser stack (100 entries) is shallower than
    /// the expression depth limit (200 levels), so about 20 nested `??`, calls or additions (`a + b + c …`) type-check but the
    /// compiled SQL is refused when the migration prepares it ("parser stack overflow"); the
    /// migration then fails cleanly, the store untouched, but not with a diagnostic at load time.
    /// SQLite's parser allows far fewer nested operations than the expression parser: running such an
    /// expression fails with a clear SQLite error (never a crash), and `MappingChecker` reports it when
    /// the mapping is loaded or validated (see `ProjectValidationTests`), before any store is touched.
    @Test func nestingThatSQLiteCannotParse() throws {
        let connection = try Self.store()
        for text in [
            "$source.email" + String(repeating: " ?? $source.email", count: 30) + " ?? 'none'",
            "1" + String(repeating: " + 1", count: 40),
        ] {
            let error = #expect(throws: RemodelError.self) { _ = try evaluate(text, on: connection) }
            #expect(error?.message.contains("parser stack overflow") == true)
        }
    }

    @Test func veryLongStringsAreValues() throws {
        let connection = try Self.store()
        let long = String(repeating: "a'\"; ", count: 200_000)
        let literal =
            "'" + long.replacingOccurrences(of: "'", with: "\\'").replacingOccurrences(of: "\"", with: "\\\"") + "'"
        #expect(try evaluate("length(\(literal))", on: connection) == .integer(Int64(long.unicodeScalars.count)))
        #expect(try evaluate(literal + " + $source.firstName", on: connection) == .text(long + "Ada"))
    }

    @Test(arguments: [
        ("1 / 0", SQLiteValue.null), ("1 % 0", .null), ("1.0 / 0.0", .null), ("0.0 / 0.0", .null), ("1.5 % 0.0", .null),
        ("9223372036854775807 + 1", .null), ("-9223372036854775807 - 2", .null), ("9223372036854775807 * 2", .null),
        ("-9223372036854775808 / -1", .null), ("-9223372036854775808 % -1", .integer(0)),
        ("-(-9223372036854775808)", .null),
        ("int('99999999999999999999')", .null), ("int(1e300)", .null),
        ("length(substring('abc', 9223372036854775807, 9223372036854775807))", .integer(0)),
        ("substring('abc', -9223372036854775808, 2)", .text("ab")),
        ("$source.yearsSinceBirth / ($source.yearsSinceBirth - 36)", .null),
    ])
    func arithmeticEdgesHaveDefinedValues(expression: String, expected: SQLiteValue) throws {
        #expect(try evaluate(expression, on: try Self.store()) == expected)
    }

    @Test(arguments: [
        "99999999999999999999", "'\\u{110000}'", "'\\u{D800}'", "'\\u{}'", "'unterminated", "'bad \\q escape'",
        "$source.", "$source.@count", "substring('a')", "1 +", ")", "", "\u{0}", "$source.firstName.lastName",
    ])
    func malformedExpressionsAreErrorsWithAPosition(expression: String) throws {
        let error = #expect(throws: ExpressionDiagnostic.self) {
            _ = try ExpressionTypeChecker(model: Self.version, entity: Self.person).check(expression)
        }
        #expect(error?.message.isEmpty == false)
        #expect((error?.range.lowerBound ?? -1) >= 0)
        #expect((error?.range.upperBound ?? .max) <= expression.unicodeScalars.count)
    }
}
