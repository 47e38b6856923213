/// Phase 3: the checks of relationships (required, dangling, counts).
extension MigrationValidator {
    func relationshipFailures(of entity: Entity) throws(RemodelError) -> [ValidationFailure] {
        guard let table = layout.table(forEntity: entity.name)?.name else { return [] }
        var failures: [ValidationFailure] = []
        for relationship in version.relationships(of: entity) where !relationship.isTransient {
            if let scope, scope.rules(entity: entity.name, property: relationship.name).isEmpty { continue }
            guard let storage = layout.storage(of: relationship.name, in: entity.name) else { continue }
            let base = "SELECT o.\(StoreColumn.pk) FROM \(tables(table)) AS o WHERE o.\(StoreColumn.entity) = ? AND "
            if case .column(_, let column) = storage {
                let name = quoteIdentifier(column)
                if !relationship.isOptional {
                    failures += try offenders(
                        base, "o.\(name) IS NULL", [.text(entity.name)], entity: entity.name,
                        property: relationship.name, rule: .required
                    ) { _ in
                        "a related object is required, but there is none"
                    }
                }
                if let target = relationship.destinationEntity, let targetTable = layout.table(forEntity: target)?.name
                {
                    var parameters: [SQLiteValue] = [.text(entity.name)]
                    let kinds = placeholders(kinds(of: target), &parameters)
                    let needed = scope?.needs(entity: entity.name, property: relationship.name, rule: .dangling) ?? true
                    let probe =
                        needed
                        ? try referenceProbe(table: table, column: column, targetTable: targetTable, target: target)
                        : nil
                    failures += try offenders(
                        "SELECT o.\(StoreColumn.pk), o.\(name) FROM \(tables(table)) AS o WHERE o.\(StoreColumn.entity) = ? AND ",
                        "o.\(name) IS NOT NULL AND o.\(name) NOT IN (SELECT \(StoreColumn.pk) FROM \(tables(targetTable)) WHERE \(StoreColumn.entity) IN (\(kinds)))",
                        parameters, probe: probe, entity: entity.name, property: relationship.name, rule: .dangling
                    ) { value in "points to _pk \(value), which is not a \(target)" }
                }
            }
            guard relationship.isToMany, let count = countSQL(storage) else { continue }
            if let minimum = relationship.minCount, minimum > 0 {
                failures += try offenders(
                    base, "\(count) < ?", [.text(entity.name), .integer(Int64(minimum))], entity: entity.name,
                    property: relationship.name, rule: .minimumCount
                ) { _ in
                    "holds fewer than \(minimum) objects"
                }
            }
            if let maximum = relationship.maxCount, maximum > 0 {
                failures += try offenders(
                    base, "\(count) > ?", [.text(entity.name), .integer(Int64(maximum))], entity: entity.name,
                    property: relationship.name, rule: .maximumCount
                ) { _ in
                    "holds more than \(maximum) objects"
                }
            }
        }
        return failures
    }

    func countSQL(_ storage: StoreLayout.RelationshipStorage) -> String? {
        switch storage {
        case .inverseColumn(let table, let column, _):
            return
                "(SELECT count(*) FROM \(tables(table)) AS c WHERE c.\(quoteIdentifier(column)) = o.\(StoreColumn.pk))"
        case .joinTable(let name, let ownerIsSource, _):
            return
                "(SELECT count(*) FROM \(tables(name)) AS c WHERE c.\"\(ownerIsSource ? "source" : "destination")\" = o.\(StoreColumn.pk))"
        case .column:
            return nil
        }
    }
}
