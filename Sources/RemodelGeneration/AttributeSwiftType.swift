internal import Foundation
import Remodel

/// How one attribute type is held in Swift and read and written as the store layout encodes it
/// (docs/STORE-LAYOUT.md, "Column types and values"): dates as seconds since 1970, UUIDs as uppercase text,
/// Decimals as text, never GRDB's own encodings of `Date` (text) and `UUID` (16 bytes).
enum AttributeSwiftType {
    /// The Swift type, without optionality.
    static func name(of type: AttributeType) -> String {
        switch type {
        case .integer16: return "Int16"
        case .integer32: return "Int32"
        case .integer64, .objectID: return "Int64"
        case .boolean: return "Bool"
        case .float: return "Float"
        case .double: return "Double"
        case .decimal: return "Decimal"
        case .string, .composite, .undefined: return "String"
        case .date: return "Date"
        case .binary, .transformable: return "Data"
        case .uuid: return "UUID"
        case .uri: return "URL"
        }
    }

    /// The helper of the schema's support that reads a column of this type, when GRDB's own decoding does not read
    /// the layout's encoding (`nil`: `row.decode(atIndex:)` as is).
    static func reader(of type: AttributeType) -> String? {
        switch type {
        case .date: return "date"
        case .decimal: return "decimal"
        case .uuid: return "uuid"
        case .uri: return "url"
        default: return nil
        }
    }

    /// Swift code for the stored value of `value` (a non-optional expression of the attribute's type).
    static func storedExpression(_ value: String, type: AttributeType) -> String {
        switch type {
        case .date: return "\(value).timeIntervalSince1970"
        case .decimal: return "\(value).description"
        case .uuid: return "\(value).uuidString"
        case .uri: return "\(value).absoluteString"
        default: return value
        }
    }

    /// Swift code for the model's default value, or `nil` when the attribute has none (or none Swift can spell
    /// without a failable conversion).
    static func defaultLiteral(of attribute: Attribute) -> String? {
        guard let stored = ModelDefaultValue.stored(for: attribute) else { return nil }
        switch (attribute.type, stored) {
        case (.boolean, .integer(let value)): return value != 0 ? "true" : "false"
        case (.integer16, .integer(let value)) where Int16(exactly: value) != nil: return String(value)
        case (.integer32, .integer(let value)) where Int32(exactly: value) != nil: return String(value)
        case (.integer64, .integer(let value)), (.objectID, .integer(let value)): return String(value)
        case (.double, .real(let value)), (.float, .real(let value)): return numberLiteral(value)
        case (.date, .real(let value)): return "Date(timeIntervalSince1970: \(numberLiteral(value)))"
        case (.string, .text(let text)): return SwiftNames.stringLiteral(text)
        case (.decimal, .text(let text)):
            guard Decimal(string: text, locale: Locale(identifier: "en_US_POSIX")) != nil else { return nil }
            return
                "Decimal(string: \(SwiftNames.stringLiteral(text)), locale: Locale(identifier: \"en_US_POSIX\")) ?? 0"
        default: return nil
        }
    }

    private static func numberLiteral(_ value: Double) -> String {
        if value.isNaN { return ".nan" }
        if value.isInfinite { return value < 0 ? "-.infinity" : ".infinity" }
        return value.description
    }

    /// Whether the model's minimum and maximum bound the value of this type (Boolean's do not).
    static func hasBounds(_ type: AttributeType) -> Bool {
        switch type {
        case .boolean, .uuid, .composite, .undefined, .objectID: return false
        default: return true
        }
    }
}
