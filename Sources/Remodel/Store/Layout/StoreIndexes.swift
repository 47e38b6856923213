/// Builds a layout's indexes after a bulk load, first finding any objects that
/// break a uniqueness constraint so the error can name them.
enum StoreIndexes {
    static func build(_ layout: StoreLayout, on connection: SQLiteConnection, path: String) throws(RemodelError) {
        for index in layout.indexes {
            if index.isUnique { try checkUnique(index, layout: layout, on: connection, path: path) }
            try connection.execute(index.createSQL)
        }
    }

    private static func checkUnique(
        _ index: StoreLayout.Index, layout: StoreLayout, on connection: SQLiteConnection, path: String
    ) throws(RemodelError) {
        let columns = index.keys.map { quoteIdentifier($0.column) }
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
        let names = index.keys.map(\.column).joined(separator: ", ")
        throw RemodelError(
            .invalidValue, "\(entity) _pk \(first) and _pk \(second) have the same \(names), which must be unique",
            path: path,
            entity: entity, property: index.keys.first?.column, primaryKey: second)
    }
}
