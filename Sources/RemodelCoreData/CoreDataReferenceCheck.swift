internal import Foundation
import Remodel

/// After the copy, once the indexes are built: every to-one and every join-table row must name an object
/// of the destination's kind. Core Data keeps its stores consistent, but a damaged store or one edited by
/// hand may not be (wire's `store1-27`: four `Connection.to` name Users the store lacks). Every link to
/// nothing is listed (``CoreDataDanglingLinks``): the import is refused, or, with
/// ``CoreDataImport/DanglingLinks/drop``, imported without them.
///
/// Each distinct key is looked up once, read from the index on the column (every to-one column and
/// join-table side has one), so the check costs the number of objects linked to, not of links; the links
/// are listed one by one only where one is missing.
enum CoreDataReferenceCheck {
    /// Checks every link; with `policy` ``CoreDataImport/DanglingLinks/drop`` leaves out those that name
    /// nothing and returns them.
    /// - Throws: ``RemodelError`` with ``RemodelError/Code/invalidValue`` listing every dangling link when
    ///   `policy` is ``CoreDataImport/DanglingLinks/refuse``, or when one is of a required to-one.
    static func check(
        _ layout: StoreLayout, on connection: SQLiteConnection, source: String, rowsByTable: [String: Int],
        policy: CoreDataImport.DanglingLinks
    ) throws(RemodelError) -> [CoreDataImport.DroppedLink] {
        let dense = try denseKeys(layout, rowsByTable: rowsByTable, on: connection)
        var found: [CoreDataDanglingLinks.Found] = []
        for table in layout.tables {
            for column in table.columns {
                guard case .toOne(let entity, let relationship, let destination) = column.content,
                    try missing(
                        in: table.name, column: column.name, kindOf: destination, layout, connection, dense: dense)
                        != nil
                else { continue }
                found += try CoreDataDanglingLinks.toOnes(
                    in: table.name, column: column.name, declaredBy: entity, relationship: relationship,
                    destination: destination, layout, connection)
            }
        }
        for join in layout.joinTables {
            for sourceSide in [false, true] {
                let entity = sourceSide ? join.sourceEntity : join.destinationEntity
                let column = sourceSide ? StoreLayout.JoinTable.sourceColumn : StoreLayout.JoinTable.destinationColumn
                guard
                    try missing(in: join.name, column: column, kindOf: entity, layout, connection, dense: dense) != nil
                else { continue }
                found += try CoreDataDanglingLinks.joinRows(of: join, missingSource: sourceSide, layout, connection)
            }
        }
        found = CoreDataDanglingLinks.unique(found)
        guard !found.isEmpty else { return [] }
        let required = found.filter(\.isRequired)
        if policy == .refuse || !required.isEmpty {
            throw CoreDataDanglingLinks.refusal(found, required: required, policy: policy, source: source)
        }
        try CoreDataDanglingLinks.drop(found, layout, connection)
        return found.map(\.link)
    }

    /// The tables whose keys are every integer from their smallest to their largest (as many rows as
    /// keys between them), with those bounds: Core Data gives keys out one after the other, so a store
    /// without deletions has them.
    private static func denseKeys(_ layout: StoreLayout, rowsByTable: [String: Int], on connection: SQLiteConnection)
        throws(RemodelError) -> [String: ClosedRange<Int64>]
    {
        var result: [String: ClosedRange<Int64>] = [:]
        for table in layout.tables {
            guard let rows = rowsByTable[table.name], rows > 0,
                let bounds = try connection.rows(boundsQuery(of: StoreColumn.pk, in: table.name)).first,
                case .integer(let low) = bounds[0], case .integer(let high) = bounds[1],
                high.subtractingReportingOverflow(low) == (Int64(rows - 1), false)
            else { continue }
            result[table.name] = low...high
        }
        return result
    }

    /// The first distinct key of `column` that is not the `_pk` of an object of `entity` or a sub-entity.
    /// Where the destination's keys are dense and every entity of its table qualifies, the column's
    /// smallest and largest keys (read from its index) within the bounds prove every key is there.
    static func missing(
        in table: String, column: String, kindOf entity: String, _ layout: StoreLayout, _ connection: SQLiteConnection,
        dense: [String: ClosedRange<Int64>]
    ) throws(RemodelError) -> SQLiteValue? {
        guard let destination = layout.table(forEntity: entity) else { return nil }
        let kinds = layout.kinds(of: entity)
        let everyKind = Set(kinds) == Set(destination.entities)
        let key = quoteIdentifier(column)
        if everyKind, let bounds = dense[destination.name] {
            let found = try connection.rows(boundsQuery(of: key, in: table)).first
            if case .null? = found?[0] { return nil }
            if case .integer(let low)? = found?[0], case .integer(let high)? = found?[1], bounds.contains(low),
                bounds.contains(high)
            {
                return nil
            }
        }
        // Where every entity of the destination's table qualifies, the key alone decides.
        let kindTest =
            everyKind ? "" : " AND d.\(StoreColumn.entity) IN (\(kinds.map(quoteLiteral).joined(separator: ", ")))"
        let sql =
            "SELECT k FROM (SELECT DISTINCT \(key) AS k FROM main.\(quoteIdentifier(table)) WHERE \(key) IS NOT NULL) "
            + "WHERE typeof(k) != 'integer' OR NOT EXISTS (SELECT 1 FROM main.\(quoteIdentifier(destination.name)) AS d WHERE d.\(StoreColumn.pk) = k\(kindTest)) LIMIT 1"
        return try connection.scalar(sql)
    }

    /// The smallest and largest value of a column, each read from its index in a query of its own
    /// (SQLite reads `min()` and `max()` from an index only when each is alone in its query).
    static func boundsQuery(of column: String, in table: String) -> String {
        let from = "FROM main.\(quoteIdentifier(table))"
        return "SELECT (SELECT min(\(column)) \(from)), (SELECT max(\(column)) \(from))"
    }

    /// A key as the message shows it: the integer, or the value as SQL writes it.
    static func text(_ key: SQLiteValue) -> String {
        switch key {
        case .integer(let value): return String(value)
        case .real(let value): return String(value)
        case .text(let value): return quoteLiteral(value)
        case .blob(let value): return "X'" + value.map { String(format: "%02X", $0) }.joined() + "'"
        case .null: return "NULL"
        }
    }
}
