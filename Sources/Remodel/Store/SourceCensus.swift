/// What one read of each table of one entity that a migration rebuilds tells, made as the search for rows no
/// entity can place reads it whole (``UnplaceableRows``, once the store is copied): the table's rows, the rows no
/// entity can place, and the values each column the first step drops holds. The step's counts of what it drops
/// (``DataLoss``) and phase 1's progress total (``InstanceCopier``) then take them from here instead of reading
/// the table again: on a store larger than the file cache each of those reads was the whole table from storage
/// (issue 44).
///
/// A table of several entities is searched in its `_entity` index, not read, and is not counted here.
final class SourceCensus {
    /// Columns to count, by table (as SQLite compares names).
    private var columns: [SQLName: Set<String>] = [:]
    /// What was counted, by table (as SQLite compares names).
    private var counted: [SQLName: Counts] = [:]

    struct Counts {
        /// The table's one concrete entity, whose rows the other counts are of.
        var entity: String
        var rows: Int
        /// Rows whose `_entity` is not the table's entity.
        var strays: Int
        /// Non-null values of each column asked for, in rows of the table's entity.
        var values: [String: Int]
    }

    /// A census that also counts the non-null values of `columns` (by table).
    init(columns: [SQLName: Set<String>]) {
        self.columns = columns
    }

    /// Reads `table` (of the one concrete entity `entity`) whole on `connection`, where it is `main`'s, and keeps
    /// its counts. - Returns: Whether some row's `_entity` is not `entity`.
    func take(_ table: String, entity: String, on connection: SQLiteConnection) throws(RemodelError) -> Bool {
        let names = (columns[SQLName(table)] ?? []).sorted()
        let valueCounts = names.map { "count(CASE WHEN \(StoreColumn.entity) = ?1 THEN \(quoteIdentifier($0)) END)" }
        let row = try connection.rows(
            "SELECT count(*), count(CASE WHEN \(StoreColumn.entity) IS NOT ?1 THEN 1 END)"
                + valueCounts.map { ", " + $0 }.joined() + " FROM main.\(quoteIdentifier(table))", [.text(entity)]
        ).first
        guard let row, row.count == 2 + names.count, let rows = row[0].integerValue, let strays = row[1].integerValue
        else { return true }
        var values: [String: Int] = [:]
        for (name, value) in zip(names, row.dropFirst(2)) { values[name] = value.integerValue.map(Int.init) }
        counted[SQLName(table)] = Counts(entity: entity, rows: Int(rows), strays: Int(strays), values: values)
        return strays > 0
    }

    /// What was counted of `table`, if it was read.
    func counts(of table: String) -> Counts? {
        counted[SQLName(table)]
    }
}
