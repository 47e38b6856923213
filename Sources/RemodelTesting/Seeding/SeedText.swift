import Remodel

/// Strings for String and URI attributes: words of every day, now and then
/// text that tests an encoding (accents, other scripts, an emoji, quotes,
/// backslashes, control characters), always within the attribute's length
/// bounds, counted in Unicode scalars as the importer counts them.
enum SeedText {
    static let words = [
        "alpha", "river", "stone", "maple", "cedar", "quartz", "harbor", "ember", "violet", "summit", "lumen", "orbit",
        "meadow", "falcon", "copper", "willow",
    ]

    static let unusual = [
        "", "café crème", "naïve façade", "日本語のテキスト", "emoji 👍 inside", "a \"quoted\" word", "back\\slash",
        "line\nbreak", "tab\tstop", "  padded  ", "Ünïcödé", "ελληνικά",
    ]

    /// A random string of `minimum...maximum` scalars (a URI-shaped one for URI attributes).
    static func random(minimum: Int, maximum: Int, uri: Bool, _ random: inout SeedRandom) -> String {
        var text: String
        if uri {
            text = "https://example.com/" + words[random.index(words.count)] + "/" + String(random.below(10_000))
        } else if random.chance(1, in: 8) {
            text = unusual[random.index(unusual.count)]
        } else {
            let count = 1 + random.index(3)
            text = (0..<count).map { _ in words[random.index(words.count)] }.joined(separator: " ")
        }
        return fit(text, minimum: minimum, maximum: maximum)
    }

    /// `text` cut to `maximum` scalars or padded with `x` to `minimum`.
    static func fit(_ text: String, minimum: Int, maximum: Int) -> String {
        if minimum == 0 && maximum == Int.max { return text }
        var scalars = Array(text.unicodeScalars)
        if scalars.count > maximum { scalars.removeLast(scalars.count - maximum) }
        var result = String(String.UnicodeScalarView(scalars))
        if scalars.count < minimum { result += String(repeating: "x", count: minimum - scalars.count) }
        return result
    }

    /// A string the pattern matches that the importer takes (length bounds, and its first-match reading of the
    /// pattern), or nil when several tries found none.
    static func matching(_ regex: RegexSubset, check: SeedValueCheck, _ random: inout SeedRandom) -> String? {
        for attempt in 0..<24 {
            let text = regex.generate(&random, slack: 2 + attempt * 2)
            if check.failure(.text(text)) == nil { return text }
        }
        return nil
    }

    /// The `n`-th of distinct strings (`n` < ``distinctCapacity(minimum:maximum:)``): a word, `-`, then `n` in
    /// base 36 after as many zeros as the minimum length needs. Stripping the zeros after the last `-` gives `n` back.
    static func distinct(_ n: UInt64, minimum: Int, maximum: Int, uri: Bool, word: String) -> String {
        guard maximum > 0 else { return "" }
        let core = String(n, radix: 36)
        let prefix = uri ? "https://example.com/\(word)-" : "\(word)-"
        let head = prefix.count + core.count <= maximum ? prefix : ""
        let zeros = max(0, minimum - head.count - core.count)
        return head + String(repeating: "0", count: zeros) + core
    }

    /// How many distinct strings ``distinct(_:minimum:maximum:uri:word:)`` makes within `maximum` scalars.
    static func distinctCapacity(maximum: Int) -> UInt64 {
        guard maximum > 0 else { return 1 }
        guard maximum < 12 else { return UInt64.max }
        var result: UInt64 = 1
        for _ in 0..<maximum { result *= 36 }
        return result
    }
}
