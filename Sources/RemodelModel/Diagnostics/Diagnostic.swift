/// How serious a diagnostic is.
public enum Severity: String, Sendable, Hashable, Codable, Comparable {
    /// Something that must be fixed before the model or mapping can be used.
    case error
    /// Something that works but is probably a mistake.
    case warning

    public static func < (lhs: Severity, rhs: Severity) -> Bool {
        lhs == .error && rhs == .warning
    }
}

/// One finding about a model or mapping file, printed the way compilers print
/// theirs: `path:line:column: error: message [rule]`.
///
/// For example:
/// ```swift
/// for diagnostic in report.diagnostics {
///     print(diagnostic) // Models/…/contents:12:9: error: … [duplicate-entity]
/// }
/// ```
public struct Diagnostic: Sendable, Hashable, CustomStringConvertible {
    /// Error or warning.
    public var severity: Severity
    /// The stable identifier of the rule that produced it, such as `duplicate-entity`.
    public var rule: String
    /// What is wrong and, where possible, how to fix it.
    public var message: String
    /// Where it is; `nil` only when no file is involved.
    public var location: SourceLocation?

    /// Creates a diagnostic.
    public init(_ severity: Severity, rule: String, message: String, at location: SourceLocation?) {
        self.severity = severity
        self.rule = rule
        self.message = message
        self.location = location
    }

    /// The compiler-style line, `path:line:column: severity: message [rule]`.
    public var description: String {
        let prefix = location.map { "\($0): " } ?? ""
        return "\(prefix)\(severity.rawValue): \(message) [\(rule)]"
    }
}

extension Diagnostic: Comparable {
    /// Orders by file, line and column, then errors before warnings, then rule and message.
    public static func < (lhs: Diagnostic, rhs: Diagnostic) -> Bool {
        let left = lhs.location ?? SourceLocation(file: "", line: 0, column: 0)
        let right = rhs.location ?? SourceLocation(file: "", line: 0, column: 0)
        if left != right { return left < right }
        if lhs.severity != rhs.severity { return lhs.severity < rhs.severity }
        return (lhs.rule, lhs.message) < (rhs.rule, rhs.message)
    }
}

extension Array where Element == Diagnostic {
    /// Whether any diagnostic is an error.
    public var containsErrors: Bool { contains { $0.severity == .error } }
}

extension Diagnostic {
    /// Creates a diagnostic of one of Remodel's rules.
    package init(_ severity: Severity, rule: DiagnosticRule, message: String, at location: SourceLocation?) {
        self.init(severity, rule: rule.rawValue, message: message, at: location)
    }
}
