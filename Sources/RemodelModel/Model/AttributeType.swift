/// The type of an attribute, spelled as Xcode writes it in `attributeType`.
public enum AttributeType: String, Sendable, Hashable, CaseIterable, Codable {
    case integer16 = "Integer 16"
    case integer32 = "Integer 32"
    case integer64 = "Integer 64"
    case decimal = "Decimal"
    case double = "Double"
    case float = "Float"
    case string = "String"
    case boolean = "Boolean"
    case date = "Date"
    case binary = "Binary"
    case uuid = "UUID"
    case uri = "URI"
    case transformable = "Transformable"
    /// Xcode's type for transient attributes with no storage.
    case undefined = "Undefined"
    /// An object ID attribute (Core Data's `NSObjectIDAttributeType`), stored as the `_pk` it names.
    case objectID = "ObjectID"
    /// A composite attribute (Xcode 15), whose members are listed in a `<composite>` element.
    case composite = "Composite"

    /// Whether values are whole numbers.
    public var isInteger: Bool { self == .integer16 || self == .integer32 || self == .integer64 }

    /// Whether values are numbers of any kind.
    public var isNumeric: Bool { isInteger || self == .double || self == .float || self == .decimal }

    /// The smallest and largest value an integer type holds.
    public var integerRange: ClosedRange<Int64>? {
        switch self {
        case .integer16: return Int64(Int16.min)...Int64(Int16.max)
        case .integer32: return Int64(Int32.min)...Int64(Int32.max)
        case .integer64: return Int64.min...Int64.max
        default: return nil
        }
    }
}
