import Remodel

/// A regular expression of the subset the seed generator writes strings for:
/// literals, escapes (`\d \w \s \D \W \S`, `\t \n \r`, `\xhh`, `\uhhhh`,
/// `\Q…\E`, escaped punctuation), `.`, classes with ranges and negation,
/// groups (`(…)`, `(?:…)`, `(?<name>…)`), alternation, the quantifiers
/// `* + ? {n} {n,} {n,m}` (lazy and possessive forms too), the anchors
/// `^ $ \A \z \Z`, and the option `(?i)`.
///
/// Everything else (lookaround, backreferences, word boundaries, Unicode
/// properties, atomic groups, class set operations, other options) is refused
/// with a reason naming it, so the generator can say which attribute it could
/// not fill and why.
struct RegexSubset {
    /// A part of the expression.
    indirect enum Node {
        case sequence([Node])
        case alternation([Node])
        /// `lazy` repetitions are written at their minimum: a lazy quantifier takes as little as it can, so
        /// more would not be part of the first match (which the importer's check compares with the whole string).
        case repetition(Node, minimum: Int, maximum: Int?, lazy: Bool)
        case scalar(ScalarSet)
    }

    /// Why a pattern is outside the subset.
    struct Unsupported: Error {
        var reason: String
    }

    let pattern: String
    let root: Node

    /// Parses a pattern.
    /// - Throws: ``Unsupported`` naming the construct that is outside the subset.
    init(_ pattern: String) throws(Unsupported) {
        self.pattern = pattern
        var parser = RegexSubsetParser(Array(pattern.unicodeScalars))
        root = try parser.parseAll()
    }

    /// A string the pattern matches; unbounded quantifiers repeat at most `slack` times more than their minimum.
    func generate(_ random: inout SeedRandom, slack: Int) -> String {
        var scalars = String.UnicodeScalarView()
        Self.append(root, to: &scalars, random: &random, slack: slack)
        return String(scalars)
    }

    private static func append(
        _ node: Node, to output: inout String.UnicodeScalarView, random: inout SeedRandom, slack: Int
    ) {
        switch node {
        case .sequence(let parts):
            for part in parts { append(part, to: &output, random: &random, slack: slack) }
        case .alternation(let branches):
            append(branches[random.index(branches.count)], to: &output, random: &random, slack: slack)
        case .repetition(let inner, let minimum, let maximum, let lazy):
            let upper = lazy ? minimum : maximum ?? (minimum + slack)
            let count = minimum + random.index(upper - minimum + 1)
            for _ in 0..<count { append(inner, to: &output, random: &random, slack: slack) }
        case .scalar(let set):
            output.append(set.pick(&random))
        }
    }
}

/// A set of Unicode scalars as ranges, to pick one from.
struct ScalarSet {
    var ranges: [ClosedRange<UInt32>]

    /// Printable ASCII, the universe `.`, negated classes and `\D \W \S` draw from.
    static let printable = ScalarSet(ranges: [0x20...0x7E])
    static let digits = ScalarSet(ranges: [0x30...0x39])
    static let word = ScalarSet(ranges: [0x30...0x39, 0x41...0x5A, 0x5F...0x5F, 0x61...0x7A])
    static let space = ScalarSet(ranges: [0x09...0x0D, 0x20...0x20])

    init(ranges: [ClosedRange<UInt32>]) {
        self.ranges = ranges
    }

    init(_ scalar: Unicode.Scalar) {
        ranges = [scalar.value...scalar.value]
    }

    var isEmpty: Bool { ranges.isEmpty }

    /// The scalars of printable ASCII that are not in this set.
    var complement: ScalarSet {
        var result: [ClosedRange<UInt32>] = []
        for value in ScalarSet.printable.ranges[0] where !contains(value) {
            if let last = result.last, last.upperBound + 1 == value {
                result[result.count - 1] = last.lowerBound...value
            } else {
                result.append(value...value)
            }
        }
        return ScalarSet(ranges: result)
    }

    func contains(_ value: UInt32) -> Bool { ranges.contains { $0.contains(value) } }

    /// One scalar, each range weighted by its size; surrogate code points are skipped.
    func pick(_ random: inout SeedRandom) -> Unicode.Scalar {
        let total = ranges.reduce(UInt64(0)) { $0 + UInt64($1.count) }
        var offset = random.below(total)
        for range in ranges {
            if offset < UInt64(range.count) {
                return Unicode.Scalar(range.lowerBound + UInt32(offset)) ?? "a"
            }
            offset -= UInt64(range.count)
        }
        return "a"
    }
}
