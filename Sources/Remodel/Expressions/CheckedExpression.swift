/// A type-checked expression, ready for ``ExpressionInterpreter`` and
/// ``ExpressionSQLCompiler``: every operator knows its operand types and
/// every promotion is explicit.
///
/// Make one with ``ExpressionTypeChecker/check(_:)-(Expression)``.
package struct CheckedExpression: Sendable, Hashable {
    /// The parsed expression it was made from.
    package var expression: Expression
    /// The type of its value.
    package var resultType: ExpressionResultType
    /// Warnings found while checking (never errors: those are thrown).
    package var warnings: [ExpressionDiagnostic]
    /// The typed tree both back ends run.
    var node: TypedNode
}

/// Arithmetic operators of the typed tree.
enum ArithmeticOperator: String, Sendable, Hashable {
    case add = "+", subtract = "-", multiply = "*", divide = "/", remainder = "%"
}

/// Comparison operators of the typed tree.
enum ComparisonOperator: String, Sendable, Hashable {
    case equal = "==", notEqual = "!=", less = "<", lessOrEqual = "<=", greater = ">", greaterOrEqual = ">="

    /// The SQL spelling.
    var sql: String {
        switch self {
        case .equal: return "="
        case .notEqual: return "<>"
        default: return rawValue
        }
    }

    /// Whether `order` (-1, 0, 1) satisfies the comparison.
    func holds(_ order: Int) -> Bool {
        switch self {
        case .equal: return order == 0
        case .notEqual: return order != 0
        case .less: return order < 0
        case .lessOrEqual: return order <= 0
        case .greater: return order > 0
        case .greaterOrEqual: return order >= 0
        }
    }
}

/// String functions implemented once in Swift and registered for SQL.
enum StringFunction: String, Sendable, Hashable {
    case lowercase, uppercase, trim, length, substring, replace
}

/// The typed tree. Operands of arithmetic and comparisons already have the
/// operator's type (promotions are ``convert(_:from:to:)`` nodes).
indirect enum TypedNode: Sendable, Hashable {
    /// A literal in its stored encoding.
    case literal(SQLiteValue)
    case attribute(String, path: [String])
    case count(String, path: [String])
    case now
    case randomUUID
    case convert(TypedNode, from: ExpressionType, to: ExpressionType)
    case arithmetic(ArithmeticOperator, ExpressionType, TypedNode, TypedNode)
    case negate(ExpressionType, TypedNode)
    case concatenate(TypedNode, TypedNode)
    case compare(ComparisonOperator, ExpressionType, TypedNode, TypedNode)
    case isNil(TypedNode, negated: Bool)
    case not(TypedNode)
    case and(TypedNode, TypedNode)
    case or(TypedNode, TypedNode)
    case conditional(TypedNode, TypedNode, TypedNode)
    case coalesce([TypedNode])
    case string(StringFunction, [TypedNode])
}
