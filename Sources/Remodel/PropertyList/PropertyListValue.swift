/// One value of a property list, as the binary format (`bplist00`) stores it.
///
/// Keyed archives (`NSKeyedArchiver`) are property lists whose objects refer
/// to each other with ``uid(_:)`` values; ``KeyedArchive`` resolves them.
package enum PropertyListValue: Sendable, Hashable {
    case null
    case bool(Bool)
    case integer(Int64)
    case real(Double)
    /// Seconds since 2001-01-01 00:00:00 UTC.
    case date(Double)
    case data([UInt8])
    case string(String)
    /// A keyed archive's reference to an object in its `$objects`.
    case uid(Int)
    case array([PropertyListValue])
    case dictionary([String: PropertyListValue])

    /// The text, when the value is a string.
    var string: String? {
        if case .string(let text) = self { return text }
        return nil
    }

    /// The integer, when the value is one (a Boolean counts as 0 or 1).
    package var integer: Int64? {
        switch self {
        case .integer(let value): return value
        case .bool(let value): return value ? 1 : 0
        default: return nil
        }
    }

    /// The elements, when the value is an array.
    var array: [PropertyListValue]? {
        if case .array(let elements) = self { return elements }
        return nil
    }

    /// The entries, when the value is a dictionary.
    var dictionary: [String: PropertyListValue]? {
        if case .dictionary(let entries) = self { return entries }
        return nil
    }
}
