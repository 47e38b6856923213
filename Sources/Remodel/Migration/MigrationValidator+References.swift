/// Phase 3: dangling references, found through indexes. Checking a reference column row by row looks
/// its target up once per row; the column's index gives its distinct values in order, so each value is
/// looked up once, in key order, and the rows that hold a dangling one are listed only when there is one.
extension MigrationValidator {
    /// A probe for values of a to-one `column` (in any row of `table`) that are not the `_pk` of a
    /// `target`, or nil when no index on the table starts with the column (views; a store whose indexes
    /// are not built yet): the check then stays in the entity's scan.
    func referenceProbe(table: String, column: String, targetTable: String, target: String) throws(RemodelError) -> TableScan.Probe? {
        guard try hasIndex(on: table, leadingWith: column) else { return nil }
        return danglingProbe(table: table, column: column, targetTable: targetTable, kinds: kinds(of: target))
    }

    /// Whether some distinct non-NULL value of `column` is not the `_pk` of an object of one of `kinds` in `targetTable`.
    private func danglingProbe(table: String, column: String, targetTable: String, kinds: [String]) -> TableScan.Probe {
        var parameters: [SQLiteValue] = []
        let list = placeholders(kinds, &parameters)
        let name = quoteIdentifier(column)
        return TableScan.Probe(
            sql: """
                SELECT EXISTS (SELECT 1 FROM (SELECT DISTINCT r.\(name) AS k FROM \(tables(table)) AS r WHERE r.\(name) IS NOT NULL) \
                WHERE NOT EXISTS (SELECT 1 FROM \(tables(targetTable)) AS t WHERE t."_pk" = k AND t."_entity" IN (\(list))))
                """,
            parameters: parameters)
    }

    private func hasIndex(on table: String, leadingWith column: String) throws(RemodelError) -> Bool {
        let schema = SQLiteValue.text(tables.schema)
        let count = try connection.scalar(
            "SELECT count(*) FROM pragma_index_list(?, ?) AS l, pragma_index_info(l.name, ?) AS i WHERE l.partial = 0 AND i.seqno = 0 AND i.name = ?",
            [.text(tables.prefix + table), schema, schema, .text(column)])
        return count != nil && count != .integer(0)
    }

    // MARK: - Join tables

    /// Join-table rows whose ends are not objects of the relationship's entities: a row with a missing
    /// destination is reported on the object that has the relationship, one with a missing source on the
    /// destination object. The first offenders of each end, by `(source, destination)`.
    func joinTableFailures() throws(RemodelError) -> [ValidationFailure] {
        var failures: [ValidationFailure] = []
        for join in layout.joinTables {
            guard let sourceTable = layout.table(forEntity: join.sourceEntity)?.name,
                let destinationTable = layout.table(forEntity: join.destinationEntity)?.name
            else { continue }
            failures += try danglingRows(of: join, column: StoreLayout.JoinTable.destinationColumn, targetTable: destinationTable, target: join.destinationEntity) {
                source, destination in
                ValidationFailure(
                    entity: join.sourceEntity, primaryKey: source.integerValue, property: join.sourceRelationship, rule: "dangling",
                    message: "points to _pk \(destination), which is not a \(join.destinationEntity)")
            }
            failures += try danglingRows(of: join, column: StoreLayout.JoinTable.sourceColumn, targetTable: sourceTable, target: join.sourceEntity) {
                source, destination in
                ValidationFailure(
                    entity: join.destinationEntity, primaryKey: destination.integerValue, property: join.destinationRelationship, rule: "dangling",
                    message: join.destinationRelationship == nil
                        ? "is linked from _pk \(source) in \(join.name), which is not a \(join.sourceEntity)"
                        : "points to _pk \(source), which is not a \(join.sourceEntity)")
            }
        }
        return failures
    }

    private func danglingRows(
        of join: StoreLayout.JoinTable, column: String, targetTable: String, target: String,
        failure: (_ source: SQLiteValue, _ destination: SQLiteValue) -> ValidationFailure
    ) throws(RemodelError) -> [ValidationFailure] {
        let kinds = kinds(of: target)
        guard try scan.answer(danglingProbe(table: join.name, column: column, targetTable: targetTable, kinds: kinds), connection) else {
            return []
        }
        var parameters: [SQLiteValue] = []
        let list = placeholders(kinds, &parameters)
        let rows = try connection.rows(
            """
            SELECT j."source", j."destination" FROM \(tables(join.name)) AS j WHERE NOT EXISTS (SELECT 1 FROM \(tables(targetTable)) AS t \
            WHERE t."_pk" = j.\(quoteIdentifier(column)) AND t."_entity" IN (\(list))) ORDER BY j."source", j."destination" LIMIT \(limit)
            """, parameters)
        return rows.map { failure($0[0], $0[1]) }
    }
}
