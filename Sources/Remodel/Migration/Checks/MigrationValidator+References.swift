/// Phase 3: dangling references, found through indexes. Checking a reference column row by row looks
/// its target up once per row; the column's index gives its distinct values in order, so each value is
/// looked up once, in key order, and the rows that hold a dangling one are listed only when there is one.
extension MigrationValidator {
    /// A probe for values of a to-one `column` (in any row of `table`) that are not the `_pk` of a
    /// `target`, or nil when no index on the table starts with the column (views; a store whose indexes
    /// are not built yet): the check then stays in the entity's scan.
    func referenceProbe(table: String, column: String, targetTable: String, target: String) throws(RemodelError)
        -> TableScan.Probe?
    {
        guard try hasIndex(on: table, leadingWith: column) else { return nil }
        return danglingProbe(table: table, column: column, targetTable: targetTable, kinds: kinds(of: target))
    }

    /// Whether some distinct non-NULL value of `column` is not the `_pk` of an object of one of `kinds` in
    /// `targetTable`. (An outer join looks the values up at half the cost of a correlated `NOT EXISTS`.)
    func danglingProbe(table: String, column: String, targetTable: String, kinds: [String]) -> TableScan.Probe {
        var parameters: [SQLiteValue] = []
        let list = placeholders(kinds, &parameters)
        let name = quoteIdentifier(column)
        return TableScan.Probe(
            sql: """
                SELECT EXISTS (SELECT 1 FROM (SELECT DISTINCT r.\(name) AS k FROM \(tables(table)) AS r WHERE r.\(name) IS NOT NULL) AS d \
                LEFT JOIN \(tables(targetTable)) AS t ON t.\(StoreColumn.pk) = d.k AND t.\(StoreColumn.entity) IN (\(list)) WHERE t.\(StoreColumn.pk) IS NULL)
                """,
            parameters: parameters)
    }

    private func hasIndex(on table: String, leadingWith column: String) throws(RemodelError) -> Bool {
        try indexedColumns.contains(table: table, column: column, on: connection, schema: tables.schema)
    }

    // MARK: - Join tables

    /// One end of a join table: its rows whose `column` is not the `_pk` of a `target` in `targetTable`.
    struct JoinEnd {
        var join: StoreLayout.JoinTable
        var column: String
        var targetTable: String
        var target: String
        var probe: TableScan.Probe
    }

    /// Both ends of every join table, destination first.
    func joinEnds() -> [JoinEnd] {
        var ends: [JoinEnd] = []
        for join in layout.joinTables {
            guard let sourceTable = layout.table(forEntity: join.sourceEntity)?.name,
                let destinationTable = layout.table(forEntity: join.destinationEntity)?.name
            else { continue }
            for (column, targetTable, target) in [
                (StoreLayout.JoinTable.destinationColumn, destinationTable, join.destinationEntity),
                (StoreLayout.JoinTable.sourceColumn, sourceTable, join.sourceEntity),
            ] {
                let probe = danglingProbe(
                    table: join.name, column: column, targetTable: targetTable, kinds: kinds(of: target))
                ends.append(JoinEnd(join: join, column: column, targetTable: targetTable, target: target, probe: probe))
            }
        }
        return ends
    }

    /// Join-table rows whose ends are not objects of the relationship's entities, for the ends whose
    /// probe found some (`found`, in the order of `ends`): a row with a missing destination is reported
    /// on the object that has the relationship, one with a missing source on the destination object;
    /// the first offenders of each end, by `(source, destination)`.
    func joinTableFailures(_ ends: [JoinEnd], found: [Bool]) throws(RemodelError) -> [ValidationFailure] {
        var failures: [ValidationFailure] = []
        for (end, found) in zip(ends, found) where found {
            let join = end.join
            var parameters: [SQLiteValue] = []
            let list = placeholders(kinds(of: end.target), &parameters)
            let rows = try connection.rows(
                """
                SELECT j."source", j."destination" FROM \(tables(join.name)) AS j WHERE NOT EXISTS (SELECT 1 FROM \(tables(end.targetTable)) AS t \
                WHERE t.\(StoreColumn.pk) = j.\(quoteIdentifier(end.column)) AND t.\(StoreColumn.entity) IN (\(list))) ORDER BY j."source", j."destination" LIMIT \(limit)
                """, parameters)
            for row in rows {
                let (source, destination) = (row[0], row[1])
                if end.column == StoreLayout.JoinTable.destinationColumn {
                    failures.append(
                        ValidationFailure(
                            entity: join.sourceEntity, primaryKey: source.integerValue,
                            property: join.sourceRelationship, rule: .dangling,
                            message: "points to _pk \(destination), which is not a \(join.destinationEntity)"))
                } else {
                    failures.append(
                        ValidationFailure(
                            entity: join.destinationEntity, primaryKey: destination.integerValue,
                            property: join.destinationRelationship,
                            rule: .dangling,
                            message: join.destinationRelationship == nil
                                ? "is linked from _pk \(source) in \(join.name), which is not a \(join.sourceEntity)"
                                : "points to _pk \(source), which is not a \(join.sourceEntity)"))
                }
            }
        }
        return failures
    }
}

/// The first column of every full index of a store, read once per validation (every to-one relationship asks).
final class LeadingIndexColumns {
    private var known: Set<SQLName.Column>?

    func contains(table: String, column: String, on connection: SQLiteConnection, schema: String) throws(RemodelError)
        -> Bool
    {
        if known == nil {
            let rows = try connection.rows(
                """
                SELECT m.tbl_name, i.name FROM \(schema).sqlite_master AS m, pragma_index_list(m.tbl_name, ?) AS l, \
                pragma_index_info(l.name, ?) AS i WHERE m.type = 'table' AND l.partial = 0 AND i.seqno = 0
                """, [.text(schema), .text(schema)])
            known = Set(
                rows.compactMap { row -> SQLName.Column? in
                    guard case .text(let table) = row[0], case .text(let column) = row[1] else { return nil }
                    return SQLName.Column(table, column)
                })
        }
        return known?.contains(SQLName.Column(table, column)) ?? false
    }
}
