/// Phase 3: uniqueness constraints, and SQLite's own checks of the whole store.
extension MigrationValidator {
    func uniquenessFailures(of entity: Entity) throws(RemodelError) -> [ValidationFailure] {
        guard let table = layout.table(forEntity: entity.name)?.name else { return [] }
        var failures: [ValidationFailure] = []
        for constraint in entity.uniquenessConstraints {
            // Each property's key: its column, or a composite member inside its column.
            let keys = constraint.properties.compactMap { property -> StoreLayout.Index.Key? in
                if let column = layout.column(forAttribute: property, in: entity.name) {
                    return StoreLayout.Index.Key(column: column.name)
                }
                if case .column(_, let column)? = layout.storage(of: property, in: entity.name) {
                    return StoreLayout.Index.Key(column: column)
                }
                return layout.key(named: property, in: entity)
            }
            let columns = keys.map(\.sql)
            guard !columns.isEmpty, columns.count == constraint.properties.count,
                scope?.needsUniqueness(entity: entity.name, properties: constraint.properties) ?? true
            else { continue }
            let entities = kinds(of: entity.name)
            if provenUnique.contains(where: { $0.proves(columns: keys.map(\.term), of: entities, in: table) }) {
                continue
            }
            var parameters: [SQLiteValue] = []
            let kinds = placeholders(entities, &parameters)
            parameters += parameters
            let list = columns.enumerated().map { "\($1) AS k\($0)" }.joined(separator: ", ")
            let grouped = columns.indices.map { "k\($0)" }.joined(separator: ", ")
            let notNull = columns.map { "\($0) IS NOT NULL" }.joined(separator: " AND ")
            let same = keys.enumerated().map { offset, key in
                "\(StoreLayout.Index.Key.sql(column: "o.\(quoteIdentifier(key.column))", member: key.member)) = g.k\(offset)"
            }.joined(separator: " AND ")
            let names = constraint.properties.joined(separator: ", ")
            // Every member of each group of duplicates but its first, named against the first: one fix
            // (of all the members listed) is then enough.
            let rows = try connection.rows(
                """
                SELECT o.\(StoreColumn.pk), g.first FROM \(tables(table)) AS o JOIN (SELECT \(list), min(\(StoreColumn.pk)) AS first FROM \(tables(table)) \
                WHERE \(StoreColumn.entity) IN (\(kinds)) AND \(notNull) GROUP BY \(grouped) HAVING count(*) > 1) AS g ON \(same) \
                WHERE o.\(StoreColumn.entity) IN (\(kinds)) AND o.\(StoreColumn.pk) <> g.first ORDER BY g.first, o.\(StoreColumn.pk) LIMIT \(Self.offendersInAll)
                """, parameters)
            failures += rows.map { row in
                ValidationFailure(
                    entity: entity.name, primaryKey: row[0].integerValue, property: constraint.properties.first,
                    rule: .unique,
                    message:
                        "has the same (\(names)) as _pk \(row[1]); the uniqueness constraint on (\(names)) does not allow it"
                )
            }
        }
        return failures
    }

    /// What SQLite's own check found (`findings`, from ``ConcurrentStoreChecks``).
    func integrityFailures(_ findings: [String]) -> [ValidationFailure] {
        findings.map { text in
            ValidationFailure(entity: "-", primaryKey: nil, property: nil, rule: .integrityCheck, message: text)
        }
    }
}
