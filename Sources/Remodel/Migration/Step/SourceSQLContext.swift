/// Tells the expression compiler where `$source` values live in the source
/// store: `s."attr"` for the object's own attributes, correlated subqueries
/// for to-one paths and to-many counts.
struct SourceSQLContext: ExpressionSQLContext {
    let layout: StoreLayout
    let entity: Entity
    /// Where the source version's tables are.
    let tables: TableReferences
    /// The alias of the source table in the enclosing query.
    let alias: String

    private var model: ModelVersion { layout.version }

    func attributeSQL(_ attribute: String, through relationships: [String]) -> String {
        guard !relationships.isEmpty else {
            guard let column = layout.columnName(of: attribute, in: entity.name) else { return "NULL" }
            return "\(alias).\(quoteIdentifier(column))"
        }
        guard let (pk, owner) = ownerKey(through: relationships), let table = layout.table(forEntity: owner.name),
            let column = layout.columnName(of: attribute, in: owner.name)
        else {
            return "NULL"
        }
        let depth = relationships.count
        return
            "(SELECT x\(depth).\(quoteIdentifier(column)) FROM \(tables(table.name)) AS x\(depth) WHERE x\(depth).\(StoreColumn.pk) = \(pk))"
    }

    func countSQL(of relationship: String, through relationships: [String]) -> String {
        guard
            let (pk, owner) = relationships.isEmpty
                ? ("\(alias).\(StoreColumn.pk)", entity) : ownerKey(through: relationships),
            let storage = layout.storage(of: relationship, in: owner.name)
        else { return "NULL" }
        switch storage {
        case .inverseColumn(let table, let column, _):
            return "(SELECT count(*) FROM \(tables(table)) AS c WHERE c.\(quoteIdentifier(column)) = \(pk))"
        case .joinTable(let name, let ownerIsSource, _):
            let side = ownerIsSource ? "source" : "destination"
            return "(SELECT count(*) FROM \(tables(name)) AS c WHERE c.\"\(side)\" = \(pk))"
        case .column(_, let column):
            return "(CASE WHEN \(alias).\(quoteIdentifier(column)) IS NULL THEN 0 ELSE 1 END)"
        }
    }

    /// SQL for the `_pk` of the object at the end of a to-one path, and that object's entity.
    private func ownerKey(through relationships: [String]) -> (String, Entity)? {
        var current = entity
        guard let first = layout.columnName(of: relationships[0], in: entity.name) else { return nil }
        var pk = "\(alias).\(quoteIdentifier(first))"
        for (index, name) in relationships.enumerated() {
            guard let relationship = model.relationship(named: name, in: current),
                let destinationName = relationship.destinationEntity,
                let destination = model.entity(named: destinationName)
            else { return nil }
            if index > 0 {
                guard let table = layout.table(forEntity: current.name),
                    let column = layout.columnName(of: name, in: current.name)
                else {
                    return nil
                }
                let depth = index
                pk =
                    "(SELECT x\(depth).\(quoteIdentifier(column)) FROM \(tables(table.name)) AS x\(depth) WHERE x\(depth).\(StoreColumn.pk) = \(pk))"
            }
            current = destination
        }
        return (pk, current)
    }
}
