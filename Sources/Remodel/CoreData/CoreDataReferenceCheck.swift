/// After the copy: every to-one and every join-table row must name an object of the destination's
/// kind. Core Data keeps its stores consistent, but a damaged store or one edited by hand may not be:
/// a link to nothing is refused, naming both objects, rather than imported dangling.
enum CoreDataReferenceCheck {
    static func check(_ layout: StoreLayout, on connection: SQLiteConnection, source: String) throws(RemodelError) {
        for table in layout.tables {
            for column in table.columns {
                guard case .toOne(let entity, let relationship, let destination) = column.content else { continue }
                let sql = "SELECT t._pk, t._entity, t.\(quoteIdentifier(column.name)) FROM main.\(quoteIdentifier(table.name)) AS t "
                    + "WHERE t.\(quoteIdentifier(column.name)) IS NOT NULL AND NOT \(exists(layout, destination, "t.\(quoteIdentifier(column.name))")) ORDER BY t._pk LIMIT 1"
                guard let row = try connection.rows(sql).first, case .integer(let key) = row[0], case .text(let concrete) = row[1],
                    case .integer(let target) = row[2]
                else { continue }
                throw RemodelError(
                    .invalidValue,
                    "\(concrete) Z_PK \(key) relationship \"\(relationship)\" names Z_PK \(target), but the store has no \(destination) with that key; nothing was imported: open the store with the app to repair it",
                    path: source, entity: entity, property: relationship, primaryKey: key)
            }
        }
        for join in layout.joinTables {
            let sides = [
                (StoreLayout.JoinTable.sourceColumn, StoreLayout.JoinTable.destinationColumn, join.sourceEntity, join.sourceRelationship),
                (StoreLayout.JoinTable.destinationColumn, StoreLayout.JoinTable.sourceColumn, join.destinationEntity, join.sourceRelationship),
            ]
            for (column, other, entity, relationship) in sides {
                let sql = "SELECT j.\(quoteIdentifier(other)), j.\(quoteIdentifier(column)) FROM main.\(quoteIdentifier(join.name)) AS j "
                    + "WHERE NOT \(exists(layout, entity, "j.\(quoteIdentifier(column))")) LIMIT 1"
                guard let row = try connection.rows(sql).first, case .integer(let target) = row[1] else { continue }
                throw RemodelError(
                    .invalidValue,
                    "the join table of \(join.sourceEntity).\(relationship) links Z_PK \(target) as a \(entity), but the store has no \(entity) with that key; nothing was imported: open the store with the app to repair it",
                    path: source, entity: join.sourceEntity, property: relationship, primaryKey: target)
            }
        }
    }

    /// SQL true when `key` is the `_pk` of an object of `entity` or a sub-entity.
    private static func exists(_ layout: StoreLayout, _ entity: String, _ key: String) -> String {
        let table = layout.table(forEntity: entity)?.name ?? entity
        let kinds = layout.kinds(of: entity).map(quoteLiteral).joined(separator: ", ")
        return "EXISTS (SELECT 1 FROM main.\(quoteIdentifier(table)) AS d WHERE d._pk = \(key) AND d._entity IN (\(kinds)))"
    }
}
