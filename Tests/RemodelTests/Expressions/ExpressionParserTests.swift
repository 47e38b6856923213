import Testing

@testable import Remodel
@testable import RemodelModel

struct ExpressionParserTests {
    func error(_ text: String) -> ExpressionDiagnostic? {
        do {
            _ = try ExpressionParser.parse(text)
            return nil
        } catch {
            return error
        }
    }

    @Test func parsesWithPrecedenceLikeSwift() throws {
        #expect(try ExpressionParser.parse("1 + 2 * 3 - 4").description == "(1 + (2 * 3)) - 4")
        #expect(
            try ExpressionParser.parse("a ?? 1 + 2".replacingOccurrences(of: "a", with: "$source.a")).description
                == "$source.a ?? (1 + 2)")
        #expect(
            try ExpressionParser.parse("$source.a ?? $source.b ?? 3").description == "$source.a ?? ($source.b ?? 3)")
        #expect(
            try ExpressionParser.parse("1 < 2 && 3 >= 4 || !true").description == "((1 < 2) && (3 >= 4)) || (!true)")
        #expect(try ExpressionParser.parse("true ? 1 : false ? 2 : 3").description == "true ? 1 : (false ? 2 : 3)")
        #expect(try ExpressionParser.parse("-2 * -$source.x").description == "(-2) * (-$source.x)")
        #expect(try ExpressionParser.parse("(1 + 2) * 3").description == "(1 + 2) * 3")
        #expect(try ExpressionParser.parse("$source.books.@count > 0").description == "$source.books.@count > 0")
    }

    @Test func literals() throws {
        #expect(try ExpressionParser.parse("-9223372036854775808").kind == .integer(.min))
        #expect(try ExpressionParser.parse("9223372036854775807").kind == .integer(.max))
        #expect(try ExpressionParser.parse("1.5e3").kind == .double(1500))
        #expect(try ExpressionParser.parse("2E-2").kind == .double(0.02))
        #expect(try ExpressionParser.parse("'it\\'s'").kind == .string("it's"))
        #expect(try ExpressionParser.parse("\"a\\\"b\\\\c\\n\\t\\u{1F600}\"").kind == .string("a\"b\\c\n\t😀"))
        #expect(try ExpressionParser.parse("nil").kind == .nil)
        #expect(try ExpressionParser.parse("true").kind == .boolean(true))
    }

    @Test func rangesAreUnicodeScalarOffsets() throws {
        let expression = try ExpressionParser.parse("'é😀' + $source.name")
        guard case .binary(_, let left, let right, let op) = expression.kind else {
            Issue.record("not a binary expression")
            return
        }
        #expect(left.range == 0..<4)
        #expect(op == 5..<6)
        #expect(right.range == 7..<19)
        #expect(expression.range == 0..<19)
        guard case .keyPath(let path) = right.kind else { return }
        #expect(path.components.map(\.range) == [15..<19])
        #expect(try ExpressionParser.parse(" ( 1 ) ").range == 1..<6)
    }

    @Test func messagesSayWhatAndWhere() {
        let cases: [(String, String, Range<Int>)] = [
            ("$source.a +", "expected an expression after '+'", 11..<11),
            ("$source.a + )", "expected an expression after '+'", 12..<12),
            ("'abc", "unterminated string literal", 0..<4),
            ("\"abc\\", "unterminated string literal", 0..<5),
            ("lower($source.a)", "unknown function 'lower'; did you mean 'lowercase'?", 0..<5),
            ("uppercse('a')", "unknown function 'uppercse'; did you mean 'uppercase'?", 0..<8),
            ("frobnicate(1)", "unknown function 'frobnicate'", 0..<10),
            ("(1 + 2", "expected ')' to close '(' at column 1", 6..<6),
            ("1 + (2 * (3 - 4)", "expected ')' to close '(' at column 5", 16..<16),
            ("length('a'", "expected ')' to close '(' at column 7", 10..<10),
            ("", "expected an expression", 0..<0),
            ("1 2", "unexpected '2' after the expression", 2..<3),
            ("1 )", "unexpected ')' without a matching '('", 2..<3),
            ("$source", "expected '.' and an attribute name after '$source'", 7..<7),
            ("$target.a", "unknown variable '$target'; only '$source' is available", 0..<7),
            ("$source.books.@sum", "unknown key path operator '@sum'; only '@count' is supported", 14..<18),
            (
                "$source.@count", "'@count' needs a to-many relationship before it: '$source.relationship.@count'",
                8..<14
            ),
            ("$source.books.@count.x", "'@count' must end the key path", 20..<21),
            ("name", "unexpected name 'name'; attributes are written '$source.name'", 0..<4),
            ("1 = 2", "unexpected '='; compare with '=='", 2..<3),
            ("true & false", "unexpected '&'; write '&&' for 'and'", 5..<6),
            ("1 < 2 < 3", "comparisons cannot be chained: '<' then '<'; combine them with '&&'", 6..<7),
            (
                "99999999999999999999",
                "integer literal 99999999999999999999 does not fit in 64 bits; write 99999999999999999999.0 for a Double or decimal('99999999999999999999') for a Decimal",
                0..<20
            ),
            (
                "-9223372036854775809",
                "integer literal -9223372036854775809 does not fit in 64 bits; write -9223372036854775809.0 for a Double or decimal('-9223372036854775809') for a Decimal",
                0..<20
            ),
            ("1e999", "number literal 1e999 is too large for a Double", 0..<5),
            ("12abc", "invalid number literal; a number cannot be followed by letters", 0..<5),
            ("'\\q'", "unknown escape '\\q'; use \\\\ \\' \\\" \\n \\t \\r \\0 or \\u{…}", 1..<3),
            ("'\\u{110000}'", "invalid Unicode scalar '\\u{110000}'", 1..<11),
            ("true ? 1", "expected ':' after the first branch of '?' at column 6", 8..<8),
            ("1 # 2", "unexpected character '#'", 2..<3),
            ("coalesce(1, )", "expected an expression after ','", 12..<12),
        ]
        for (text, message, range) in cases {
            let diagnostic = error(text)
            #expect(diagnostic?.message == message, "\(text)")
            #expect(diagnostic?.range == range, "\(text)")
            #expect(diagnostic?.rule.rawValue == "expression-syntax", "\(text)")
        }
    }

    @Test func deepNestingIsAnErrorNotACrash() {
        let parentheses = String(repeating: "(", count: 100_000) + "1" + String(repeating: ")", count: 100_000)
        #expect(error(parentheses)?.message == "expression is nested too deeply (more than 200 levels)")
        let negations = String(repeating: "!", count: 10_000) + "true"
        #expect(error(negations)?.message == "expression is nested too deeply (more than 200 levels)")
        let chain = Array(repeating: "1", count: 5_000).joined(separator: " + ")
        #expect(error(chain)?.message == "expression is nested too deeply (more than 200 levels)")
        let fine = Array(repeating: "1", count: 150).joined(separator: " + ")
        #expect(error(fine) == nil)
    }

    @Test func diagnosticPrintsItsColumn() {
        #expect(error("1 +")?.description == "column 4: error: expected an expression after '+' [expression-syntax]")
    }
}
