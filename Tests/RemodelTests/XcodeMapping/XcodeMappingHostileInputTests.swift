import Foundation
import Testing

@testable import Remodel
@testable import RemodelModel

/// Damaged and hostile mapping models: every decoder refuses with a message, never crashes, never
/// recurses without bound.
struct XcodeMappingHostileInputTests {
    /// Seeded byte mutations of real archives (an expression and a model snapshot): each decodes or throws.
    @Test func mutatedArchivesDecodeOrThrow() throws {
        var archives = [
            ExpressionArchiver.archive(
                XcodeExpression(
                    .ternary(
                        XcodePredicate(
                            .comparison(
                                XcodeExpression(.keyPath(XcodeExpression(.variable("source")), "age")), .greaterThan,
                                XcodeExpression(.constant(.integer(3))), modifier: .direct, options: "")),
                        XcodeExpression(.constant(.string("a"))), XcodeExpression(.constant(.null)))))
        ]
        archives.append(
            XcodeMappingFixture.archive(ModelSnapshot(entities: ["Item": ["name", "price"], "Tag": ["label"]])))
        var generator = SplitMix64(seed: 15)
        var outcomes = (decoded: 0, refused: 0)
        for archive in archives {
            for _ in 0..<1_500 {
                var bytes = archive
                for _ in 0..<Int.random(in: 1...4, using: &generator) {
                    let index = Int.random(in: 0..<bytes.count, using: &generator)
                    bytes[index] = UInt8.random(in: 0...255, using: &generator)
                }
                if Bool.random(using: &generator) {
                    bytes.removeLast(Int.random(in: 0..<min(40, bytes.count), using: &generator))
                }
                if (try? XcodeExpressionDecoder.expression(fromArchive: bytes)) != nil {
                    outcomes.decoded += 1
                } else {
                    outcomes.refused += 1
                }
                _ = try? ModelSnapshot(archive: bytes)
            }
        }
        #expect(outcomes.decoded > 0 && outcomes.refused > 0)
    }

    /// Nesting deep enough to overflow a stack is refused at a fixed depth.
    @Test func deepNestingIsRefused() throws {
        let parentheses = String(repeating: "(", count: 5_000) + "a == 1" + String(repeating: ")", count: 5_000)
        #expect(throws: XcodePredicateLexer.Failure.self) { try XcodePredicateParser.parse(parentheses) }
        let negations = String(repeating: "NOT ", count: 5_000) + "a == 1"
        #expect(throws: XcodePredicateLexer.Failure.self) { try XcodePredicateParser.parse(negations) }
        let sums = "a == " + String(repeating: "-", count: 5_000) + "b"
        #expect(throws: XcodePredicateLexer.Failure.self) { try XcodePredicateParser.parse(sums) }
        var nested: PropertyListValue = .array([])
        for _ in 0..<1_000 { nested = .array([nested]) }
        #expect(throws: BinaryPropertyList.Failure.self) {
            try BinaryPropertyList.decode(PropertyListWriter.encode(nested))
        }
        // An NSExpression nested 200 levels deep (a keyed archive refers by CF$UID, so depth costs nothing in bytes).
        var expression = XcodeExpression(.keyPath(XcodeExpression(.variable("source")), "age"))
        for _ in 0..<200 {
            expression = XcodeExpression(.function(operand: nil, selector: "abs:", arguments: [expression]))
        }
        #expect(throws: KeyedArchive.Failure.self) {
            try XcodeExpressionDecoder.expression(fromArchive: ExpressionArchiver.archive(expression))
        }
    }

    /// Seeded token soups of the predicate grammar: each parses and translates, or is refused.
    @Test func predicateTokenSoupsParseOrAreRefused() {
        let tokens = [
            "age", "name", "$source", "SELF", ".", "@count", "==", "!=", "<", ">=", "AND", "OR", "NOT", "(", ")", "{",
            "}", ",", "1", "2.5",
            "'x'", "\"y\"", "nil", "YES", "ANY", "IN", "BETWEEN", "BEGINSWITH", "[c]", "+", "-", "*", "/", "FUNCTION",
            "TERNARY", "%@", "#", "\\",
        ]
        var generator = SplitMix64(seed: 16)
        let translator = XcodePredicateTranslator(
            expressions: XcodeExpressionTranslator(checker: LibraryFixture.checker))
        var translated = 0
        for _ in 0..<3_000 {
            let text = (0..<Int.random(in: 1...12, using: &generator)).map { _ in
                tokens.randomElement(using: &generator) ?? ""
            }.joined(separator: " ")
            guard let predicate = try? XcodePredicateParser.parse(text) else { continue }
            if (try? translator.translate(predicate)) != nil { translated += 1 }
        }
        #expect(translated > 0)
    }
}
