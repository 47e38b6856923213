import Foundation
import Testing

@testable import Remodel
@testable import RemodelModel
@testable import RemodelTesting

/// The regular-expression subset the seed generator writes strings for: every string it writes matches the
/// pattern (checked with `NSRegularExpression`, as the importer checks), and what it cannot handle is named.
struct RegexSubsetTests {
    static let supported = [
        "[A-Z][a-z]+", "\\d{3}-\\d{4}", "^[a-z0-9._%+-]+@[a-z0-9.-]+\\.[a-z]{2,4}$", "(cat|dog|bird)s?",
        "a{2,}b{0,3}c?",
        "[^aeiou]{5}", "\\w+\\s\\w+", "#[0-9A-Fa-f]{6}", "(?:ab)+", "(?<year>\\d{4})-(?<month>0[1-9]|1[0-2])",
        "\\Qa.b*c\\E", "x*?y+?z??", "\\u00e9t\\x{e9}", "[\\d\\-]+", "(?i)hello", "Regular Expression", "[.]",
        "\\.\\*\\+",
        "\\D\\W\\S", "\\A[ab]\\z", "caf\u{e9}|\u{65e5}\u{672c}", "([a-c]{1,2}|[x-z]{3}){2}", "\\t\\n?",
    ]

    /// Patterns with one string (lazy quantifiers are written at their minimum).
    static let singleValued: Set = [
        "Regular Expression", "[.]", "\\.\\*\\+", "\\Qa.b*c\\E", "\\u00e9t\\x{e9}", "(?i)hello", "x*?y+?z??",
    ]

    @Test(arguments: supported)
    func generatedStringsMatch(_ pattern: String) throws {
        let regex = try RegexSubset(pattern)
        let matcher = try NSRegularExpression(pattern: pattern)
        var random = SeedRandom(7, SeedRandom.hash(pattern))
        var distinct: Set<String> = []
        for _ in 0..<200 {
            let text = regex.generate(&random, slack: 3)
            let range = NSRange(text.startIndex..., in: text)
            #expect(
                matcher.firstMatch(in: text, options: [.anchored], range: range)?.range == range,
                "\(text.debugDescription)")
            distinct.insert(text)
        }
        #expect(distinct.count > 1 || Self.singleValued.contains(pattern), "the strings vary")
    }

    @Test(arguments: [
        ("(?=a)b", "a lookaround \"(?=\""), ("(a)\\1", "a backreference \"\\1\""),
        ("\\bword", "a word boundary \"\\b\""),
        ("\\p{L}+", "a Unicode property \"\\p{…}\""), ("(?>ab)", "an atomic group \"(?>\""),
        ("[[a-z]&&[^b]]", "a nested class or set operation"),
        ("(?x) a", "an inline option or group \"(?x\""), ("*a", "a quantifier \"*\" with nothing to repeat"),
        ("(ab", "an unclosed \"(\""),
    ])
    func patternsOutsideTheSubsetAreNamed(_ pattern: String, _ reason: String) {
        #expect(throws: RegexSubset.Unsupported.self) { try RegexSubset(pattern) }
        do {
            _ = try RegexSubset(pattern)
        } catch {
            #expect(error.reason.hasPrefix(reason), "\(error.reason)")
        }
    }
}
