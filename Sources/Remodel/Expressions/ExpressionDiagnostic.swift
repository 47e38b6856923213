/// A mistake (or a doubtful spot) in a value expression, with where it is.
///
/// The ``range`` is in Unicode scalar offsets from the start of the
/// expression text; the mapping-file reader turns it into `file:line:column`.
///
/// For example:
/// ```swift
/// do {
///     _ = try ExpressionParser.parse("$source.a +")
/// } catch {
///     print(error.message, error.range) // expected an expression after '+' 11..<11
/// }
/// ```
package struct ExpressionDiagnostic: Error, Sendable, Hashable, CustomStringConvertible {
    /// Error or warning.
    package var severity: Severity
    /// The stable rule name: `expression-syntax`, `expression-type` or `expression-optional`.
    package var rule: DiagnosticRule
    /// What is wrong and, where possible, what to write instead.
    package var message: String
    /// Where it is, in Unicode scalar offsets in the expression text.
    package var range: Range<Int>

    /// Creates a diagnostic.
    package init(_ severity: Severity = .error, rule: DiagnosticRule, message: String, range: Range<Int>) {
        self.severity = severity
        self.rule = rule
        self.message = message
        self.range = range
    }

    static func syntax(_ message: String, at range: Range<Int>) -> ExpressionDiagnostic {
        ExpressionDiagnostic(rule: .expressionSyntax, message: message, range: range)
    }

    static func type(_ message: String, at range: Range<Int>) -> ExpressionDiagnostic {
        ExpressionDiagnostic(rule: .expressionType, message: message, range: range)
    }

    /// `column C: severity: message [rule]`, the column 1-based in the expression.
    package var description: String {
        "column \(range.lowerBound + 1): \(severity.rawValue): \(message) [\(rule.rawValue)]"
    }
}

/// The closest candidate to a misspelled name, if it is close enough to be a likely typo.
func closestName(to name: String, in candidates: [String]) -> String? {
    let limit = max(1, name.unicodeScalars.count / 3)
    var best: (name: String, distance: Int)?
    for candidate in candidates {
        let distance = editDistance(name.lowercased(), candidate.lowercased())
        if distance <= limit, distance < (best?.distance ?? Int.max) { best = (candidate, distance) }
    }
    if best == nil {
        // A prefix (`lower` for `lowercase`) is a likely slip too.
        best = candidates.first { $0.lowercased().hasPrefix(name.lowercased()) && name.count >= 3 }.map { ($0, 0) }
    }
    return best?.name
}

/// Edit distance over Unicode scalars, counting a swap of neighbours as one edit
/// (optimal string alignment), so `titel` is one edit from `title`.
func editDistance(_ left: String, _ right: String) -> Int {
    let a = Array(left.unicodeScalars), b = Array(right.unicodeScalars)
    if a.isEmpty { return b.count }
    if b.isEmpty { return a.count }
    var d = [[Int]](repeating: [Int](repeating: 0, count: b.count + 1), count: a.count + 1)
    for i in 0...a.count { d[i][0] = i }
    for j in 0...b.count { d[0][j] = j }
    for i in 1...a.count {
        for j in 1...b.count {
            let cost = a[i - 1] == b[j - 1] ? 0 : 1
            d[i][j] = min(d[i - 1][j] + 1, d[i][j - 1] + 1, d[i - 1][j - 1] + cost)
            if i > 1, j > 1, a[i - 1] == b[j - 2], a[i - 2] == b[j - 1] {
                d[i][j] = min(d[i][j], d[i - 2][j - 2] + 1)
            }
        }
    }
    return d[a.count][b.count]
}
