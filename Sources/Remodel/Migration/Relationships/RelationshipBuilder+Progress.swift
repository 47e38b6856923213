/// Phase 2's progress in rows.
extension RelationshipBuilder {
    /// The rows of each destination table (at least 1, so an empty one still counts as a unit of work),
    /// counted before the phase writes: the weight in progress of the unit that updates the table.
    func progressRows(of tables: [String?]) throws(RemodelError) -> [Int] {
        var rows: [Int] = []
        for table in tables {
            guard let table else {
                rows.append(1)
                continue
            }
            // The same query as `everySourceObjectArrived`, so each table is counted once.
            let count = try counts.count(
                "SELECT count(*) FROM main.\(quoteIdentifier(table))", [], on: context.connection)
            rows.append(max(1, Int(count?.integerValue ?? 0)))
        }
        return rows
    }

    /// The weight of building each index: the rows of its table; for a join table, which this phase
    /// has yet to fill when the weights are counted, the rows of the entity table that owns its links.
    func progressRows(of indexes: [StoreLayout.Index]) throws(RemodelError) -> [Int] {
        try progressRows(
            of: indexes.map { index in
                guard let join = context.destinationLayout.joinTables.first(where: { $0.name == index.table }) else {
                    return index.table
                }
                return context.destinationLayout.table(forEntity: join.sourceEntity)?.name
            })
    }
}
