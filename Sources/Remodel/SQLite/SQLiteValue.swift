public import Foundation

/// A value as SQLite stores it: one of its five storage classes.
public enum SQLiteValue: Sendable, Hashable, CustomStringConvertible {
    case null
    case integer(Int64)
    case real(Double)
    case text(String)
    case blob(Data)

    public var description: String {
        switch self {
        case .null: return "NULL"
        case .integer(let value): return String(value)
        case .real(let value): return String(value)
        case .text(let value): return "'" + value.replacingOccurrences(of: "'", with: "''") + "'"
        case .blob(let value): return "X'" + value.map { String(format: "%02X", $0) }.joined() + "'"
        }
    }

    /// Whether the value is `NULL`.
    public var isNull: Bool { if case .null = self { return true } else { return false } }
}

extension SQLiteValue {
    /// The integer, if the value is one.
    public var integerValue: Int64? {
        if case .integer(let value) = self { return value }
        return nil
    }
}
