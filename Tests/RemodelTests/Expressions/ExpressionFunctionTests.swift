import Foundation
import Testing

@testable import Remodel
@testable import RemodelModel

/// Edge cases of each operator and function, run through both back ends.
struct ExpressionFunctionTests {
    /// Evaluates `text` for a Person row with `values` in the interpreter and in SQL,
    /// requires both to agree, and returns the value.
    func both(_ text: String, _ values: [String: SQLiteValue] = [:]) throws -> SQLiteValue {
        let connection = try SQLiteConnection(path: ":memory:")
        try ExpressionFunctions.register(on: connection)
        try LibraryFixture.createTables(on: connection)
        let columns = values.keys.sorted()
        try connection.run(
            "INSERT INTO \"Person\" (_pk, _entity\(columns.map { ", " + quoteIdentifier($0) }.joined())) VALUES (1, 'Person'\(String(repeating: ", ?", count: columns.count)))",
            columns.compactMap { values[$0] })
        let rows = try LibraryRows(connection: connection)
        let environment = ExpressionEnvironment(secondsSince1970: 1_000)
        let checked = try LibraryFixture.checker.check(text)
        let interpreted = try ExpressionInterpreter(environment: environment).evaluate(checked, row: rows.row(1))
        let compiled = ExpressionSQLCompiler(environment: environment).compile(checked, context: LibrarySQLContext())
        let sql =
            try connection.scalar("SELECT \(compiled.sql) FROM \"Person\" AS \"t0\"", compiled.parameters) ?? .null
        #expect(identical(interpreted, sql), "\(text): interpreter \(show(interpreted)), SQL \(show(sql))")
        return interpreted
    }

    @Test func integerArithmetic() throws {
        #expect(try both("7 / 2") == .integer(3))
        #expect(try both("-7 / 2") == .integer(-3))
        #expect(try both("-7 % 3") == .integer(-1))
        #expect(try both("7 % -3") == .integer(1))
        #expect(try both("1 / 0") == .null)
        #expect(try both("1 % 0") == .null)
        #expect(try both("9223372036854775807 + 1") == .null)
        #expect(try both("-9223372036854775808 - 1") == .null)
        #expect(try both("4611686018427387904 * 2") == .null)
        #expect(try both("-9223372036854775808 / -1") == .null)
        #expect(try both("-9223372036854775808 % -1") == .integer(0))
        #expect(try both("-$source.age", ["age": .integer(.min)]) == .null)
        #expect(try both("$source.age + 1") == .null)
    }

    @Test func doubleArithmetic() throws {
        #expect(try both("1 / 2.0") == .real(0.5))
        #expect(try both("1.0 / 0.0") == .null)
        #expect(try both("1.0 / -0.0") == .null)
        #expect(try both("5.5 % 2") == .real(1.5))
        #expect(try both("-5.5 % 2") == .real(-1.5))
        #expect(try both("1.0 % 0") == .null)
        #expect(try both("1e308 * 10") == .real(.infinity))
        #expect(try both("(1e308 * 10) - (1e308 * 10)") == .null)
        guard case .real(let negativeZero) = try both("-0.0") else { return }
        #expect(negativeZero.sign == .minus)
        #expect(try both("0.1 + 0.2") == .real(0.1 + 0.2))
        #expect(try both("9007199254740993 + 0.0") == .real(9_007_199_254_740_992))
    }

    @Test func decimalArithmeticIsExact() throws {
        #expect(try both("decimal('0.1') + decimal('0.2')") == .text("0.3"))
        #expect(try both("$source.balance * 3", ["balance": .text("1.10")]) == .text("3.3"))
        #expect(try both("decimal('1') / 0") == .null)
        #expect(try both("decimal('1') / 3") == .text("0.33333333333333333333333333333333333333"))
        #expect(try both("$source.balance", ["balance": .text("-12.3400")]) == .text("-12.3400"))
        #expect(try both("$source.balance == decimal('-12.34')", ["balance": .text("-12.3400")]) == .integer(1))
        #expect(try both("decimal('10') > decimal('9')") == .integer(1))
        #expect(try both("decimal('12abc')") == .null)
        #expect(try both("decimal(0.1)") == .text("0.1"))
        #expect(try both("-decimal('1.5')") == .text("-1.5"))
        #expect(try both("decimal('1.5') + 1.5") == .real(3))
    }

    @Test func stringsCompareByUTF8Bytes() throws {
        #expect(try both("'Z' < 'a'") == .integer(1))
        #expect(try both("'é' == 'e\\u{301}'") == .integer(0))
        #expect(try both("'é' > 'z'") == .integer(1))
        #expect(try both("'\\u{FFFF}' < '😀'") == .integer(1))
        #expect(try both("'' < 'a'") == .integer(1))
    }

    @Test func stringFunctionsCountUnicodeScalars() throws {
        #expect(try both("length('e\\u{301}')") == .integer(2))
        #expect(try both("length('👍🏽')") == .integer(2))
        #expect(try both("length('')") == .integer(0))
        #expect(try both("lowercase('ÀÉÎ ΣΑΣ')") == .text("àéî σασ"))  // no final-sigma rule: the mapping is per scalar
        #expect(try both("uppercase('straße ﬁ')") == .text("STRASSE FI"))
        #expect(try both("trim(' \\t\\n\\u{A0}x y\\u{2003} ')") == .text("x y"))
        #expect(try both("substring('héllo', 1, 3)") == .text("éll"))
        #expect(try both("substring('héllo', -5, 2)") == .text("hé"))
        #expect(try both("substring('héllo', 3, 100)") == .text("lo"))
        #expect(try both("substring('héllo', 10, 1)") == .text(""))
        #expect(try both("substring('héllo', 0, -1)") == .text(""))
        #expect(try both("substring('abc', 1, 9223372036854775807)") == .text("bc"))
        #expect(try both("replace('aaa', 'aa', 'b')") == .text("ba"))
        #expect(try both("replace('abc', '', 'x')") == .text("abc"))
        #expect(try both("replace('e\\u{301}', 'é', 'x')") == .text("e\u{301}"))
        #expect(try both("'a' + nil") == .null)
        #expect(try both("lowercase(nil)") == .null)
    }

    @Test func conversions() throws {
        #expect(try both("int('12')") == .integer(12))
        #expect(try both("int('+4')") == .integer(4))
        #expect(try both("int('12abc')") == .null)
        #expect(try both("int(' 12')") == .null)
        #expect(try both("int('9223372036854775808')") == .null)
        #expect(try both("int(-2.9)") == .integer(-2))
        #expect(try both("int(9.3e18)") == .null)
        #expect(try both("int(decimal('-12.99'))") == .integer(-12))
        #expect(try both("int(true)") == .integer(1))
        #expect(try both("double('1e3')") == .real(1000))
        #expect(try both("double('nan')") == .null)
        #expect(try both("double(decimal('0.1'))") == .real(0.1))
        #expect(try both("string(1e20)") == .text("1e+20"))
        #expect(try both("string(1.0)") == .text("1.0"))
        #expect(try both("string(-0.0)") == .text("-0.0"))
        #expect(try both("string(-9223372036854775808)") == .text("-9223372036854775808"))
        #expect(try both("string(false)") == .text("false"))
        #expect(try both("string($source.balance)", ["balance": .text("1.50")]) == .text("1.50"))
        #expect(try both("string($source.birthday)", ["birthday": .real(-0.001)]) == .text("1969-12-31T23:59:59.999Z"))
        #expect(try both("string($source.birthday)", ["birthday": .real(1e15)]) == .null)
        #expect(try both("string(now())") == .text("1970-01-01T00:16:40.000Z"))
    }

    @Test func nilAndLogic() throws {
        #expect(try both("nil ?? 3") == .integer(3))
        #expect(try both("coalesce(nil, nil, 'x')") == .text("x"))
        #expect(try both("coalesce(nil, 1, 2.5)") == .real(1))
        #expect(try both("$source.age == nil") == .integer(1))
        #expect(try both("$source.age != nil", ["age": .integer(0)]) == .integer(1))
        #expect(try both("$source.age == $source.age") == .null)
        #expect(try both("false && $source.active") == .integer(0))
        #expect(try both("true && $source.active") == .null)
        #expect(try both("true || $source.active") == .integer(1))
        #expect(try both("false || $source.active") == .null)
        #expect(try both("!$source.active") == .null)
        #expect(try both("$source.active ? 1 : 2") == .null)
        #expect(try both("$source.active ? 1 : 2", ["active": .integer(0)]) == .integer(2))
        #expect(try both("$source.books.@count") == .integer(0))
        #expect(try both("$source.favoriteBook.author.books.@count") == .null)
        #expect(try both("$source.favoriteBook.title") == .null)
    }

    @Test func nowIsBoundAndUUIDIsRandomButWellFormed() throws {
        #expect(try both("now()") == .real(1_000))
        let compiled = ExpressionSQLCompiler().compile(
            try LibraryFixture.checker.check("uuid()"), context: LibrarySQLContext())
        let connection = try SQLiteConnection(path: ":memory:")
        try ExpressionFunctions.register(on: connection)
        let rows = try connection.rows("SELECT \(compiled.sql), \(compiled.sql)")
        guard case .text(let first) = rows[0][0], case .text(let second) = rows[0][1] else {
            Issue.record("uuid() is not text")
            return
        }
        #expect(first != second)
        #expect(UUID(uuidString: first)?.uuidString == first)
        guard
            case .text(let swift) = try ExpressionInterpreter().evaluate(
                try LibraryFixture.checker.check("uuid()"), row: LibraryRowStub(values: [:]))
        else {
            Issue.record("uuid() is not text")
            return
        }
        #expect(UUID(uuidString: swift)?.uuidString == swift)
    }

    @Test func literalsAreBoundNeverSpliced() throws {
        let checked = try LibraryFixture.checker.check("$source.name + '\\'; DROP TABLE \"Person\"; --' + 'x'")
        let compiled = ExpressionSQLCompiler().compile(checked, context: LibrarySQLContext())
        #expect(compiled.sql == "((\"t0\".\"name\" || ?) || ?)")
        #expect(compiled.parameters == [.text("'; DROP TABLE \"Person\"; --"), .text("x")])
    }

    @Test func wrongStorageClassIsAnErrorNotACrash() throws {
        let checked = try LibraryFixture.checker.check("$source.age + 1")
        #expect(throws: RemodelError.self) {
            try ExpressionInterpreter().evaluate(checked, row: LibraryRowStub(values: ["age": .text("x")]))
        }
    }
}

extension ExpressionFunctionTests {
    @Test func textWithNULCharactersKeepsThem() throws {
        #expect(try both("length('a\\0b')") == .integer(3))
        #expect(try both("uppercase('a\\0b')") == .text("A\0B"))
        #expect(try both("length($source.name)", ["name": .text("x\0y")]) == .integer(3))
    }
}

extension ExpressionFunctionTests {
    /// SQLite stores an integral REAL as an integer, so a stored -0.0 reads back as 0.0;
    /// the interpreter's rows come from the store and agree.
    @Test func storedNegativeZeroReadsBackPositive() throws {
        guard case .real(let value) = try both("$source.score", ["score": .real(-0.0)]) else {
            Issue.record("not a REAL")
            return
        }
        #expect(value.sign == .plus)
    }
}
