/// Phase 1: creates the destination objects of each entity mapping and
/// computes their attributes, one `INSERT … SELECT` per batch of source keys.
struct InstanceCopier {
    let context: StepContext

    /// What phase 1 found: the to-one columns filled with the source's keys as they are, for phase 2 to clean,
    /// and the values a conversion, an expression or a policy turned into nil.
    struct Copied {
        var toOnes: [CopiedToOneColumn] = []
        var losses: [DataLoss] = []
    }

    /// Copies the objects of the tables the step rebuilds (those of carried tables are in the copy already).
    func run() throws(RemodelError) -> Copied {
        if context.keys.needsKeyTable {
            try context.connection.execute(KeyPlan.createKeyTableSQL)
        }
        if !context.destination.composites.isEmpty {
            try CompositeReshapes(source: context.source, destination: context.destination).register(
                on: context.connection)
        }
        var nextKey: [String: Int64] = [:]
        // The objects of a table that stays keep their keys; the others are numbered after its largest.
        for table in context.destinationLayout.tables where context.changes.isRebuilt(table.name) {
            if let staying = context.keys.staying(into: table.name) {
                nextKey[table.name] = try maximumKey(of: staying)
            }
        }
        let mappings = context.resolvedMappings.filter {
            !$0.sourceEntity.isAbstract && context.changes.isRebuilt($0.destinationTable)
        }
        var progress = PhaseProgress(total: 0)
        var bounds: [Int: [SQLiteValue]] = [:]
        for resolved in mappings {
            bounds[resolved.index] = try sourceBounds(of: resolved)
            progress.total += Int(bounds[resolved.index]?[2].integerValue ?? 0)
        }
        try context.tracker.report(
            .instances, pass: context.pass, entity: nil, completed: 0, total: progress.total, force: true)
        var copied = Copied()
        for resolved in mappings {
            let one = try copy(resolved, bounds: bounds[resolved.index], nextKey: &nextKey, progress: &progress)
            copied.toOnes += one.toOnes
            copied.losses += one.losses
        }
        if context.keys.needsKeyTable {
            try PageCaches.buildingIndexes(on: context.connection) { () throws(RemodelError) in
                try context.connection.execute(KeyPlan.indexKeyTableSQL)
            }
        }
        return copied
    }

    /// Rows done across every entity mapping of the phase.
    struct PhaseProgress {
        var total: Int
        var completed = 0
    }

    /// The largest `_pk` of a source table (0 when it is empty).
    private func maximumKey(of sourceTable: String) throws(RemodelError) -> Int64 {
        try context.connection.scalar(
            "SELECT max(\(StoreColumn.pk)) FROM \(context.sourceTables(sourceTable))")?.integerValue ?? 0
    }

    /// `min(_pk)`, `max(_pk)` and `count(*)` of the mapping's source objects: the count for the progress
    /// total, the keys for the batches.
    private func sourceBounds(of resolved: ResolvedEntityMapping) throws(RemodelError) -> [SQLiteValue]? {
        let sourceName = resolved.sourceEntity.name
        guard let table = context.sourceLayout.table(forEntity: sourceName) else { return nil }
        let name = context.sourceTables(table.name)
        if table.entities == [sourceName] {
            // The table holds this entity only: min and max are one b-tree descent each and count(*) decodes
            // no row, where filtering on `_entity` reads every row. The batches still copy only this entity's rows.
            // Counted already when the table was searched after the copy: not read a second time for the count.
            if let rows = context.census?.counts(of: table.name)?.rows,
                let keys = try context.connection.rows(
                    "SELECT (SELECT min(\(StoreColumn.pk)) FROM \(name)), (SELECT max(\(StoreColumn.pk)) FROM \(name))"
                ).first
            {
                return keys + [.integer(Int64(rows))]
            }
            return try context.connection.rows(
                "SELECT (SELECT min(\(StoreColumn.pk)) FROM \(name)), (SELECT max(\(StoreColumn.pk)) FROM \(name)), (SELECT count(*) FROM \(name))"
            ).first
        }
        return try context.connection.rows(
            "SELECT min(\(StoreColumn.pk)), max(\(StoreColumn.pk)), count(*) FROM \(name) WHERE \(StoreColumn.entity) = ?",
            [.text(sourceName)]
        ).first
    }

    /// The destination columns an `INSERT … SELECT` fills and their value SQL over the source row `s`,
    /// with the parameters of every value, in order.
    struct Insert {
        var columns: [String] = []
        var values: [String] = []
        var parameters: [SQLiteValue] = []
        /// The to-one columns among them, filled with the source's keys as they are.
        var copiedToOnes: [CopiedToOneColumn] = []
        /// The attributes whose values can become nil where their source values are not.
        var watched: [NilValueCount.Watched] = []
    }

    private func copy(
        _ resolved: ResolvedEntityMapping, bounds: [SQLiteValue]?, nextKey: inout [String: Int64],
        progress: inout PhaseProgress
    ) throws(RemodelError) -> Copied {
        let (mapping, index) = (resolved.mapping, resolved.index)
        let (sourceEntity, destinationEntity) = (resolved.sourceEntity, resolved.destinationEntity)
        let (sourceName, destinationName) = (sourceEntity.name, destinationEntity.name)
        let (sourceTable, destinationTable) = (resolved.sourceTable, resolved.destinationTable)
        let connection = context.connection
        var insert = try valueColumns(resolved)
        guard let bounds, case .integer(let low) = bounds[0], case .integer(let high) = bounds[1],
            case .integer(let total) = bounds[2]
        else { return Copied(toOnes: insert.copiedToOnes) }
        let startedAt = progress.completed
        let filter = try mapping.filter.map { expression throws(RemodelError) in
            try context.compile(expression, checked: resolved.checkedFilter, over: sourceEntity, into: nil)
        }
        if let policy = context.policies[destinationName] {
            // Keys of extra objects start above every key of the source table (kept keys stay unique).
            var next: Int64
            if let known = nextKey[destinationTable] {
                next = known
            } else {
                next = try maximumKey(of: sourceTable)
            }
            try PolicyCopier(context: context, policy: policy).copy(
                mapping, index: index, sourceEntity: sourceEntity, destinationEntity: destinationEntity,
                checkedFilter: resolved.checkedFilter, nextKey: &next, progress: &progress)
            nextKey[destinationTable] = next
            return Copied(losses: try NilValueCount(context: context, resolved: resolved).run(policyWatched(resolved)))
        }
        let remapped = context.keys.mode(ofDestinationTable: destinationTable) == .remapped
        let sourceFrom = "\(context.sourceTables(sourceTable)) AS s"
        let range = "s.\(StoreColumn.entity) = ? AND s.\(StoreColumn.pk) > ? AND s.\(StoreColumn.pk) <= ?"
        let filterSQL = filter.map { " AND (\($0.sql))" } ?? ""
        let columnList = ([StoreColumn.pk, StoreColumn.entity] + insert.columns).map(quoteIdentifier).joined(
            separator: ", ")
        insert.parameters.insert(.text(destinationName), at: 0)

        // An object of the table that stays keeps its key (recorded as it is, for the links); others take the next.
        let keeps = context.keys.keepingMappings.contains(index)
        let newKey = keeps ? "s.\(StoreColumn.pk)" : "? + row_number() OVER (ORDER BY s.\(StoreColumn.pk))"
        let keySQL =
            "INSERT INTO \"_RemodelKeys\" (mapping, source_table, source_pk, destination_table, destination_pk) SELECT ?, ?, s.\(StoreColumn.pk), ?, \(newKey) FROM \(sourceFrom) WHERE \(range)\(filterSQL)"
        let copySQL: String
        if remapped {
            copySQL =
                "INSERT INTO main.\(quoteIdentifier(destinationTable)) (\(columnList)) SELECT k.destination_pk, ?\(insert.values.map { ", " + $0 }.joined()) FROM \(sourceFrom) JOIN \"_RemodelKeys\" AS k ON k.mapping = ? AND k.source_pk = s.\(StoreColumn.pk) WHERE \(range)"
        } else {
            copySQL =
                "INSERT INTO main.\(quoteIdentifier(destinationTable)) (\(columnList)) SELECT s.\(StoreColumn.pk), ?\(insert.values.map { ", " + $0 }.joined()) FROM \(sourceFrom) WHERE \(range)\(filterSQL)"
        }
        let copyStatement = try connection.prepare(copySQL)
        let keyStatement = remapped ? try connection.prepare(keySQL) : nil
        var lower = low - 1
        while lower < high {
            let upper = lower + Int64(context.batchSize) >= high ? high : lower + Int64(context.batchSize)
            let rangeValues: [SQLiteValue] = [.text(sourceName), .integer(lower), .integer(upper)]
            try connection.transaction { () throws(RemodelError) in
                if let keyStatement {
                    let base = nextKey[destinationTable, default: 0]
                    try keyStatement.bind(
                        [.integer(Int64(index)), .text(sourceTable), .text(destinationTable)]
                            + (keeps ? [] : [.integer(base)]) + rangeValues + (filter?.parameters ?? []))
                    try keyStatement.step()
                    if !keeps { nextKey[destinationTable] = base + Int64(connection.changes) }
                    try copyStatement.bind(insert.parameters + [.integer(Int64(index))] + rangeValues)
                } else {
                    try copyStatement.bind(insert.parameters + rangeValues + (filter?.parameters ?? []))
                }
                try copyStatement.step()
            }
            FaultPoint.afterBatch.reach()
            let done = Double(upper - low + 1) / Double(high - low + 1)
            progress.completed = startedAt + Int(done * Double(total))
            try context.tracker.report(
                .instances, pass: context.pass, entity: destinationName, completed: progress.completed,
                total: progress.total)
            lower = upper
        }
        let losses = try NilValueCount(context: context, resolved: resolved).run(insert.watched)
        return Copied(toOnes: insert.copiedToOnes, losses: losses)
    }

    /// The attribute columns (and directly copied to-one columns) with their value SQL.
    func valueColumns(_ resolved: ResolvedEntityMapping) throws(RemodelError) -> Insert {
        let (mapping, sourceEntity, destinationEntity) = (
            resolved.mapping, resolved.sourceEntity, resolved.destinationEntity
        )
        var insert = Insert()
        for attributeMapping in mapping.attributes {
            guard
                let attribute = context.destination.attribute(
                    named: attributeMapping.destination, in: destinationEntity),
                attribute.isStored,
                // A derived attribute is computed once the step's rows are in (a timestamp is carried).
                !context.destinationLayout.storeComputes(attribute.name, in: destinationEntity.name)
            else { continue }
            let fallback = ModelDefaultValue.stored(for: attribute)
            var sql: String
            var parameters: [SQLiteValue] = []
            if let value = attributeMapping.value {
                if let sourceColumn = resolved.copiedColumn(of: attributeMapping, layout: context.sourceLayout) {
                    sql = "s.\(quoteIdentifier(sourceColumn))"
                    if attribute.type == .composite, let sourceName = attributeMapping.sourceAttribute,
                        let sourceAttribute = context.source.attribute(named: sourceName, in: sourceEntity),
                        !context.destination.hasSameCompositeShape(attribute, as: sourceAttribute, in: context.source)
                    {
                        // The step changes the composite's members: each value is rewritten in the new shape.
                        sql = "\(CompositeReshapes.functionName)(\(sql), ?)"
                        parameters.append(
                            .text(
                                CompositeReshapes.key(
                                    from: sourceEntity.name, sourceName, to: destinationEntity.name, attribute.name)))
                    }
                } else {
                    let checked = try context.check(
                        value, checked: resolved.checkedValues[attributeMapping.destination], over: sourceEntity,
                        into: attribute)
                    let compiled = context.compile(checked, over: sourceEntity)
                    sql = compiled.sql
                    parameters = compiled.parameters
                    if checked.canTurnValuesIntoNil,
                        let column = context.destinationLayout.columnName(
                            of: attribute.name, in: destinationEntity.name)
                    {
                        insert.watched.append(
                            NilValueCount.Watched(
                                attribute: attribute.name, column: column, expression: value.text,
                                inputs: checked.inputs,
                                fallback: attribute.isOptional ? nil : fallback.map { ($0, compiled) }))
                    }
                }
                if let fallback, !attribute.isOptional {
                    sql = "coalesce(\(sql), ?)"
                    parameters.append(fallback)
                }
            } else if let fallback {
                sql = "?"
                parameters = [fallback]
            } else {
                continue
            }
            guard let column = context.destinationLayout.columnName(of: attribute.name, in: destinationEntity.name)
            else { continue }
            insert.columns.append(column)
            insert.values.append(sql)
            insert.parameters += parameters
        }
        for relationshipMapping in mapping.relationships {
            guard let sourceName = relationshipMapping.source,
                let relationship = context.destination.relationship(
                    named: relationshipMapping.destination, in: destinationEntity),
                let sourceRelationship = context.source.relationship(named: sourceName, in: sourceEntity),
                context.canCopyLinks(relationship, in: destinationEntity, from: sourceRelationship, in: sourceEntity),
                case .column(let table, let column)? = context.destinationLayout.storage(
                    of: relationship.name, in: destinationEntity.name),
                case .column(_, let sourceColumn)? = context.sourceLayout.storage(of: sourceName, in: sourceEntity.name)
            else { continue }
            insert.columns.append(column)
            insert.values.append("s.\(quoteIdentifier(sourceColumn))")
            insert.copiedToOnes.append(
                CopiedToOneColumn(
                    mappingIndex: resolved.index, table: table, column: column, relationship: relationship))
        }
        return insert
    }

    /// The attributes a policy fills that inference maps from a source attribute: the policy turned that
    /// attribute's value into nil where the destination is nil and the source is not.
    private func policyWatched(_ resolved: ResolvedEntityMapping) -> [NilValueCount.Watched] {
        resolved.mapping.attributes.compactMap { attributeMapping in
            guard let from = attributeMapping.sourceAttribute,
                let attribute = context.destination.attribute(
                    named: attributeMapping.destination, in: resolved.destinationEntity),
                attribute.isStored,
                context.source.attribute(named: from, in: resolved.sourceEntity)?.isStored == true,
                let column = context.destinationLayout.columnName(
                    of: attribute.name, in: resolved.destinationEntity.name)
            else { return nil }
            return NilValueCount.Watched(
                attribute: attribute.name, column: column, expression: nil,
                inputs: [CheckedExpression.Input(name: from, path: [], isCount: false)], fallback: nil)
        }
    }
}
