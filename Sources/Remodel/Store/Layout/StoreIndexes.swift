/// Builds a layout's indexes after a bulk load. A unique index SQLite cannot build (objects share its
/// values) is followed by a search for the objects that break the constraint, so the error names them;
/// a unique index that builds proves its constraint, so the rows are sorted once, not twice.
package enum StoreIndexes {
    package static func build(_ layout: StoreLayout, on connection: SQLiteConnection, path: String) throws(RemodelError)
    {
        for index in layout.indexes {
            do {
                try connection.execute(index.createSQL)
            } catch {
                // SQLITE_CONSTRAINT: objects share the values of a unique index.
                guard index.isUnique, let code = error.sqliteCode, code & 0xFF == 19 else { throw error }
                try checkUnique(index, layout: layout, on: connection, path: path)
                throw error
            }
        }
    }

    private static func checkUnique(
        _ index: StoreLayout.Index, layout: StoreLayout, on connection: SQLiteConnection, path: String
    ) throws(RemodelError) {
        let columns = index.keys.map(\.sql)
        var conditions = columns.map { "\($0) IS NOT NULL" }
        var parameters: [SQLiteValue] = []
        if let entities = index.entities {
            conditions.append("\(StoreColumn.entity) IN (\(placeholders(entities.count)))")
            parameters = entities.map(SQLiteValue.text)
        }
        let sql =
            "SELECT min(\(StoreColumn.pk)), max(\(StoreColumn.pk)) FROM \(quoteIdentifier(index.table)) WHERE \(conditions.joined(separator: " AND ")) "
            + "GROUP BY \(columns.joined(separator: ", ")) HAVING count(*) > 1 ORDER BY 1 LIMIT 1"
        guard let row = try connection.rows(sql, parameters).first, case .integer(let first) = row[0],
            case .integer(let second) = row[1]
        else { return }
        let entity = index.entities?.first ?? index.table
        let names = index.keys.map { ([$0.column] + $0.member).joined(separator: ".") }.joined(separator: ", ")
        throw RemodelError(
            .invalidValue, "\(entity) _pk \(first) and _pk \(second) have the same \(names), which must be unique",
            path: path,
            entity: entity, property: index.keys.first?.column, primaryKey: second)
    }
}
