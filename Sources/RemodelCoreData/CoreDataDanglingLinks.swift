import Remodel

/// The links of an imported store that name an object the Core Data store does not have: each one listed
/// (entity, `Z_PK`, relationship, key), then refused together or left out
/// (``CoreDataImport/DanglingLinks``). Core Data itself keeps such a store working: the link is a fault,
/// and when it fires the context turns the object it cannot find into a deleted one
/// (`shouldDeleteInaccessibleFaults`, true by default) or throws "CoreData could not fulfill a fault"
/// (docs/CORE-DATA-STORES.md, "Damage").
enum CoreDataDanglingLinks {
    /// A dangling link and where it is in the new store.
    struct Found: Hashable {
        var link: CoreDataImport.DroppedLink
        /// The entity that declares the relationship (the one an error names with it).
        var declaringEntity: String
        /// Whether the model requires the link (a required to-one): leaving it out would break the model.
        var isRequired: Bool
        var place: Place

        enum Place: Hashable {
            /// A to-one column of an object (and the column of its position in an ordered inverse, if any).
            case toOne(table: String, column: String, order: String?, key: Int64)
            /// A join-table row.
            case joinRow(table: String, source: SQLiteValue, destination: SQLiteValue)
        }
    }

    /// The objects of `table` whose to-one `column` names no object of `destination`'s kind.
    static func toOnes(
        in table: String, column: String, declaredBy entity: String, relationship: String, destination: String,
        _ layout: StoreLayout, _ connection: SQLiteConnection
    ) throws(RemodelError) -> [Found] {
        guard let target = layout.table(forEntity: destination) else { return [] }
        let key = "t.\(quoteIdentifier(column))"
        let rows = try connection.rows(
            "SELECT t.\(StoreColumn.pk), t.\(StoreColumn.entity), \(key) FROM main.\(quoteIdentifier(table)) AS t "
                + "WHERE \(key) IS NOT NULL AND \(absent(key, from: target, kindOf: destination, layout)) ORDER BY t.\(StoreColumn.pk)"
        )
        let order = layout.orderColumnByToOne[StoreLayout.PropertyKey(entity: entity, property: relationship)]
        return rows.compactMap { row in
            guard case .integer(let primaryKey) = row[0], case .text(let concrete) = row[1] else { return nil }
            let required =
                layout.version.entity(named: concrete).flatMap { object in
                    layout.version.relationships(of: object).first { $0.name == relationship }
                }.map { !$0.isOptional } ?? false
            let link = CoreDataImport.DroppedLink(
                entity: concrete, primaryKey: primaryKey, relationship: relationship,
                key: CoreDataReferenceCheck.text(row[2]), destination: destination)
            return Found(
                link: link, declaringEntity: entity, isRequired: required,
                place: .toOne(table: table, column: column, order: order, key: primaryKey))
        }
    }

    /// The rows of `join` whose source (`missingSource`) or destination names no object of that side's kind.
    static func joinRows(
        of join: StoreLayout.JoinTable, missingSource: Bool, _ layout: StoreLayout, _ connection: SQLiteConnection
    ) throws(RemodelError) -> [Found] {
        let kind = missingSource ? join.sourceEntity : join.destinationEntity
        guard let target = layout.table(forEntity: kind) else { return [] }
        let source = "j.\(quoteIdentifier(StoreLayout.JoinTable.sourceColumn))"
        let destination = "j.\(quoteIdentifier(StoreLayout.JoinTable.destinationColumn))"
        let side = missingSource ? source : destination
        let rows = try connection.rows(
            "SELECT \(source), \(destination) FROM main.\(quoteIdentifier(join.name)) AS j "
                + "WHERE \(absent(side, from: target, kindOf: kind, layout)) ORDER BY \(source), \(destination)")
        var found: [Found] = []
        for row in rows {
            // The link as the object holding it sees it: the owner's relationship, or, when the owner is the
            // missing one, the member's inverse.
            let (holder, held, holderEntity, relationship, heldEntity):
                (SQLiteValue, SQLiteValue, String, String, String)
            if missingSource, let inverse = join.destinationRelationship {
                (holder, held, holderEntity, relationship, heldEntity) =
                    (row[1], row[0], join.destinationEntity, inverse, join.sourceEntity)
            } else {
                (holder, held, holderEntity, relationship, heldEntity) =
                    (row[0], row[1], join.sourceEntity, join.sourceRelationship, join.destinationEntity)
            }
            let concrete = try entity(of: holder, in: holderEntity, layout, connection) ?? holderEntity
            let link = CoreDataImport.DroppedLink(
                entity: concrete, primaryKey: holder.coreDataInteger ?? 0, relationship: relationship,
                key: CoreDataReferenceCheck.text(held), destination: heldEntity)
            found.append(
                Found(
                    link: link, declaringEntity: missingSource ? join.destinationEntity : join.sourceEntity,
                    isRequired: false,
                    place: .joinRow(table: join.name, source: row[0], destination: row[1])))
        }
        return found
    }

    /// SQL true where `key` is not the `_pk` of an object of `entity` or a sub-entity in `target`.
    private static func absent(
        _ key: String, from target: StoreLayout.Table, kindOf entity: String, _ layout: StoreLayout
    ) -> String {
        let kinds = layout.kinds(of: entity)
        let kindTest =
            Set(kinds) == Set(target.entities)
            ? "" : " AND d.\(StoreColumn.entity) IN (\(kinds.map(quoteLiteral).joined(separator: ", ")))"
        return
            "(typeof(\(key)) != 'integer' OR NOT EXISTS (SELECT 1 FROM main.\(quoteIdentifier(target.name)) AS d WHERE d.\(StoreColumn.pk) = \(key)\(kindTest)))"
    }

    /// The concrete entity of the object `key` of `entity`'s table, if there is one.
    private static func entity(
        of key: SQLiteValue, in entity: String, _ layout: StoreLayout, _ connection: SQLiteConnection
    ) throws(RemodelError) -> String? {
        guard let table = layout.table(forEntity: entity), case .integer = key else { return nil }
        guard
            case .text(let name)? = try connection.scalar(
                "SELECT \(StoreColumn.entity) FROM main.\(quoteIdentifier(table.name)) WHERE \(StoreColumn.pk) = ?",
                [key])
        else { return nil }
        return name
    }

    /// Each link once (a join row missing both its objects is found from both sides), in the order found.
    static func unique(_ found: [Found]) -> [Found] {
        var seen: Set<Found.Place> = []
        return found.filter { seen.insert($0.place).inserted }
    }

    /// The refusal listing every dangling link.
    static func refusal(
        _ found: [Found], required: [Found], policy: CoreDataImport.DanglingLinks, source: String
    ) -> RemodelError {
        let listed = found.map { item -> String in
            let link = item.link
            let relationship =
                "\(link.entity) \(CoreDataName.primaryKey) \(link.primaryKey) relationship \"\(link.relationship)\""
            switch item.place {
            case .toOne:
                return
                    "\(relationship) names \(CoreDataName.primaryKey) \(link.key), but the store has no \(link.destination) with that key"
            case .joinRow:
                return
                    "\(relationship) links \(CoreDataName.primaryKey) \(link.key) as a \(link.destination), but the store has no \(link.destination) with that key"
            }
        }
        let count = found.count == 1 ? "a link names" : "\(found.count) links name"
        let remedy: String
        if policy == .drop {
            let names = required.map { "\($0.link.entity).\($0.link.relationship)" }
            remedy =
                "\(Set(names).sorted().joined(separator: ", ")) \(Set(names).count == 1 ? "is" : "are") required by the model, so \(required.count == 1 ? "that link" : "those links") cannot be left out: open the store with the app to repair it"
        } else {
            remedy =
                "import without them with --dangling-links drop (Core Data turns an object it cannot find into a deleted one when the link is followed), or open the store with the app to repair it"
        }
        let first = found[0]
        return RemodelError(
            .invalidValue,
            "\(count) an object the store does not have: \(listed.joined(separator: "; ")); nothing was imported: \(remedy)",
            path: source, entity: first.declaringEntity, property: first.link.relationship,
            primaryKey: first.link.primaryKey)
    }

    /// Leaves every dangling link out of the new store: a to-one becomes nil (with its position in an
    /// ordered inverse), a join row goes, and the positions left in its ordered relationships are counted
    /// again from 0.
    static func drop(_ found: [Found], _ layout: StoreLayout, _ connection: SQLiteConnection) throws(RemodelError) {
        var joins: Set<String> = []
        for item in found {
            switch item.place {
            case .toOne(let table, let column, let order, let key):
                let orderClear = order.map { ", \(quoteIdentifier($0)) = NULL" } ?? ""
                try connection.run(
                    "UPDATE main.\(quoteIdentifier(table)) SET \(quoteIdentifier(column)) = NULL\(orderClear) WHERE \(StoreColumn.pk) = ?",
                    [.integer(key)])
            case .joinRow(let table, let source, let destination):
                try connection.run(
                    "DELETE FROM main.\(quoteIdentifier(table)) WHERE \(quoteIdentifier(StoreLayout.JoinTable.sourceColumn)) IS ? AND \(quoteIdentifier(StoreLayout.JoinTable.destinationColumn)) IS ?",
                    [source, destination])
                joins.insert(table)
            }
        }
        for join in layout.joinTables where joins.contains(join.name) {
            if join.sourceIsOrdered {
                try rank(
                    join.name, order: StoreColumn.joinSourceOrder, within: StoreLayout.JoinTable.sourceColumn,
                    connection)
            }
            if join.destinationIsOrdered {
                try rank(
                    join.name, order: StoreColumn.joinDestinationOrder,
                    within: StoreLayout.JoinTable.destinationColumn, connection)
            }
        }
    }

    /// Counts the positions of `order` again from 0 within each `within`, keeping their order.
    private static func rank(_ table: String, order: String, within: String, _ connection: SQLiteConnection)
        throws(RemodelError)
    {
        let (name, position, owner) = (quoteIdentifier(table), quoteIdentifier(order), quoteIdentifier(within))
        try connection.execute(
            "UPDATE main.\(name) SET \(position) = (SELECT count(*) FROM main.\(name) AS o WHERE o.\(owner) = main.\(name).\(owner) AND o.\(position) < main.\(name).\(position)) WHERE \(position) IS NOT NULL"
        )
    }
}
