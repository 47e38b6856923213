import Foundation
import Testing

/// What no message of `remodel` may show a user: Remodel's own values and names where a sentence belongs. Every run
/// of the built tool in the suite (``RemodelProcess/run(_:environment:)``) is checked against it, so each CLI test
/// also greps what it made the tool print.
enum InternalValues {
    /// Each kind of leak, by a pattern that finds it.
    static let patterns: [(what: String, pattern: String)] = [
        ("a relationship read from `$source` printed as a key path", #"\$source\.\$source"#),
        ("Int64.min, a sentinel", #"Int64\.min|-9223372036854775808"#),
        ("a Swift value's dump instead of a sentence", #"\bRemodel[A-Za-z]*\.[A-Z][A-Za-z]*\("#),
        ("an Optional's dump", #"Optional\("#),
        (
            "a private folder or file of Remodel's own",
            #"remodel-(wal|rollback|core-data|reads-log|unnamed)\b|/proc/self/fd"#
        ),
    ]

    /// The leaks in `text`: what each is, with the text it matched.
    static func leaks(in text: String) -> [String] {
        patterns.compactMap { what, pattern in
            guard let expression = try? NSRegularExpression(pattern: pattern),
                let match = expression.firstMatch(in: text, range: NSRange(text.startIndex..., in: text)),
                let range = Range(match.range, in: text)
            else { return nil }
            return "\(what): \(text[range])"
        }
    }

    /// Records an issue for each leak in what `remodel arguments…` printed. Standard output of the subcommands that
    /// print a store's data (`export`, `seed`) is data, where any value may be; their standard error is checked.
    static func check(_ arguments: [String], output: String, error: String) {
        let printsData = ["export", "seed"].contains(arguments.first ?? "")
        for leak in leaks(in: (printsData ? "" : output) + error) {
            Issue.record("remodel \(arguments.joined(separator: " ")) printed \(leak)")
        }
    }
}
