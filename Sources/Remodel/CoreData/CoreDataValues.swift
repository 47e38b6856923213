/// How each attribute type is kept in a Core Data store, and the SQL that turns such a value into the
/// value a Remodel store keeps (docs/CORE-DATA-STORES.md, "Values").
package enum CoreDataValues {
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

    /// SQL reading the Core Data value of `column` as Remodel keeps it. Integral Double and Float values
    /// become REAL and Decimal numbers their text by the Remodel column's own affinity (`REAL`, `TEXT`),
    /// as SQLite converts a value stored into a column, so they are copied as they are.
    package static func conversion(_ column: String, type: AttributeType) -> String {
        switch type {
        case .date:
            return "\(column) + \(referenceDateOffset)"
        case .uuid:
            let hex = "hex(\(column))"
            return
                "CASE WHEN \(column) IS NULL THEN NULL ELSE substr(\(hex), 1, 8) || '-' || substr(\(hex), 9, 4) || '-' || "
                + "substr(\(hex), 13, 4) || '-' || substr(\(hex), 17, 4) || '-' || substr(\(hex), 21, 12) END"
        case .uri:
            return "CASE WHEN \(column) >= X'' THEN CAST(\(column) AS TEXT) ELSE \(column) END"
        default:
            return column
        }
    }

    /// How a value is checked in the copy: refused where a condition holds, or accepted only where one
    /// holds. The integer checks are written as acceptances: SQLite runs `CASE WHEN valid THEN value ELSE
    /// refuse END` at the cost of the copy alone, the same test negated costs a tenth of the copy (issue 32).
    package enum Check: Sendable, Hashable {
        case refuse(when: String)
        case accept(when: String)

        /// The SQL that is true for a value the check refuses.
        var problem: String {
            switch self {
            case .refuse(let condition): return condition
            case .accept(let condition): return "NOT (\(condition))"
            }
        }

        /// `value` where the check passes, else `refusal`.
        package func guarding(_ value: String, refusal: String) -> String {
            switch self {
            case .refuse(let condition): return "CASE WHEN \(condition) THEN \(refusal) ELSE \(value) END"
            case .accept(let condition): return "CASE WHEN \(condition) THEN \(value) ELSE \(refusal) END"
            }
        }
    }

    /// The check of a value of `type` in `column` (`nil` when every value will do), and what the value
    /// must be, as text.
    ///
    /// The checks are comparisons, not `typeof()` (three times as fast in the copy's scan: issue 32), and
    /// rest on SQLite's ordering of storage classes (NULL, then numbers, then text, then blobs; a NULL
    /// compares as NULL, never true) and on the affinity of the column's declared type, which the mapping
    /// has checked is Core Data's: a `VARCHAR` column (TEXT affinity) turns numbers into text, so only a
    /// blob can be out of place; an `INTEGER` column keeps a REAL only when it is not integral;
    /// `FLOAT`, `TIMESTAMP`, `DECIMAL` (REAL, NUMERIC) keep text that is not a number; a `BLOB` column keeps
    /// anything. `CoreDataValueCheckTests` compares each check with `typeof()` on values of every class.
    package static func check(_ column: String, type: AttributeType) -> (check: Check?, expected: String) {
        switch type {
        case .integer64:
            return (.accept(when: integer(column)), "an integer")
        case .integer16, .integer32:
            let range = type.integerRange ?? Int64.min...Int64.max
            return (
                .accept(
                    when:
                        "\(column) BETWEEN \(range.lowerBound) AND \(range.upperBound) AND CAST(\(column) AS INTEGER) = \(column) OR \(column) IS NULL"
                ),
                "an integer from \(range.lowerBound) to \(range.upperBound)"
            )
        case .boolean:
            return (.refuse(when: "\(column) NOT IN (0, 1)"), "0 or 1")
        case .double, .float, .decimal, .date:
            return (.refuse(when: "\(column) >= ''"), type == .date ? "a number of seconds since 2001" : "a number")
        case .string:
            return (.refuse(when: "\(column) >= X''"), "text")
        case .uri:
            return (.refuse(when: "\(column) < ''"), "text")
        case .uuid:
            return (.refuse(when: "\(column) < X'' OR length(\(column)) != 16"), "16 bytes")
        case .binary, .transformable:
            return (.refuse(when: "\(column) < X''"), "bytes")
        case .objectID, .undefined, .composite:
            return (
                .refuse(when: "\(column) IS NOT NULL"),
                "nothing (Remodel does not import \(type.rawValue) attributes from Core Data)"
            )
        }
    }

    /// SQL true for an integer or NULL: what an `INTEGER` column holds of a whole number (a key, an
    /// Integer attribute).
    package static func integer(_ column: String) -> String {
        "CAST(\(column) AS INTEGER) = \(column) OR \(column) IS NULL"
    }

    /// The check of a Binary attribute that allows external storage: a blob whose first byte is the
    /// marker 1 (the bytes follow) or 2 (a file name follows), or an empty blob (empty bytes).
    package static func externalCheck(_ column: String) -> (check: Check?, expected: String) {
        (
            .refuse(when: "\(column) < X'' OR (\(column) >= X'00' AND \(column) < X'01') OR \(column) >= X'03'"),
            "bytes after a marker byte 1 (kept in the store) or 2 (kept in a file)"
        )
    }

    /// The value of a Binary attribute that allows external storage, where it is kept in the store: the
    /// bytes after marker 1, empty bytes as they are; nil for marker 2 (the file is read in afterwards).
    package static func externalConversion(_ column: String) -> String {
        "CASE WHEN \(column) >= X'01' AND \(column) < X'02' THEN substr(\(column), 2) WHEN \(column) = X'' THEN \(column) ELSE NULL END"
    }

    /// The `typeof()` form of ``check(_:type:)``, whatever the column's declared type: the reference the
    /// comparisons are tested against, and the check of a column whose declared type is not Core Data's.
    static func classProblem(_ column: String, type: AttributeType) -> String? {
        let kind = "typeof(\(column))"
        switch type {
        case .integer64: return "\(kind) NOT IN ('integer', 'null')"
        case .integer16, .integer32:
            let range = type.integerRange ?? Int64.min...Int64.max
            return
                "\(kind) NOT IN ('integer', 'null') OR \(column) NOT BETWEEN \(range.lowerBound) AND \(range.upperBound)"
        case .boolean: return "\(kind) NOT IN ('integer', 'null') OR \(column) NOT IN (0, 1)"
        case .double, .float, .decimal, .date: return "\(kind) NOT IN ('integer', 'real', 'null')"
        case .string: return "\(kind) NOT IN ('text', 'null')"
        case .uri: return "\(kind) NOT IN ('text', 'blob', 'null')"
        case .uuid: return "\(kind) NOT IN ('blob', 'null') OR (\(kind) = 'blob' AND length(\(column)) != 16)"
        case .binary, .transformable: return "\(kind) NOT IN ('blob', 'null')"
        case .objectID, .undefined, .composite: return "\(column) IS NOT NULL"
        }
    }
}
