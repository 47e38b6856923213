/// The ways diagnostics can be printed.
///
/// For example:
/// ```swift
/// let format = DiagnosticFormat(rawValue: "sarif") ?? .text
/// print(report.formatted(as: format), terminator: "")
/// ```
public enum DiagnosticFormat: String, Sendable, Hashable, CaseIterable {
    /// One `path:line:column: severity: message [rule]` line each, then a summary line.
    case text
    /// An array of objects with `file`, `line`, `column`, `severity`, `rule` and `message`.
    case json
    /// SARIF 2.1.0, as GitHub code scanning and other tools read it.
    case sarif
}
