/// The stored encoding of an attribute's default value as Xcode writes it.
///
/// Parsing is lenient where Xcode is: integers written `0.0`, Booleans
/// written `YES`/`NO`, `1`/`0` or `0.0`, and `NO` on a number (0).
package enum ModelDefaultValue {
    /// The value to store, or nil when the attribute has no default (or one that does not parse).
    package static func stored(for attribute: Attribute) -> SQLiteValue? {
        guard let text = attribute.defaultValue else { return nil }
        return stored(text, as: attribute.type)
    }

    /// Seconds between 1970-01-01 and 2001-01-01, the reference date Xcode writes dates against.
    package static let referenceDateOffset = 978_307_200.0

    package static func stored(_ text: String, as type: AttributeType) -> SQLiteValue? {
        let trimmed = text.trimmingSpaces()
        switch type {
        case .integer16, .integer32, .integer64, .objectID:
            if let flag = boolean(trimmed) { return .integer(flag ? 1 : 0) }
            if let integer = Int64(trimmed) { return .integer(integer) }
            if let number = Double(trimmed), number.rounded() == number, abs(number) < 9.2e18 {
                return .integer(Int64(number))
            }
            return nil
        case .boolean:
            if let flag = boolean(trimmed) { return .integer(flag ? 1 : 0) }
            if let number = Double(trimmed) { return .integer(number != 0 ? 1 : 0) }
            return nil
        case .double, .float:
            return Double(trimmed).map(SQLiteValue.real)
        case .decimal:
            return Double(trimmed) != nil ? .text(trimmed) : nil
        case .string, .uri:
            return .text(text)
        case .date:
            return Double(trimmed).map { .real($0 + referenceDateOffset) }
        case .uuid:
            return .text(trimmed.uppercased())
        case .binary, .transformable, .undefined, .composite:
            return nil
        }
    }

    private static func boolean(_ text: String) -> Bool? {
        switch text.lowercased() {
        case "yes", "true": return true
        case "no", "false": return false
        default: return nil
        }
    }
}
