import Remodel

/// SQL for the links of one relationship of one concrete entity's objects in a
/// store, however the layout keeps them (a to-one column, the inverse's column,
/// a join table): rows `owner, target, position` (position NULL when unordered).
struct LinkQuery {
    let sql: String
    let parameters: [SQLiteValue]

    init?(layout: StoreLayout, schema: String, entity: String, relationship: Relationship) {
        guard let storage = layout.storage(of: relationship.name, in: entity),
            let ownerTable = layout.table(forEntity: entity)?.name
        else { return nil }
        let owners = "\(schema).\(quoteIdentifier(ownerTable))"
        switch storage {
        case .column(let table, let column):
            let quoted = quoteIdentifier(column)
            sql =
                "SELECT o.\(StoreColumn.pk) AS owner, o.\(quoted) AS target, NULL AS position FROM \(schema).\(quoteIdentifier(table)) AS o "
                + "WHERE o.\(StoreColumn.entity) = ? AND o.\(quoted) IS NOT NULL"
            parameters = [.text(entity)]
        case .inverseColumn(let table, let column, let orderColumn):
            let kinds = layout.kinds(of: relationship.destinationEntity ?? "")
            let position = orderColumn.map { "d.\(quoteIdentifier($0))" } ?? "NULL"
            sql =
                "SELECT d.\(quoteIdentifier(column)) AS owner, d.\(StoreColumn.pk) AS target, \(position) AS position "
                + "FROM \(schema).\(quoteIdentifier(table)) AS d JOIN \(owners) AS o ON o.\(StoreColumn.pk) = d.\(quoteIdentifier(column)) "
                + "AND o.\(StoreColumn.entity) = ? WHERE d.\(StoreColumn.entity) IN (\(placeholders(kinds.count)))"
            parameters = [.text(entity)] + kinds.map(SQLiteValue.text)
        case .joinTable(let name, let ownerIsSource, let orderColumn):
            let mine = ownerIsSource ? StoreLayout.JoinTable.sourceColumn : StoreLayout.JoinTable.destinationColumn
            let other = ownerIsSource ? StoreLayout.JoinTable.destinationColumn : StoreLayout.JoinTable.sourceColumn
            let position = orderColumn.map { "j.\(quoteIdentifier($0))" } ?? "NULL"
            sql =
                "SELECT j.\(quoteIdentifier(mine)) AS owner, j.\(quoteIdentifier(other)) AS target, \(position) AS position "
                + "FROM \(schema).\(quoteIdentifier(name)) AS j JOIN \(owners) AS o ON o.\(StoreColumn.pk) = j.\(quoteIdentifier(mine)) "
                + "AND o.\(StoreColumn.entity) = ?"
            parameters = [.text(entity)]
        }
    }
}
