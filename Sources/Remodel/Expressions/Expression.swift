/// A parsed value expression of a mapping file, such as
/// `$source.firstName + ' ' + $source.lastName`.
///
/// Every node carries its ``range``: 0-based offsets in **Unicode scalars**
/// from the start of the expression text (not bytes, not `Character`s), so a
/// mapping-file reader can add them to the attribute value's position.
///
/// For example:
/// ```swift
/// let expression = try ExpressionParser.parse("$source.age + 1")
/// print(expression.range) // 0..<15
/// ```
package struct Expression: Sendable, Hashable, CustomStringConvertible {
    /// What the node is.
    package indirect enum Kind: Sendable, Hashable {
        /// An integer literal such as `42`.
        case integer(Int64)
        /// A floating-point literal such as `1.5` or `2e10`.
        case double(Double)
        /// A string literal, escapes resolved.
        case string(String)
        /// `true` or `false`.
        case boolean(Bool)
        /// `nil`.
        case `nil`
        /// `$source.a.b` (``KeyPath/count`` is `nil`) or `$source.a.b.@count`.
        case keyPath(KeyPath)
        /// A prefix operator applied to an operand.
        case unary(UnaryOperator, Expression)
        /// A binary operator; `operatorRange` is where the operator is written.
        case binary(BinaryOperator, Expression, Expression, operatorRange: Range<Int>)
        /// `condition ? then : else`.
        case conditional(Expression, Expression, Expression)
        /// A function call; `nameRange` is where the function's name is written.
        case call(name: String, nameRange: Range<Int>, arguments: [Expression])
    }

    /// A path from `$source` through relationships to an attribute or `@count`.
    package struct KeyPath: Sendable, Hashable {
        /// One name in the path, with where it is written.
        package struct Component: Sendable, Hashable {
            /// The attribute or relationship name.
            package var name: String
            /// Where the name is written.
            package var range: Range<Int>

            /// Creates a component.
            package init(name: String, range: Range<Int>) {
                self.name = name
                self.range = range
            }
        }

        /// The names after `$source`, in order (at least one).
        package var components: [Component]
        /// Where `@count` is written, when the path ends with it.
        package var count: Range<Int>?

        /// Creates a key path.
        package init(components: [Component], count: Range<Int>? = nil) {
            self.components = components
            self.count = count
        }
    }

    /// A prefix operator.
    package enum UnaryOperator: String, Sendable, Hashable {
        /// `-x`: negation.
        case negate = "-"
        /// `!x`: logical not.
        case not = "!"
    }

    /// A binary operator, with its precedence.
    package enum BinaryOperator: String, Sendable, Hashable, CaseIterable {
        /// `+`: adds numbers, joins strings.
        case add = "+"
        /// `-`
        case subtract = "-"
        /// `*`
        case multiply = "*"
        /// `/`: integer division truncates.
        case divide = "/"
        /// `%`
        case remainder = "%"
        /// `==`
        case equal = "=="
        /// `!=`
        case notEqual = "!="
        /// `<`
        case less = "<"
        /// `<=`
        case lessOrEqual = "<="
        /// `>`
        case greater = ">"
        /// `>=`
        case greaterOrEqual = ">="
        /// `&&`
        case and = "&&"
        /// `||`
        case or = "||"
        /// `??`
        case nilCoalescing = "??"

        /// Higher binds tighter: `* / %` 7, `+ -` 6, `??` 5, comparisons 4, `&&` 3, `||` 2
        /// (the ternary `?:` is 1), as in Swift.
        package var precedence: Int {
            switch self {
            case .multiply, .divide, .remainder: return 7
            case .add, .subtract: return 6
            case .nilCoalescing: return 5
            case .equal, .notEqual, .less, .lessOrEqual, .greater, .greaterOrEqual: return 4
            case .and: return 3
            case .or: return 2
            }
        }

        /// Whether `a op b op c` groups as `a op (b op c)` (only `??`, as in Swift).
        package var isRightAssociative: Bool { self == .nilCoalescing }

        /// Whether the operator compares its operands.
        package var isComparison: Bool { precedence == 4 }
    }

    /// What the node is.
    package var kind: Kind
    /// Where the node is written, in Unicode scalar offsets (parentheses included).
    package var range: Range<Int>

    /// The number of nodes on the longest path down from this one (a literal is 1).
    package let height: Int

    /// Creates a node.
    package init(_ kind: Kind, range: Range<Int>) {
        self.kind = kind
        self.range = range
        switch kind {
        case .integer, .double, .string, .boolean, .nil, .keyPath: height = 1
        case .unary(_, let operand): height = operand.height + 1
        case .binary(_, let left, let right, _): height = max(left.height, right.height) + 1
        case .conditional(let a, let b, let c): height = max(a.height, b.height, c.height) + 1
        case .call(_, _, let arguments): height = (arguments.map(\.height).max() ?? 0) + 1
        }
    }

    /// The expression written back as text, fully parenthesized (for messages and tests).
    package var description: String {
        switch kind {
        case .integer(let value): return String(value)
        case .double(let value): return String(value)
        case .string(let value): return ExpressionLexer.quote(value)
        case .boolean(let value): return value ? "true" : "false"
        case .nil: return "nil"
        case .keyPath(let path):
            return "$source." + path.components.map(\.name).joined(separator: ".")
                + (path.count == nil ? "" : ".@count")
        case .unary(let op, let operand): return op.rawValue + operand.parenthesizedDescription
        case .binary(let op, let left, let right, _):
            return "\(left.parenthesizedDescription) \(op.rawValue) \(right.parenthesizedDescription)"
        case .conditional(let condition, let then, let otherwise):
            return
                "\(condition.parenthesizedDescription) ? \(then.parenthesizedDescription) : \(otherwise.parenthesizedDescription)"
        case .call(let name, _, let arguments):
            return name + "(" + arguments.map(\.description).joined(separator: ", ") + ")"
        }
    }

    private var parenthesizedDescription: String {
        switch kind {
        case .binary, .conditional, .unary: return "(" + description + ")"
        case .integer(let value) where value < 0: return "(" + description + ")"
        case .double(let value) where value.sign == .minus: return "(" + description + ")"
        default: return description
        }
    }
}
