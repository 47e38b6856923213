/// Where phase 2 can skip its per-link checks because the objects at the ends of the links all arrived,
/// with the keys they had.
extension RelationshipBuilder {
    /// Clears to-one links copied in phase 1 whose destination object did not arrive.
    func removeDanglingLinks(table: String, column: String, relationship: Relationship) throws(RemodelError) {
        guard let target = relationship.destinationEntity,
            let targetTable = context.destinationLayout.table(forEntity: target)?.name
        else { return }
        let kinds = context.destination.concreteKinds(of: target)
        if try everySourceObjectArrived(in: targetTable, as: kinds) { return }
        var parameters: [SQLiteValue] = []
        let list = placeholders(kinds, &parameters)
        let name = quoteIdentifier(column)
        try context.connection.run(
            "UPDATE main.\(quoteIdentifier(table)) SET \(name) = NULL WHERE \(name) IS NOT NULL AND \(name) NOT IN (SELECT \(StoreColumn.pk) FROM main.\(quoteIdentifier(targetTable)) WHERE \(StoreColumn.entity) IN (\(list)))",
            parameters)
    }

    /// Whether the table kept every object of the source table it is fed from, each as one of `kinds`:
    /// with kept keys, equal counts mean the same keys, so no copied link can point at a missing object.
    /// Where every entity of the table is one of `kinds`, its rows are counted without reading them
    /// (phase 1 writes only those entities' names).
    func everySourceObjectArrived(in table: String, as kinds: [String]) throws(RemodelError) -> Bool {
        guard case .preserved(let feeder)? = context.keys.mode(ofDestinationTable: table),
            let entities = context.destinationLayout.tables.first(where: { $0.name == table })?.entities
        else { return false }
        let before = try counts.count(
            "SELECT count(*) FROM \(context.sourceTables(feeder))", [], on: context.connection)
        let after: SQLiteValue?
        let concrete = entities.filter { context.destination.entity(named: $0)?.isAbstract == false }
        if Set(concrete).isSubset(of: kinds) {
            after = try counts.count("SELECT count(*) FROM main.\(quoteIdentifier(table))", [], on: context.connection)
        } else {
            var parameters: [SQLiteValue] = []
            let list = placeholders(kinds, &parameters)
            after = try counts.count(
                "SELECT count(*) FROM main.\(quoteIdentifier(table)) WHERE \(StoreColumn.entity) IN (\(list))",
                parameters,
                on: context.connection)
        }
        return before != nil && before == after
    }

    /// Whether a relationship's source links can be written as they are: both ends keep their source keys,
    /// and every source object of both ends arrived, the owners all as this write's entity (the only one of
    /// their source table, copied unfiltered and without a policy). Only a damaged source then has links
    /// to no object; they are copied too, and phase 3 reports them.
    func bothEndsArrivedWhole(_ write: Write) throws(RemodelError) -> Bool {
        guard context.mapping.entities[write.mappingIndex].filter == nil, context.policies[write.entity.name] == nil,
            let sourceTable = context.sourceLayout.table(forEntity: write.sourceEntity.name),
            sourceTable.entities == [write.sourceEntity.name],
            let table = context.destinationLayout.table(forEntity: write.entity.name)?.name,
            context.keys.mode(ofDestinationTable: table) == .preserved(sourceTable: sourceTable.name),
            let targetSourceName = write.sourceRelationship.destinationEntity,
            let targetSourceTable = context.sourceLayout.table(forEntity: targetSourceName)?.name,
            let targetName = write.relationship.destinationEntity,
            let targetTable = context.destinationLayout.table(forEntity: targetName)?.name,
            context.keys.mode(ofDestinationTable: targetTable) == .preserved(sourceTable: targetSourceTable)
        else { return false }
        guard try everySourceObjectArrived(in: table, as: [write.entity.name]) else { return false }
        return try everySourceObjectArrived(in: targetTable, as: context.destination.concreteKinds(of: targetName))
    }

    /// `(a2, b2, position)`: the source links as they are.
    func sourceLinks(_ write: Write) -> String? {
        RelationshipLinks.sql(
            of: write.sourceRelationship.name, in: write.sourceEntity.name, layout: context.sourceLayout,
            tables: context.sourceTables
        ).map { "SELECT l.a AS a2, l.b AS b2, l.position AS position FROM (\($0)) AS l" }
    }
}

/// Row counts by query, each run once: phase 2 asks for the counts of entity tables, which it does not change.
final class RowCounts {
    private struct Query: Hashable {
        var sql: String
        var parameters: [SQLiteValue]
    }

    private var known: [Query: SQLiteValue?] = [:]

    func count(_ sql: String, _ parameters: [SQLiteValue], on connection: SQLiteConnection) throws(RemodelError)
        -> SQLiteValue?
    {
        let key = Query(sql: sql, parameters: parameters)
        if let value = known[key] { return value }
        let value = try connection.scalar(sql, parameters)
        known[key] = value
        return value
    }
}
