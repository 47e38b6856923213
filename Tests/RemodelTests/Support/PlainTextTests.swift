import Foundation
import Testing

@testable import Remodel
@testable import RemodelModel

/// The text edits a migration makes without Foundation, against Foundation's (the road they replace).
struct PlainTextTests {
    /// Every Unicode scalar: the white space sets are Foundation's, exactly.
    /// Every message that names several things lists them one way: the ModelDiff lint, the migration report, the
    /// Core Data version tie and the CLI's unreadable inputs all call `listed`.
    @Test func namesAreListedAsASentenceListsThem() {
        #expect([String]().listed() == "")
        #expect(["Gadget"].listed() == "Gadget")
        #expect(["Gadget", "Widget"].listed() == "Gadget and Widget")
        #expect(["a", "b", "c"].listed("or") == "a, b or c")
    }

    @Test func theSpaceSetsAreFoundations() {
        var compared = 0
        for value in UInt32(0)...0x10FFFF {
            guard let scalar = Unicode.Scalar(value) else { continue }
            #expect(PlainText.isSpace(scalar) == CharacterSet.whitespaces.contains(scalar), "U+\(value)")
            #expect(
                PlainText.isSpaceOrNewline(scalar) == CharacterSet.whitespacesAndNewlines.contains(scalar),
                "U+\(value)")
            compared += 1
        }
        #expect(compared == 1_112_064)
    }

    private static let pieces = [
        " ", "\t", "\n", "\r\n", "\u{85}", "\u{A0}", "\u{2028}", "\u{3000}", "\u{200B}", "\u{301}", "a", "é",
        "e\u{301}", "'",
        "\"", "\\", "%@", "%", "@", "😀", "👍🏽", "x",
    ]

    private static func randomTexts(seed: UInt64, count: Int) -> [String] {
        var random = SplitMix64(seed: seed)
        return (0..<count).map { _ in
            (0..<Int(random.next() % 9)).map { _ in pieces[Int(random.next() % UInt64(pieces.count))] }.joined()
        }
    }

    @Test func trimmingIsFoundations() {
        for text in Self.randomTexts(seed: 1, count: 5_000) {
            #expect(text.trimmingSpaces() == text.trimmingCharacters(in: .whitespaces), "\(Array(text.unicodeScalars))")
            #expect(
                text.trimmingSpacesAndNewlines() == text.trimmingCharacters(in: .whitespacesAndNewlines),
                "\(Array(text.unicodeScalars))")
            let sub = text.dropFirst()
            #expect(sub.trimmingSpaces() == sub.trimmingCharacters(in: .whitespaces), "\(Array(sub.unicodeScalars))")
        }
    }

    /// Replacing one character compares whole characters, as Foundation does: a quote a combining mark follows is
    /// another character (the version hash's escaping keeps its value).
    @Test func replacingACharacterIsFoundations() {
        for text in Self.randomTexts(seed: 2, count: 5_000) {
            for (target, replacement) in [("'", "\\'"), ("\"", "\\\""), ("\\", "\\\\"), ("e", "E")] {
                #expect(
                    text.replacingCharacter(Character(target), with: replacement)
                        == text.replacingOccurrences(of: target, with: replacement),
                    "\(Array(text.unicodeScalars)) \(target)")
            }
        }
    }

    /// Replacing by bytes agrees with Foundation wherever no combining mark follows a match, and replaces every
    /// occurrence where one does (SQL and templates mean every one).
    @Test func replacingEveryOccurrenceReplacesEachOne() {
        for text in Self.randomTexts(seed: 3, count: 5_000) {
            for (target, replacement) in [("%@", "\"c\""), ("'", "''"), ("%", ""), ("@%", "%@")] {
                let mine = text.replacingEvery(target, with: replacement)
                if !text.unicodeScalars.contains("\u{301}") && !text.contains("🏽") {
                    #expect(
                        mine == text.replacingOccurrences(of: target, with: replacement),
                        "\(Array(text.unicodeScalars)) \(target)")
                }
                #expect(
                    mine.utf8.count == text.utf8.count + countOccurrences(of: target, in: text)
                        * (replacement.utf8.count - target.utf8.count),
                    "\(Array(text.unicodeScalars)) \(target)")
            }
        }
        #expect("'\u{301}".replacingEvery("'", with: "''") == "''\u{301}")
        #expect(
            "'\u{301}".replacingOccurrences(of: "'", with: "''") == "'\u{301}", "Foundation's, which SQL must not use")
    }

    /// Non-overlapping occurrences from the start, by bytes.
    private func countOccurrences(of target: String, in text: String) -> Int {
        let needle = Array(target.utf8)
        let bytes = Array(text.utf8)
        var count = 0
        var index = 0
        while index + needle.count <= bytes.count {
            if Array(bytes[index..<(index + needle.count)]) == needle {
                count += 1
                index += needle.count
            } else {
                index += 1
            }
        }
        return count
    }
}
