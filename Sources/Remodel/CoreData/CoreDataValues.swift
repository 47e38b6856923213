/// How each attribute type is kept in a Core Data store, and the SQL that turns such a value into the
/// value a Remodel store keeps (docs/CORE-DATA-STORES.md, "Values").
enum CoreDataValues {
    /// Seconds from 1970-01-01 to 2001-01-01 UTC: Core Data counts dates from 2001, Remodel from 1970.
    static let referenceDateOffset = 978_307_200.0

    /// The column types Core Data declares for an attribute type; `nil` for types it does not store so.
    static func declaredTypes(of type: AttributeType) -> Set<String>? {
        switch type {
        case .integer16, .integer32, .integer64, .boolean, .objectID: return ["INTEGER"]
        case .double, .float: return ["FLOAT"]
        case .decimal: return ["DECIMAL"]
        case .string: return ["VARCHAR"]
        case .uri: return ["VARCHAR", "BLOB"]
        case .date: return ["TIMESTAMP"]
        case .binary, .transformable, .uuid: return ["BLOB"]
        case .undefined, .composite: return nil
        }
    }

    /// SQL reading the Core Data value of `column` as Remodel keeps it.
    static func conversion(_ column: String, type: AttributeType) -> String {
        switch type {
        case .double, .float:
            return "CASE WHEN typeof(\(column)) = 'integer' THEN CAST(\(column) AS REAL) ELSE \(column) END"
        case .decimal:
            return "CASE WHEN typeof(\(column)) IN ('integer', 'real') THEN CAST(\(column) AS TEXT) ELSE \(column) END"
        case .date:
            return "\(column) + \(referenceDateOffset)"
        case .uuid:
            let hex = "hex(\(column))"
            return
                "CASE WHEN \(column) IS NULL THEN NULL ELSE substr(\(hex), 1, 8) || '-' || substr(\(hex), 9, 4) || '-' || "
                + "substr(\(hex), 13, 4) || '-' || substr(\(hex), 17, 4) || '-' || substr(\(hex), 21, 12) END"
        case .uri:
            return "CASE WHEN typeof(\(column)) = 'blob' THEN CAST(\(column) AS TEXT) ELSE \(column) END"
        default:
            return column
        }
    }

    /// SQL that is true when `column` holds a value Remodel cannot hold for the type (`nil` when every
    /// value will do), and what the value must be, as text.
    static func problem(_ column: String, type: AttributeType) -> (condition: String?, expected: String) {
        let kind = "typeof(\(column))"
        switch type {
        case .integer64:
            return ("\(kind) NOT IN ('integer', 'null')", "an integer")
        case .integer16, .integer32:
            let range = type.integerRange ?? Int64.min...Int64.max
            return (
                "\(kind) NOT IN ('integer', 'null') OR \(column) NOT BETWEEN \(range.lowerBound) AND \(range.upperBound)",
                "an integer from \(range.lowerBound) to \(range.upperBound)"
            )
        case .boolean:
            return ("\(kind) NOT IN ('integer', 'null') OR \(column) NOT IN (0, 1)", "0 or 1")
        case .double, .float, .decimal, .date:
            return (
                "\(kind) NOT IN ('integer', 'real', 'null')",
                type == .date ? "a number of seconds since 2001" : "a number"
            )
        case .string:
            return ("\(kind) NOT IN ('text', 'null')", "text")
        case .uri:
            return ("\(kind) NOT IN ('text', 'blob', 'null')", "text")
        case .uuid:
            return ("\(kind) NOT IN ('blob', 'null') OR (\(kind) = 'blob' AND length(\(column)) != 16)", "16 bytes")
        case .binary, .transformable:
            return ("\(kind) NOT IN ('blob', 'null')", "bytes")
        case .objectID, .undefined, .composite:
            return (
                "\(column) IS NOT NULL", "nothing (Remodel does not import \(type.rawValue) attributes from Core Data)"
            )
        }
    }

    /// The check of a Binary attribute that allows external storage: a marker byte, 1 (the bytes follow)
    /// or 2 (a file name follows), then the rest.
    static func externalProblem(_ column: String) -> (condition: String?, expected: String) {
        (
            "typeof(\(column)) NOT IN ('blob', 'null') OR (typeof(\(column)) = 'blob' AND substr(\(column), 1, 1) NOT IN (X'01', X'02'))",
            "bytes after a marker byte 1 (kept in the store) or 2 (kept in a file)"
        )
    }
}
