/// After the copy, once the indexes are built: every to-one and every join-table row must name an object
/// of the destination's kind. Core Data keeps its stores consistent, but a damaged store or one edited by
/// hand may not be: a link to nothing is refused, naming both objects, rather than imported dangling.
///
/// Each distinct key is looked up once, read from the index on the column (every to-one column and
/// join-table side has one), so the check costs the number of objects linked to, not of links.
enum CoreDataReferenceCheck {
    static func check(_ layout: StoreLayout, on connection: SQLiteConnection, source: String) throws(RemodelError) {
        for table in layout.tables {
            for column in table.columns {
                guard case .toOne(let entity, let relationship, let destination) = column.content,
                    let target = try missing(
                        in: table.name, column: column.name, kindOf: destination, layout, connection)
                else { continue }
                let row = try connection.rows(
                    "SELECT \(StoreColumn.pk), \(StoreColumn.entity) FROM main.\(quoteIdentifier(table.name)) WHERE \(quoteIdentifier(column.name)) = ? ORDER BY \(StoreColumn.pk) LIMIT 1",
                    [.integer(target)]
                ).first
                guard case .integer(let key)? = row?[0], case .text(let concrete)? = row?[1] else { continue }
                throw RemodelError(
                    .invalidValue,
                    "\(concrete) \(CoreDataName.primaryKey) \(key) relationship \"\(relationship)\" names \(CoreDataName.primaryKey) \(target), but the store has no \(destination) with that key; nothing was imported: open the store with the app to repair it",
                    path: source, entity: entity, property: relationship, primaryKey: key)
            }
        }
        for join in layout.joinTables {
            let sides = [
                (StoreLayout.JoinTable.sourceColumn, join.sourceEntity),
                (StoreLayout.JoinTable.destinationColumn, join.destinationEntity),
            ]
            for (column, entity) in sides {
                guard let target = try missing(in: join.name, column: column, kindOf: entity, layout, connection) else {
                    continue
                }
                throw RemodelError(
                    .invalidValue,
                    "the join table of \(join.sourceEntity).\(join.sourceRelationship) links \(CoreDataName.primaryKey) \(target) as a \(entity), but the store has no \(entity) with that key; nothing was imported: open the store with the app to repair it",
                    path: source, entity: join.sourceEntity, property: join.sourceRelationship, primaryKey: target)
            }
        }
    }

    /// The first distinct key of `column` that is not the `_pk` of an object of `entity` or a sub-entity.
    private static func missing(
        in table: String, column: String, kindOf entity: String, _ layout: StoreLayout, _ connection: SQLiteConnection
    ) throws(RemodelError) -> Int64? {
        guard let destination = layout.table(forEntity: entity) else { return nil }
        let kinds = layout.kinds(of: entity)
        // Where every entity of the destination's table qualifies, the key alone decides.
        let kindTest =
            Set(kinds) == Set(destination.entities)
            ? "" : " AND d.\(StoreColumn.entity) IN (\(kinds.map(quoteLiteral).joined(separator: ", ")))"
        let key = quoteIdentifier(column)
        let sql =
            "SELECT k FROM (SELECT DISTINCT \(key) AS k FROM main.\(quoteIdentifier(table)) WHERE \(key) IS NOT NULL) "
            + "WHERE NOT EXISTS (SELECT 1 FROM main.\(quoteIdentifier(destination.name)) AS d WHERE d.\(StoreColumn.pk) = k\(kindTest)) LIMIT 1"
        guard case .integer(let value)? = try connection.scalar(sql) else { return nil }
        return value
    }
}
