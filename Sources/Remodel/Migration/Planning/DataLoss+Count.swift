extension DataLoss {
    /// This loss with its count, read from the step's source tables on `connection`, or taken from `census`
    /// when it counted the table already (a table of this entity alone).
    func counted(
        on connection: SQLiteConnection, layout: StoreLayout, tables: TableReferences, census: SourceCensus? = nil
    ) throws(RemodelError) -> DataLoss {
        guard let table = layout.table(forEntity: entity)?.name else { return self }
        var counted = self
        if let known = census?.counts(of: table), let value = count(in: known, layout: layout) {
            counted.count = value
            return counted
        }
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

    /// The count `census` made of this loss in its table: the entity's objects, or a column's values.
    private func count(in counts: SourceCensus.Counts, layout: StoreLayout) -> Int? {
        guard counts.entity == entity else { return nil }
        guard let property else { return counts.rows - counts.strays }
        switch layout.storage(of: property, in: entity) {
        case .column(_, let column)?: return counts.values[column]
        case nil: return layout.columnName(of: property, in: entity).flatMap { counts.values[$0] }
        default: return nil
        }
    }
}
