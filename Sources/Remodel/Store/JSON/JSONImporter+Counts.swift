/// Relationship counts, checked in SQL once everything is stored: required
/// to-one relationships, and minimum and maximum counts of to-many ones.
extension JSONImporter {
    func validateRelationshipCounts() throws(RemodelError) {
        for entity in layout.version.entities where !entity.isAbstract {
            guard let table = layout.table(forEntity: entity.name) else { continue }
            for relationship in layout.storedRelationships(of: entity) {
                guard let storage = layout.storage(of: relationship.name, in: entity.name) else { continue }
                try check(relationship, of: entity, table: table.name, storage: storage)
            }
        }
    }

    private func check(
        _ relationship: Relationship, of entity: Entity, table: String, storage: StoreLayout.RelationshipStorage
    ) throws(RemodelError) {
        let quotedTable = quoteIdentifier(table)
        let count: String
        var parameters: [SQLiteValue] = []
        switch storage {
        case .column(_, let column):
            guard !relationship.isOptional else { return }
            let sql =
                "SELECT \(StoreColumn.pk) FROM \(quotedTable) WHERE \(StoreColumn.entity) = ? AND \(quoteIdentifier(column)) IS NULL ORDER BY \(StoreColumn.pk) LIMIT 1"
            if case .integer(let primaryKey) = try connection.scalar(sql, [.text(entity.name)]) {
                throw relationshipFailure(
                    "\(entity.name) _pk \(primaryKey)", entity: entity.name, relationship.name, primaryKey: primaryKey,
                    "a value is required, found null")
            }
            return
        case .inverseColumn(let destination, let column, _):
            let kinds = layout.kinds(of: relationship.destinationEntity ?? "")
            count =
                "(SELECT count(*) FROM \(quoteIdentifier(destination)) AS d WHERE d.\(quoteIdentifier(column)) = t.\(StoreColumn.pk) "
                + "AND d.\(StoreColumn.entity) IN (\(placeholders(kinds.count))))"
            parameters = kinds.map(SQLiteValue.text)
        case .joinTable(let name, let ownerIsSource, _):
            let mine = ownerIsSource ? StoreLayout.JoinTable.sourceColumn : StoreLayout.JoinTable.destinationColumn
            count =
                "(SELECT count(*) FROM \(quoteIdentifier(name)) AS j WHERE j.\(quoteIdentifier(mine)) = t.\(StoreColumn.pk))"
        }
        // A required to-many with no minimum may be empty, as in Core Data and as a migration's check has it
        // (`Relationship.requiresObjects`): a store that passes the check imports back.
        let minimum = relationship.minCount ?? 0
        let maximum = relationship.maxCount.flatMap { $0 > 0 ? $0 : nil }
        guard minimum > 0 || maximum != nil else { return }
        let sql =
            "SELECT pk, n FROM (SELECT t.\(StoreColumn.pk) AS pk, \(count) AS n FROM \(quotedTable) AS t WHERE t.\(StoreColumn.entity) = ?) "
            + "WHERE n < ? OR n > ? ORDER BY pk LIMIT 1"
        let values = parameters + [.text(entity.name), .integer(Int64(minimum)), .integer(Int64(maximum ?? Int.max))]
        guard let row = try connection.rows(sql, values).first, case .integer(let primaryKey) = row[0],
            case .integer(let found) = row[1]
        else { return }
        let message =
            found < minimum
            ? "must have at least \(minimum) object\(minimum == 1 ? "" : "s"), found \(found)"
            : "must have at most \(maximum ?? 0) object\(maximum == 1 ? "" : "s"), found \(found)"
        throw relationshipFailure(
            "\(entity.name) _pk \(primaryKey)", entity: entity.name, relationship.name, primaryKey: primaryKey, message)
    }
}
