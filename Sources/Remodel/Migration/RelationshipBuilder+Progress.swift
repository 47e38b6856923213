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
            let count = try counts.count("SELECT count(*) FROM main.\(quoteIdentifier(table))", [], on: context.connection)
            rows.append(max(1, Int(count?.integerValue ?? 0)))
        }
        return rows
    }
}
