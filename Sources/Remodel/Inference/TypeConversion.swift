/// The conversions inference may make on its own: the lossless ones.
enum TypeConversion {
    /// How a value of `source` type becomes a `destination` value, or nil when that is not lossless.
    ///
    /// Returns the expression to apply to `operand` (such as `string($source.code)`).
    static func lossless(from source: AttributeType, to destination: AttributeType, operand: String) -> String? {
        if source == destination { return operand }
        switch (source, destination) {
        case (.integer16, .integer32), (.integer16, .integer64), (.integer32, .integer64):
            return operand
        case (.integer16, .double), (.integer32, .double), (.float, .double):
            return "double(\(operand))"
        case (.integer16, .decimal), (.integer32, .decimal), (.integer64, .decimal):
            return "decimal(\(operand))"
        case (.uri, .string), (.uuid, .string):
            return "string(\(operand))"
        case (_, .string) where isScalar(source):
            return "string(\(operand))"
        default:
            return nil
        }
    }

    /// Types with one value per object that `string()` converts.
    static func isScalar(_ type: AttributeType) -> Bool {
        type.isNumeric || type == .boolean || type == .date || type == .uuid || type == .uri || type == .string
    }

    /// The function a user would write to convert to `destination`, for suggestions.
    static func suggestedConversion(to destination: AttributeType, operand: String) -> String {
        switch destination {
        case .integer16, .integer32, .integer64: return "int(\(operand))"
        case .double, .float: return "double(\(operand))"
        case .decimal: return "decimal(\(operand))"
        case .string: return "string(\(operand))"
        default: return operand
        }
    }

    /// Why a conversion is refused, in a few words.
    static func refusalReason(from source: AttributeType, to destination: AttributeType) -> String {
        if source == .integer64 && destination == .double {
            return "Integer 64 → Double loses precision above 2^53"
        }
        if source.isInteger && destination.isInteger { return "narrowing can overflow" }
        if source.isNumeric && destination.isInteger {
            return "converting \(source.rawValue) to an integer loses the fraction"
        }
        if source == .string { return "text need not be a valid \(destination.rawValue)" }
        return "\(source.rawValue) values do not convert to \(destination.rawValue) without loss"
    }
}
