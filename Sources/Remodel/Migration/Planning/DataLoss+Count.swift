extension DataLoss {
    /// This loss with its count, read from the step's source tables on `connection`.
    func counted(on connection: SQLiteConnection, layout: StoreLayout, tables: TableReferences) throws(RemodelError)
        -> DataLoss
    {
        guard let table = layout.table(forEntity: entity)?.name else { return self }
        var counted = self
        let entityName: [SQLiteValue] = [.text(entity)]
        guard let property else {
            counted.count = try connection.scalar(
                "SELECT count(*) FROM \(tables(table)) WHERE \(StoreColumn.entity) = ?", entityName)?.integerValue.map(
                    Int.init)
            return counted
        }
        if let members = try countedMember(on: connection, layout: layout, tables: tables) {
            counted.count = members
            return counted
        }
        let owners = "SELECT \(StoreColumn.pk) FROM \(tables(table)) WHERE \(StoreColumn.entity) = ?"
        let sql: String?
        switch layout.storage(of: property, in: entity) {
        case .column(_, let column)?:
            sql = "SELECT count(\(quoteIdentifier(column))) FROM \(tables(table)) WHERE \(StoreColumn.entity) = ?"
        case .inverseColumn(let other, let column, _)?:
            sql = "SELECT count(*) FROM \(tables(other)) WHERE \(quoteIdentifier(column)) IN (\(owners))"
        case .joinTable(let name, let ownerIsSource, _)?:
            sql =
                "SELECT count(*) FROM \(tables(name)) WHERE \"\(ownerIsSource ? "source" : "destination")\" IN (\(owners))"
        case nil:
            sql = layout.columnName(of: property, in: entity).map {
                "SELECT count(\(quoteIdentifier($0))) FROM \(tables(table)) WHERE \(StoreColumn.entity) = ?"
            }
        }
        guard let sql else { return self }
        counted.count = try connection.scalar(sql, entityName)?.integerValue.map(Int.init)
        return counted
    }
}
