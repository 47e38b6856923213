internal import Foundation
import RemodelModel

/// How one attribute is held in Swift, read from a row, written to the store and coded: the one place that decides
/// it per attribute kind (docs/STORE-LAYOUT.md, "Column types and values"). Dates are seconds since 1970, UUIDs
/// uppercase text, Decimals text kept as the store holds it, never GRDB's own encodings of `Date` (text) and `UUID`
/// (16 bytes). The writers ask this type and spell nothing of an attribute's kind themselves.
struct AttributeCoding {
    let field: RecordShape.AttributeField
    /// The schema enum, whose helpers read and check values.
    let schema: String

    var type: AttributeType { field.attribute.type }
    var isOptional: Bool { field.isOptional }

    /// The Swift type, without optionality: a composite's struct in the schema enum.
    var swiftType: String {
        field.archivedType ?? field.compositeType.map { "\(schema).\($0)" } ?? Self.swiftType(of: type)
    }

    /// The property's type, optional where the model says.
    var propertyType: String { swiftType + (isOptional ? "?" : "") }

    /// The type of a form kept beside the property, when the value must be written back as the store held it
    /// (a Decimal's text: `12.30` stays `12.30`; an archived value's bytes, as Core Data wrote them), or nil.
    var storedForm: String? {
        if let archived = field.archivedType { return "\(schema).StoredArchive<\(archived)>" }
        return type == .decimal ? "\(schema).StoredDecimal" : nil
    }

    /// The stored property: the property itself, or its stored form `_name`.
    var storage: String { storedForm == nil ? field.swiftName : "_" + field.swiftName }

    /// Whether the records write the attribute: every stored attribute but a derived one, which the store computes
    /// (and whose triggers refuse a write of another value).
    var isWritten: Bool { !field.isDerived }

    /// The Swift type of `storage`, with optionality.
    var storageType: String { (storedForm ?? swiftType) + (isOptional ? "?" : "") }

    /// `storage` from a property value `value` (an expression of `propertyType`).
    func storageValue(_ value: String) -> String {
        guard let storedForm else { return value }
        return isOptional ? "\(value).map(\(storedForm).init)" : "\(storedForm)(\(value))"
    }

    /// The property's value from `storage`.
    var propertyValue: String { storedForm == nil ? storage : "\(storage)\(isOptional ? "?" : "").value" }

    /// Swift code reading the attribute from a row by column index, in `init(row:)`.
    func rowRead(entity: String) -> String {
        let name = SwiftNames.stringLiteral(field.attribute.name)
        let entityLiteral = SwiftNames.stringLiteral(entity)
        let read: String
        if let archived = field.archivedType {
            read =
                "try \(schema).archived(row, \(field.index), \(entityLiteral), \(name), \(archived).self, \(SwiftNames.stringLiteral(archived)))"
        } else if field.compositeType != nil {
            read =
                "try \(schema).CompositeCoding.read(row, \(field.index), \(entityLiteral), \(name), \(swiftType).self)"
        } else if let reader = Self.reader(of: type) {
            read = "try \(schema).\(reader)(row, \(field.index), \(entityLiteral), \(name))"
        } else {
            read = "try row.decode(\(swiftType)?.self, atIndex: \(field.index))"
        }
        return isOptional ? read : "try \(schema).required(\(read), row, \(entityLiteral), \(name))"
    }

    /// Swift code for the value written into the column (from `storage`).
    var columnValue: String {
        if storedForm != nil { return "\(storage)\(isOptional ? "?" : "").stored" }
        if field.compositeType != nil {
            return
                "try \(schema).CompositeCoding.column(\(storage), Self.entityName, id?.rawValue, \(SwiftNames.stringLiteral(field.attribute.name)))"
        }
        let mapped = Self.storedExpression("$0", type: type)
        if mapped == "$0" { return storage }
        return isOptional ? "\(storage).map { \(mapped) }" : Self.storedExpression(storage, type: type)
    }

    /// Swift code decoding `storage` from a keyed container `container` (Codable): GRDB's row decoder reads the
    /// column as the layout encodes it (REAL dates, TEXT UUIDs, the Decimal's text), another decoder the value.
    var decodeStatement: String {
        let key = SwiftNames.stringLiteral(field.column)
        let type = storedForm ?? swiftType
        return isOptional
            ? "\(storage) = try container.decodeIfPresent(\(type).self, forKey: \(key))"
            : "\(storage) = try container.decode(\(type).self, forKey: \(key))"
    }

    /// Swift code encoding the property into a keyed container `container` (Codable).
    var encodeStatement: String {
        let key = SwiftNames.stringLiteral(field.column)
        return isOptional
            ? "try container.encodeIfPresent(\(field.swiftName), forKey: \(key))"
            : "try container.encode(\(field.swiftName), forKey: \(key))"
    }

    /// The Swift type of an attribute type, without optionality.
    static func swiftType(of type: AttributeType) -> String {
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
    private static func reader(of type: AttributeType) -> String? {
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

    /// Whether a value of this type can be one SQLite cannot keep (NaN becomes NULL) or that no export can show
    /// (an infinite date).
    static func checksNaN(_ type: AttributeType) -> Bool {
        type == .double || type == .float || type == .decimal || type == .date
    }
}
