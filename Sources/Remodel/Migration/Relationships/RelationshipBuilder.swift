/// Phase 2: rebuilds every relationship of the destination store from the
/// source relationships it is mapped from. Each storage unit (a to-one
/// column, a join table) is written once, from the side that has a source;
/// links to objects that did not arrive (filtered, removed, changed entity)
/// are left out; ordered relationships keep their order.
struct RelationshipBuilder {
    let context: StepContext
    /// The to-one columns phase 1 filled with the source's keys as they are (none when the builder only
    /// plans, for a step passed through).
    var copied: [CopiedToOneColumn] = []
    /// Row counts asked while deciding which writes can skip their checks, each counted once.
    let counts = RowCounts()

    private var source: ModelVersion { context.source }
    private var destination: ModelVersion { context.destination }
    private var connection: SQLiteConnection { context.connection }

    /// Rebuilds the relationships of the tables the step rebuilds (links stored in carried tables are in the
    /// copy already). Progress counts rows: each unit weighs the rows of the table it updates.
    func run() throws(RemodelError) {
        let work = plannedWrites { storage in
            switch storage {
            case .column(let table, _), .inverseColumn(let table, _, _): return context.changes.isRebuilt(table)
            case .joinTable(let name, _, _): return context.changes.isRebuilt(name)
            }
        }
        let orders = orderColumns().filter { context.changes.isRebuilt($0.table) }
        let weights =
            try progressRows(of: work.map { context.destinationLayout.table(forEntity: $0.entity.name)?.name })
            + progressRows(of: copied.map(\.table)) + progressRows(of: orders.map(\.table))
        let progress = try PhaseCounter(.relationships, pass: context.pass, weights: weights, tracker: context.tracker)
        for write in work {
            try connection.transaction { () throws(RemodelError) in try perform(write) }
            try progress.done(write.entity.name)
        }
        for copied in copied {
            try removeDanglingLinks(table: copied.table, column: copied.column, relationship: copied.relationship)
            try progress.done(copied.table)
        }
        for order in orders {
            try renumber(order)
            try progress.done(order.table)
        }
    }

    // MARK: - What to write

    /// One relationship mapping that writes its storage.
    struct Write {
        var mappingIndex: Int
        var sourceEntity: Entity
        var entity: Entity
        var relationship: Relationship
        var sourceRelationship: Relationship
        var storage: StoreLayout.RelationshipStorage
        /// Whether the write only sets this side's positions in a join table the other side fills
        /// (an ordered many-to-many keeps the order of both sides).
        var onlyPositions = false
    }

    /// The writes of the relationships whose storage `wanted` keeps (a step writes those of the tables it
    /// rebuilds: the others' links are in the copy already, and are not even looked at).
    func plannedWrites(storedIn wanted: (StoreLayout.RelationshipStorage) -> Bool = { _ in true }) -> [Write] {
        var writes: [Write] = []
        // A column one entity mapping's objects got in phase 1 still needs writing for another's (a policy's objects).
        let copiedColumns = Set(copied.map { "\($0.mappingIndex) \($0.table).\($0.column)" })
        for resolved in context.resolvedMappings where !resolved.sourceEntity.isAbstract {
            let (index, mapping, sourceEntity, entity) = (
                resolved.index, resolved.mapping, resolved.sourceEntity, resolved.destinationEntity
            )
            for relationshipMapping in mapping.relationships {
                guard relationshipMapping.source != nil,
                    let stored = context.destinationLayout.storage(
                        of: relationshipMapping.destination, in: entity.name),
                    wanted(stored)
                else { continue }
                guard let sourceRelationshipName = relationshipMapping.source,
                    let relationship = destination.relationship(named: relationshipMapping.destination, in: entity),
                    let sourceRelationship = relationshipMapping.readsSourceObject
                        ? Relationship(name: sourceRelationshipName, destinationEntity: sourceEntity.name)
                        : source.relationship(named: sourceRelationshipName, in: sourceEntity),
                    let storage = context.destinationLayout.storage(of: relationship.name, in: entity.name)
                else { continue }
                let write = Write(
                    mappingIndex: index, sourceEntity: sourceEntity, entity: entity, relationship: relationship,
                    sourceRelationship: sourceRelationship, storage: storage)
                switch storage {
                case .column(let table, let column):
                    if !copiedColumns.contains("\(index) \(table).\(column)") || !copiedDirectly(write) {
                        writes.append(write)
                    }
                case .inverseColumn:
                    if !inverseHasSource(relationship) || relationship.isOrdered { writes.append(write) }
                case .joinTable(_, let ownerIsSource, let orderColumn):
                    if ownerIsSource || !inverseHasSource(relationship) {
                        writes.append(write)
                    } else if orderColumn != nil, sourceRelationship.isOrdered {
                        var positions = write
                        positions.onlyPositions = true
                        writes.append(positions)
                    }
                }
            }
        }
        // Positions go into rows the other side writes: after every insert.
        return writes.filter { !$0.onlyPositions } + writes.filter(\.onlyPositions)
    }

    private func copiedDirectly(_ write: Write) -> Bool {
        context.canCopyLinks(
            write.relationship, in: write.entity, from: write.sourceRelationship, in: write.sourceEntity)
    }

    /// Whether the inverse of a destination relationship is itself mapped from a source relationship.
    private func inverseHasSource(_ relationship: Relationship) -> Bool {
        guard let inverseName = relationship.inverseName, let target = relationship.destinationEntity else {
            return false
        }
        for mapping in context.mapping.entities {
            guard let destinationName = mapping.destination, let entity = destination.entity(named: destinationName),
                destination.entity(entity, isKindOf: target)
            else { continue }
            if mapping.relationship(inverseName)?.source != nil { return true }
        }
        return false
    }

    // MARK: - Writing

    /// `(a2, b2, position)`: the source links of one entity mapping in destination keys, only where both objects arrived.
    private func mappedLinks(_ write: Write, parameters: inout [SQLiteValue]) -> String? {
        guard
            let links = RelationshipLinks.sql(
                of: write.sourceRelationship.name, in: write.sourceEntity.name, layout: context.sourceLayout,
                tables: context.sourceTables),
            let sourceTable = context.sourceLayout.table(forEntity: write.sourceEntity.name)?.name,
            let table = context.destinationLayout.table(forEntity: write.entity.name)?.name,
            let targetSourceName = write.sourceRelationship.destinationEntity,
            let targetSourceTable = context.sourceLayout.table(forEntity: targetSourceName)?.name,
            let targetName = write.relationship.destinationEntity,
            let targetTable = context.destinationLayout.table(forEntity: targetName)?.name
        else { return nil }
        var keyParameters: [SQLiteValue] = []
        let a2: String
        if context.keys.mode(ofDestinationTable: table) == .remapped {
            keyParameters.append(.integer(Int64(write.mappingIndex)))
            a2 = "(SELECT k.destination_pk FROM \"_RemodelKeys\" AS k WHERE k.mapping = ? AND k.source_pk = l.a)"
        } else {
            a2 = "l.a"
        }
        let b2 = context.keys.destinationKeySQL(
            sourcePK: "l.b", sourceTable: targetSourceTable, destinationTable: targetTable, parameters: &keyParameters)
        var tail: [SQLiteValue] = [.text(write.sourceEntity.name)]
        let kinds = placeholders(destination.concreteKinds(of: targetName), &tail)
        // With preserved keys and no filter, phase 1 copied every source object of this entity that the
        // join with `o` lets through, so checking that the owner arrived would only repeat the join.
        var ownerCopiedWhole = false
        if case .preserved? = context.keys.mode(ofDestinationTable: table) {
            // A policy may skip objects, as a filter does.
            ownerCopiedWhole =
                context.mapping.entities[write.mappingIndex].filter == nil && context.policies[write.entity.name] == nil
        }
        var ownerArrived = ""
        if !ownerCopiedWhole {
            ownerArrived =
                " AND +m.a2 IN (SELECT \(StoreColumn.pk) FROM main.\(quoteIdentifier(table)) WHERE \(StoreColumn.entity) = ?)"
            tail.append(.text(write.entity.name))
        }
        parameters += keyParameters + tail
        // The unary `+` keeps SQLite from driving the join with the two IN lists: with preserved keys
        // `m.a2`/`m.b2` are the link table's own columns, and without statistics the planner would
        // look up every (owner, target) pair of the lists in the link table's index, |owners| × |targets|
        // probes (49 million for 100 000 objects). The filter stays the same; only its use as an index goes.
        return """
            SELECT m.a2, m.b2, m.position FROM (SELECT \(a2) AS a2, \(b2) AS b2, l.position AS position \
            FROM (\(links)) AS l JOIN \(context.sourceTables(sourceTable)) AS o ON o.\(StoreColumn.pk) = l.a AND o.\(StoreColumn.entity) = ?) AS m \
            WHERE +m.b2 IN (SELECT \(StoreColumn.pk) FROM main.\(quoteIdentifier(targetTable)) WHERE \(StoreColumn.entity) IN (\(kinds)))\(ownerArrived)
            """
    }

    private func perform(_ write: Write) throws(RemodelError) {
        var parameters: [SQLiteValue] = []
        let found: String?
        if case .joinTable = write.storage, try bothEndsArrivedWhole(write) {
            found = sourceLinks(write)
        } else {
            found = mappedLinks(write, parameters: &parameters)
        }
        guard let links = found else { return }
        let sql: String
        switch write.storage {
        case .column(let table, let column):
            let name = quoteIdentifier(table)
            sql =
                "UPDATE main.\(name) SET \(quoteIdentifier(column)) = l.b2 FROM (\(links)) AS l WHERE main.\(name).\(StoreColumn.pk) = l.a2"
        case .inverseColumn(let table, let column, let orderColumn):
            let name = quoteIdentifier(table)
            var assignments: [String] = []
            if !inverseHasSource(write.relationship) { assignments.append("\(quoteIdentifier(column)) = l.a2") }
            if let orderColumn, write.sourceRelationship.isOrdered {
                assignments.append("\(quoteIdentifier(orderColumn)) = l.position")
            }
            guard !assignments.isEmpty else { return }
            sql =
                "UPDATE main.\(name) SET \(assignments.joined(separator: ", ")) FROM (\(links)) AS l WHERE main.\(name).\(StoreColumn.pk) = l.b2"
        case .joinTable(let name, let ownerIsSource, let orderColumn):
            let position = orderColumn != nil && write.sourceRelationship.isOrdered ? "position" : "NULL"
            if write.onlyPositions, let orderColumn {
                // The rows are the other side's; this side's positions go to its own order column.
                let table = "main.\(quoteIdentifier(name))"
                let (mine, other) = ownerIsSource ? ("source", "destination") : ("destination", "source")
                sql =
                    "UPDATE \(table) SET \(quoteIdentifier(orderColumn)) = l.position FROM (\(links)) AS l WHERE \(table).\"\(mine)\" = l.a2 AND \(table).\"\(other)\" = l.b2"
            } else if ownerIsSource {
                sql =
                    "INSERT OR IGNORE INTO main.\(quoteIdentifier(name)) (source, destination, source_order) SELECT a2, b2, \(position) FROM (\(links))"
            } else {
                sql =
                    "INSERT OR IGNORE INTO main.\(quoteIdentifier(name)) (source, destination, destination_order) SELECT b2, a2, \(position) FROM (\(links))"
            }
        }
        try connection.run(sql, parameters)
    }

    // MARK: - Order

    /// A column holding positions: the group column and the position column.
    struct OrderColumn {
        var table: String
        var group: String
        var position: String
        var member: String
        /// The columns that identify a row (join tables have no rowid of their own to rely on).
        var keys: [String]
    }

    func orderColumns() -> [OrderColumn] {
        var result: [OrderColumn] = []
        for table in context.destinationLayout.tables {
            for column in table.columns {
                if case .order(_, _, let inverse) = column.content {
                    // Positions are numbered within each owner: the objects sharing a value of the inverse's column.
                    result.append(
                        OrderColumn(
                            table: table.name, group: inverse, position: column.name, member: StoreColumn.pk,
                            keys: [StoreColumn.pk]))
                }
            }
        }
        for join in context.destinationLayout.joinTables {
            if join.sourceIsOrdered {
                result.append(
                    OrderColumn(
                        table: join.name, group: "source", position: "source_order", member: "destination",
                        keys: ["source", "destination"]))
            }
            if join.destinationIsOrdered {
                result.append(
                    OrderColumn(
                        table: join.name, group: "destination", position: "destination_order", member: "source",
                        keys: ["source", "destination"]))
            }
        }
        return result
    }

    /// Makes positions dense (0, 1, 2, …) within each owner, keeping the source order and
    /// putting objects that had none after the others, by key.
    private func renumber(_ order: OrderColumn) throws(RemodelError) {
        let table = quoteIdentifier(order.table)
        let group = quoteIdentifier(order.group)
        let position = quoteIdentifier(order.position)
        let member = quoteIdentifier(order.member)
        let keys = order.keys.map(quoteIdentifier)
        let keyList = keys.joined(separator: ", ")
        let match = keys.map { "main.\(table).\($0) = r.\($0)" }.joined(separator: " AND ")
        try connection.execute(
            """
            UPDATE main.\(table) SET \(position) = r.new_position FROM (SELECT \(keyList), row_number() OVER (PARTITION BY \(group) \
            ORDER BY \(position) IS NULL, \(position), \(member)) - 1 AS new_position FROM main.\(table) WHERE \(group) IS NOT NULL) AS r \
            WHERE \(match)
            """)
        try connection.execute(
            "UPDATE main.\(table) SET \(position) = NULL WHERE \(group) IS NULL AND \(position) IS NOT NULL")
    }
}
