import Foundation
import Testing

@testable import Remodel
@testable import RemodelModel

/// Numbers as model files write them, held exactly, against Foundation's `Decimal` (the road they replace) wherever
/// `Decimal` holds the number exactly, and against `Double`'s grammar for what is a number at all.
struct WrittenNumberTests {
    private static func randomText(_ random: inout SplitMix64, pieces: [String], length: Int) -> String {
        (0..<(1 + Int(random.next() % UInt64(length)))).map { _ in pieces[Int(random.next() % UInt64(pieces.count))] }
            .joined()
    }

    /// A number is what `Double(_:)` reads from the same characters (digits, signs, a point, an exponent; not `x`,
    /// which starts a hexadecimal number for `Double`).
    @Test func whatIsANumberIsDoublesGrammar() {
        var random = SplitMix64(seed: 11)
        let pieces = ["0", "1", "9", "-", "+", ".", "e", "E", " ", "a", "00", "5"]
        var numbers = 0
        for _ in 0..<20_000 {
            let text = Self.randomText(&random, pieces: pieces, length: 7)
            #expect((WrittenNumber(text) != nil) == (Double(text) != nil), "\(text)")
            if WrittenNumber(text) != nil { numbers += 1 }
        }
        #expect(numbers > 1_000)
    }

    /// Random numbers of up to 30 digits and exponents up to ±40: the order and wholeness Decimal gives them.
    @Test func orderAndWholenessAreDecimals() throws {
        var random = SplitMix64(seed: 12)
        func number() -> String {
            let sign = ["", "-", "+"][Int(random.next() % 3)]
            let whole = Self.randomText(&random, pieces: ["0", "1", "2", "5", "9"], length: 15)
            let fraction =
                random.next() % 2 == 0 ? "" : "." + Self.randomText(&random, pieces: ["0", "3", "9"], length: 15)
            let exponent = random.next() % 3 == 0 ? "e\(Int(random.next() % 81) - 40)" : ""
            return sign + whole + fraction + exponent
        }
        var compared = 0
        for _ in 0..<5_000 {
            let left = number()
            let right = number()
            let mine = try #require(WrittenNumber(left), "\(left)")
            let theirs = try #require(WrittenNumber(right), "\(right)")
            let a = try #require(Decimal(string: left, locale: nil), "\(left)")
            let b = try #require(Decimal(string: right, locale: nil), "\(right)")
            #expect((mine < theirs) == (a < b), "\(left) < \(right)")
            #expect((mine == theirs) == (a == b), "\(left) == \(right)")
            var value = a
            var rounded = Decimal()
            NSDecimalRound(&rounded, &value, 0, .plain)
            #expect(mine.isWhole == (rounded == a), "\(left) whole")
            #expect(Decimal(string: mine.description, locale: nil) == a, "\(left) is \(mine)")
            compared += 1
        }
        #expect(compared == 5_000)
    }

    /// Whole numbers at the ends of the integer types, and numbers no `Decimal` holds.
    @Test func theEdges() throws {
        for value: Int64 in [0, 1, -1, 10, -100, 32_767, -32_768, .max, .min, 1_000_000] {
            #expect(WrittenNumber(value) == WrittenNumber(String(value)), "\(value)")
            #expect(WrittenNumber(value).description == String(value))
        }
        #expect(try #require(WrittenNumber("9223372036854775808")) > WrittenNumber(.max))
        #expect(try #require(WrittenNumber("-9223372036854775809")) < WrittenNumber(.min))
        #expect(try #require(WrittenNumber("1e300")) > WrittenNumber(.max))
        #expect(try #require(WrittenNumber("1e99999999999")) > #require(WrittenNumber("1e300")))
        #expect(try #require(WrittenNumber("1e-99999999999")) < #require(WrittenNumber("1e-300")))
        #expect(try #require(WrittenNumber("1e-99999999999")) > WrittenNumber(0))
        #expect(try #require(WrittenNumber("-0.0e5")) == WrittenNumber(0))
        #expect(try #require(WrittenNumber("32767.5")).isWhole == false)
        #expect(try #require(WrittenNumber("3.2767e4")).isWhole)
    }
}
