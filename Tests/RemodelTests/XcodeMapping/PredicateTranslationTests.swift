import Foundation
import Testing

@testable import Remodel
@testable import RemodelModel

/// `NSPredicate` format strings (an entity mapping's filter) translated into Remodel Boolean
/// expressions over the library fixture's Person (`age`, `name`, `active` optional; `nickname` required).
struct PredicateTranslationTests {
    private static func translate(_ text: String) throws -> String {
        let predicate = try XcodePredicateParser.parse(text)
        let translator = XcodePredicateTranslator(
            expressions: XcodeExpressionTranslator(checker: LibraryFixture.checker))
        return try translator.translate(predicate).text
    }

    static let translated: [(String, String)] = [
        ("age >= 18", "(($source.age >= 18) ?? false)"),
        (#"nickname == "Ada""#, "$source.nickname == 'Ada'"),
        ("name == nil", "$source.name == nil"),
        ("name != NULL", "!($source.name == nil)"),
        ("active == YES AND NOT (age < 5)", "((($source.active == true) ?? false) && !((($source.age < 5) ?? false)))"),
        ("active = no || nickname <> 'x'", "((($source.active == false) ?? false) || !($source.nickname == 'x'))"),
        ("SELF.age = 3", "(($source.age == 3) ?? false)"),
        ("$source.age =< 3", "(($source.age <= 3) ?? false)"),
        ("age IN {1, 2}", "((($source.age == 1) ?? false) || (($source.age == 2) ?? false))"),
        ("age BETWEEN {1, 10}", "((($source.age >= 1) ?? false) && (($source.age <= 10) ?? false))"),
        ("TRUEPREDICATE", "true"),
        ("books.@count > 0", "$source.books.@count > 0"),
        ("(age + 1) * 2 > 10", "(((($source.age + 1) * 2) > 10) ?? false)"),
        ("-age < -1.5", "(((0 - $source.age) < -1.5) ?? false)"),
        ("name == nickname", "(($source.name == $source.nickname) ?? false)"),
        (
            "name == favoriteBook.title",
            "(($source.name == $source.favoriteBook.title) ?? ($source.name == nil && $source.favoriteBook.title == nil))"
        ),
        ("lowercase(name) == 'ada'", "((lowercase($source.name) == 'ada') ?? false)"),
        ("FUNCTION(name, 'uppercaseString') == 'ADA'", "((uppercase($source.name) == 'ADA') ?? false)"),
        (
            "TERNARY(active == YES, age, 0) > 1",
            "((((($source.active == true) ?? false) ? $source.age : 0) > 1) ?? false)"
        ),
    ]

    @Test(arguments: translated)
    func commonFormsTranslate(predicate: String, expected: String) throws {
        let text = try Self.translate(predicate)
        #expect(text == expected)
        let checked = try LibraryFixture.checker.check(text)
        #expect(checked.resultType.type == .boolean)
    }

    /// What is refused names the reason, and points at the part of the predicate at fault.
    static let refused: [(String, String, String)] = [
        (
            "age > 1 AND name BEGINSWITH 'A'", "the operator BEGINSWITH has no Remodel translation",
            "name BEGINSWITH 'A'"
        ),
        ("name ==[c] 'ada'", "the options [c] (case or diacritic insensitive)", "name ==[c] 'ada'"),
        ("ANY books.title == 'x'", "ANY compares every object of a to-many relationship", "ANY books.title == 'x'"),
        ("name == %@", "'%@' is a substitution", "%@"),
        ("age >", "expected a key path, a constant or a function, found the end of the predicate", ""),
        ("age > 1 AND", "expected a key path, a constant or a function, found the end of the predicate", ""),
        ("SUBQUERY(books, $b, $b.pages > 1).@count > 0", "SUBQUERY is not read by Remodel", "SUBQUERY"),
        ("name LIKE 'a*'", "the operator LIKE has no Remodel translation", "name LIKE 'a*'"),
        ("age > 1 garbage", "expected AND, OR or the end of the predicate, found 'garbage'", "garbage"),
        ("name == 'open", "the string is not closed with '", "'open"),
        ("books.@avg.pages > 1", "the collection operator @avg has no Remodel translation", "books.@avg.pages"),
        ("birthday > CAST(0, 'NSDate')", "CAST is not read by Remodel", "CAST"),
    ]

    @Test(arguments: refused)
    func theRestIsRefusedWithWhere(predicate: String, message: String, at fault: String) throws {
        var reason = ""
        var range: Range<Int>?
        do {
            _ = try Self.translate(predicate)
        } catch let failure as XcodePredicateLexer.Failure {
            (reason, range) = (failure.message, failure.range)
        } catch let refusal as TranslationRefusal {
            (reason, range) = (refusal.message, refusal.range)
        }
        #expect(reason.hasPrefix(message), "\(reason)")
        let scalars = Array(predicate.unicodeScalars)
        let shown = range.map { String(String.UnicodeScalarView(scalars[$0.clamped(to: 0..<scalars.count)])) }
        #expect(shown == fault)
    }

    /// `NSPredicate` compares nil as false (and `nil == nil` as true), so `NOT` and `!=` keep objects
    /// whose value is nil; the translation gives the same on data, where Remodel's own `==` would give nil.
    @Test func nilComparesAsNSPredicateDoes() throws {
        let interpreter = ExpressionInterpreter()
        func evaluate(_ predicate: String, _ values: [String: SQLiteValue]) throws -> SQLiteValue {
            let checked = try LibraryFixture.checker.check(try Self.translate(predicate))
            return try interpreter.evaluate(checked, row: DictionaryRow(values: values))
        }
        let noAge: [String: SQLiteValue] = ["age": .null, "name": .null, "nickname": .text("x")]
        #expect(try evaluate("NOT (age == 1)", noAge) == .integer(1))
        #expect(try evaluate("age != 1", noAge) == .integer(1))
        #expect(try evaluate("age < 5", noAge) == .integer(0))
        #expect(try evaluate("age < 5 OR nickname == 'x'", noAge) == .integer(1))
        #expect(try evaluate("NOT (age < 5)", noAge) == .integer(1))
        #expect(try evaluate("name == nil", noAge) == .integer(1))
        let withAge: [String: SQLiteValue] = ["age": .integer(3), "name": .text("Ada"), "nickname": .text("x")]
        #expect(try evaluate("NOT (age == 1)", withAge) == .integer(1))
        #expect(try evaluate("age == 3 AND name != nil", withAge) == .integer(1))
        #expect(try evaluate("age BETWEEN {4, 9}", withAge) == .integer(0))
    }
}
