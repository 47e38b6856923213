/// The type of a value expression, one per stored encoding of
/// `docs/STORE-LAYOUT.md`.
package enum ExpressionType: String, Sendable, Hashable, CaseIterable, CustomStringConvertible {
    /// Integer 16/32/64 attributes and integer literals (`INTEGER`).
    case integer = "Integer"
    /// Double and Float attributes and `1.5` literals (`REAL`).
    case double = "Double"
    /// Decimal attributes and `decimal(…)` (`TEXT`, exact digits).
    case decimal = "Decimal"
    /// String attributes and literals (`TEXT`).
    case string = "String"
    /// `true`, `false`, comparisons (`INTEGER` 0 or 1).
    case boolean = "Boolean"
    /// Date attributes and `now()` (`REAL` seconds since 1970).
    case date = "Date"
    /// Binary attributes (`BLOB`).
    case binary = "Binary"
    /// UUID attributes and `uuid()` (`TEXT`, uppercase).
    case uuid = "UUID"
    /// URI attributes (`TEXT`).
    case uri = "URI"
    /// The type of the literal `nil`, which fits any type.
    case `nil` = "nil"

    /// The type's name as messages print it.
    package var description: String { rawValue }

    /// Whether the type is a number.
    package var isNumeric: Bool { self == .integer || self == .double || self == .decimal }

    /// The expression type of an attribute type, `nil` for types expressions cannot read.
    package init?(_ attributeType: AttributeType) {
        switch attributeType {
        case .integer16, .integer32, .integer64: self = .integer
        case .float, .double: self = .double
        case .decimal: self = .decimal
        case .string: self = .string
        case .boolean: self = .boolean
        case .date: self = .date
        case .binary: self = .binary
        case .uuid: self = .uuid
        case .uri: self = .uri
        case .transformable, .undefined, .objectID, .composite: return nil
        }
    }

    /// The wider of two numeric types: integer < decimal < double.
    static func widerNumeric(_ left: ExpressionType, _ right: ExpressionType) -> ExpressionType? {
        guard left.isNumeric, right.isNumeric else { return nil }
        if left == .double || right == .double { return .double }
        if left == .decimal || right == .decimal { return .decimal }
        return .integer
    }
}

/// A type and whether the value can be nil.
package struct ExpressionResultType: Sendable, Hashable, CustomStringConvertible {
    /// The type.
    package var type: ExpressionType
    /// Whether the value can be nil: an optional attribute, a to-one path, a
    /// conversion from text that can fail, or `nil` itself.
    package var isOptional: Bool

    /// Creates a result type.
    package init(_ type: ExpressionType, optional: Bool) {
        self.type = type
        self.isOptional = optional || type == .nil
    }

    /// `Integer` or `Integer?`.
    package var description: String { type == .nil ? "nil" : type.rawValue + (isOptional ? "?" : "") }
}

/// The functions an expression can call.
package enum ExpressionFunction: String, Sendable, Hashable, CaseIterable {
    /// `lowercase(s)`: full Unicode lowercase mapping.
    case lowercase
    /// `uppercase(s)`: full Unicode uppercase mapping.
    case uppercase
    /// `trim(s)`: removes leading and trailing white space.
    case trim
    /// `length(s)`: the number of Unicode scalars.
    case length
    /// `substring(s, start, length)`: 0-based, in Unicode scalars, clipped.
    case substring
    /// `replace(s, find, replacement)`: every occurrence, exact scalars.
    case replace
    /// `int(x)`: converts to Integer.
    case int
    /// `double(x)`: converts to Double.
    case double
    /// `decimal(x)`: converts to Decimal.
    case decimal
    /// `string(x)`: converts to String.
    case string
    /// `now()`: the migration's instant.
    case now
    /// `uuid()`: a new random UUID.
    case uuid
    /// `coalesce(a, b, …)`: the first non-nil argument.
    case coalesce

    /// How the function is written with its parameters, for messages.
    var signature: String {
        switch self {
        case .lowercase, .uppercase, .trim: return "\(rawValue)(string)"
        case .length: return "length(string)"
        case .substring: return "substring(string, start, length)"
        case .replace: return "replace(string, find, replacement)"
        case .int, .double, .decimal, .string: return "\(rawValue)(value)"
        case .now, .uuid: return "\(rawValue)()"
        case .coalesce: return "coalesce(value, value, …)"
        }
    }
}
