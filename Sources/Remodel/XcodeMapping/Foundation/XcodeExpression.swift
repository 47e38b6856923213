/// An `NSExpression` as an Xcode mapping model holds it (archived in
/// `valueexpressiondata`, or written in a predicate string), read without
/// Foundation's classes. ``XcodeExpressionTranslator`` turns it into a
/// Remodel value expression.
///
/// ``range`` is where the node is written in a predicate string (0-based
/// Unicode-scalar offsets), `nil` for archived expressions.
struct XcodeExpression: Sendable, Hashable, CustomStringConvertible {
    indirect enum Kind: Sendable, Hashable {
        /// A constant (`NSConstantValueExpression`).
        case constant(XcodeConstant)
        /// `SELF` (`NSSelfExpression`): the object a predicate is evaluated on.
        case evaluatedObject
        /// A variable without its `$` (`NSVariableExpression`): `source`, `manager`, `entityPolicy`.
        case variable(String)
        /// `operand.path` (`NSKeyPathExpression`, or `FUNCTION(operand, "valueForKeyPath:", "path")`).
        case keyPath(XcodeExpression, String)
        /// `FUNCTION(operand, "selector", arguments…)`; a built-in function (`add:to:`, `lowercase:`, `now`) has no operand.
        case function(operand: XcodeExpression?, selector: String, arguments: [XcodeExpression])
        /// `{a, b}` (`NSAggregateExpression`).
        case aggregate([XcodeExpression])
        /// `TERNARY(predicate, a, b)` (`NSTernaryExpression`).
        case ternary(XcodePredicate, XcodeExpression, XcodeExpression)
        /// An expression Remodel does not read (subquery, block, set operation…), by its class or form.
        case unsupported(String)
    }

    var kind: Kind
    var range: Range<Int>?

    init(_ kind: Kind, range: Range<Int>? = nil) {
        self.kind = kind
        self.range = range
    }

    /// The expression in `NSExpression` format syntax, as Xcode's mapping editor shows it.
    var description: String {
        switch kind {
        case .constant(let constant): return constant.description
        case .evaluatedObject: return "SELF"
        case .variable(let name): return "$" + name
        case .keyPath(let operand, let path):
            if case .evaluatedObject = operand.kind { return path }
            return "\(operand).\(path)"
        case .function(let operand, let selector, let arguments):
            let list = arguments.map(\.description)
            if let operand {
                return "FUNCTION("
                    + ([operand.description, XcodeConstant.string(selector).description] + list).joined(separator: ", ")
                    + ")"
            }
            if let symbol = XcodeExpression.infixOperators[selector], list.count == 2 {
                return "(\(list[0]) \(symbol) \(list[1]))"
            }
            let name = selector.split(separator: ":").first.map(String.init) ?? selector
            return "\(name)(\(list.joined(separator: ", ")))"
        case .aggregate(let elements): return "{" + elements.map(\.description).joined(separator: ", ") + "}"
        case .ternary(let predicate, let then, let otherwise): return "TERNARY(\(predicate), \(then), \(otherwise))"
        case .unsupported(let form): return "<\(form)>"
        }
    }

    /// The built-in functions written as operators in format strings.
    static let infixOperators = [
        "add:to:": "+", "from:subtract:": "-", "multiply:by:": "*", "divide:by:": "/", "modulus:by:": "%",
    ]
}

/// A constant of an `NSExpression`.
enum XcodeConstant: Sendable, Hashable, CustomStringConvertible {
    case string(String)
    case integer(Int64)
    case real(Double)
    case bool(Bool)
    /// Seconds since 2001-01-01 UTC (an `NSDate`).
    case date(Double)
    case data([UInt8])
    case null

    var description: String {
        switch self {
        case .string(let text): return JSONDocument.quoted(text)
        case .integer(let value): return String(value)
        case .real(let value): return String(value)
        case .bool(let value): return value ? "YES" : "NO"
        case .date(let seconds): return "CAST(\(seconds), \"NSDate\")"
        case .data(let bytes): return "<\(bytes.count) bytes of data>"
        case .null: return "nil"
        }
    }
}

/// An `NSPredicate`: read from a format string (an entity mapping's filter) or
/// archived inside a `TERNARY` expression.
struct XcodePredicate: Sendable, Hashable, CustomStringConvertible {
    indirect enum Kind: Sendable, Hashable {
        /// `TRUEPREDICATE` / `FALSEPREDICATE`.
        case constant(Bool)
        /// `left op right`, with `ANY`/`ALL` (``XcodeComparison/Modifier``) and options such as `[c]`.
        case comparison(
            XcodeExpression, XcodeComparison, XcodeExpression, modifier: XcodeComparison.Modifier, options: String)
        case and([XcodePredicate])
        case or([XcodePredicate])
        case not(XcodePredicate)
        /// A predicate Remodel does not read, by its class or form.
        case unsupported(String)
    }

    var kind: Kind
    var range: Range<Int>?

    init(_ kind: Kind, range: Range<Int>? = nil) {
        self.kind = kind
        self.range = range
    }

    var description: String {
        switch kind {
        case .constant(let value): return value ? "TRUEPREDICATE" : "FALSEPREDICATE"
        case .comparison(let left, let comparison, let right, let modifier, let options):
            let prefix = modifier == .direct ? "" : modifier.rawValue + " "
            return "\(prefix)\(left) \(comparison.symbol)\(options.isEmpty ? "" : "[\(options)]") \(right)"
        case .and(let parts): return "(" + parts.map(\.description).joined(separator: " AND ") + ")"
        case .or(let parts): return "(" + parts.map(\.description).joined(separator: " OR ") + ")"
        case .not(let inner): return "NOT \(inner)"
        case .unsupported(let form): return "<\(form)>"
        }
    }
}

/// `NSPredicateOperatorType`, with the raw values archives store in `NSOperatorType`.
enum XcodeComparison: Int, Sendable, Hashable {
    case lessThan = 0, lessThanOrEqual = 1, greaterThan = 2, greaterThanOrEqual = 3, equal = 4, notEqual = 5
    case matches = 6, like = 7, beginsWith = 8, endsWith = 9, `in` = 10, customSelector = 11, contains = 99, between =
        100

    /// `NSComparisonPredicateModifier` (`NSModifier`).
    enum Modifier: String, Sendable, Hashable {
        case direct = "", all = "ALL", any = "ANY"
    }

    var symbol: String {
        switch self {
        case .lessThan: return "<"
        case .lessThanOrEqual: return "<="
        case .greaterThan: return ">"
        case .greaterThanOrEqual: return ">="
        case .equal: return "=="
        case .notEqual: return "!="
        case .matches: return "MATCHES"
        case .like: return "LIKE"
        case .beginsWith: return "BEGINSWITH"
        case .endsWith: return "ENDSWITH"
        case .in: return "IN"
        case .customSelector: return "<custom selector>"
        case .contains: return "CONTAINS"
        case .between: return "BETWEEN"
        }
    }
}
