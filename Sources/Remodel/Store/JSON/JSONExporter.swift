/// Writes a store as JSON while reading its rows, in the deterministic format
/// of `docs/JSON.md`: concrete entities sorted by name, objects sorted by
/// `_pk`, one object a line, keys in model order.
struct JSONExporter {
    let layout: StoreLayout
    let connection: SQLiteConnection
    /// Told how many objects are written, out of the store's (counted first).
    var progress = OperationProgressReporter(nil)
    /// Only the first objects of each entity, by `_pk`; `nil` for all.
    var objectsPerEntity: Int?

    func export(to output: inout JSONOutput) throws(RemodelError) {
        let entities = layout.concreteEntitiesByName
        var written = (done: 0, total: 0)
        if progress.isObserved {
            for entity in entities {
                guard let table = layout.table(forEntity: entity.name) else { continue }
                let count = try connection.scalar(
                    "SELECT count(*) FROM \(quoteIdentifier(table.name)) WHERE \(StoreColumn.entity) = ?",
                    [.text(entity.name)])
                written.total += Int(count?.integerValue ?? 0)
            }
            progress.report("exporting", item: nil, completed: 0, total: written.total, unit: .objects)
        }
        try output.writeExport(entities: entities) { (entity, output: inout JSONOutput) throws(RemodelError) in
            try exportObjects(of: entity, to: &output, written: &written)
        }
    }

    private enum Field {
        case attribute(AttributeType)
        /// A composite: its stored text is read and written again, member by member, never printed as it is.
        case composite(AttributeCodec)
        case toOne
        case toMany
    }

    private func exportObjects(
        of entity: Entity, to output: inout JSONOutput, written: inout (done: Int, total: Int)
    ) throws(RemodelError) -> Int {
        guard let table = layout.table(forEntity: entity.name) else { return 0 }
        var selections = ["t.\(quoteIdentifier(StoreColumn.pk))"]
        var keys: [[UInt8]] = []
        var fields: [Field] = []
        var parameters: [SQLiteValue] = []
        for attribute in layout.storedAttributes(of: entity) {
            selections.append(
                "t.\(quoteIdentifier(layout.columnName(of: attribute.name, in: entity.name) ?? attribute.name))")
            keys.append(JSONOutput.keyBytes(attribute.name))
            if attribute.type == .composite {
                fields.append(
                    .composite(try AttributeCodec(attribute: attribute, entity: entity.name, version: layout.version)))
            } else {
                fields.append(.attribute(attribute.type))
            }
        }
        for relationship in layout.storedRelationships(of: entity) {
            guard let storage = layout.storage(of: relationship.name, in: entity.name) else { continue }
            let kinds = layout.kinds(of: relationship.destinationEntity ?? "")
            switch storage {
            case .column(_, let column):
                selections.append("t.\(quoteIdentifier(column))")
                fields.append(.toOne)
            case .inverseColumn(let destination, let column, let orderColumn):
                let order = orderColumn.map { "\(quoteIdentifier($0)), " } ?? ""
                selections.append(
                    "(SELECT group_concat(m, ', ') FROM (SELECT \(StoreColumn.pk) AS m FROM \(quoteIdentifier(destination)) "
                        + "WHERE \(quoteIdentifier(column)) = t.\(StoreColumn.pk) AND \(StoreColumn.entity) IN (\(placeholders(kinds.count))) ORDER BY \(order)\(StoreColumn.pk)))"
                )
                parameters += kinds.map(SQLiteValue.text)
                fields.append(.toMany)
            case .joinTable(let name, let ownerIsSource, let orderColumn):
                let mine = ownerIsSource ? StoreLayout.JoinTable.sourceColumn : StoreLayout.JoinTable.destinationColumn
                let other = ownerIsSource ? StoreLayout.JoinTable.destinationColumn : StoreLayout.JoinTable.sourceColumn
                let order = orderColumn.map { "\(quoteIdentifier($0)), " } ?? ""
                selections.append(
                    "(SELECT group_concat(m, ', ') FROM (SELECT \(quoteIdentifier(other)) AS m FROM \(quoteIdentifier(name)) "
                        + "WHERE \(quoteIdentifier(mine)) = t.\(StoreColumn.pk) ORDER BY \(order)\(quoteIdentifier(other))))"
                )
                fields.append(.toMany)
            }
            keys.append(JSONOutput.keyBytes(relationship.name))
        }
        let sql =
            "SELECT \(selections.joined(separator: ", ")) FROM \(quoteIdentifier(table.name)) AS t "
            + "WHERE t.\(StoreColumn.entity) = ? ORDER BY t.\(StoreColumn.pk)"
            + (objectsPerEntity == nil ? "" : " LIMIT ?")
        let statement = try connection.prepare(sql)
        try statement.bind(parameters + [.text(entity.name)] + (objectsPerEntity.map { [.integer(Int64($0))] } ?? []))
        var count = 0
        while try statement.step() {
            output.writeObjectStart(first: count == 0, primaryKey: statement.int64(at: 0))
            for (index, field) in fields.enumerated() {
                output.writeKey(keys[index])
                let column = index + 1
                switch field {
                case .attribute(let type):
                    if statement.storageClass(at: column) == .text {
                        try statement.withUTF8(at: column) { bytes throws(RemodelError) in
                            output.writeString(utf8: bytes)
                        }
                    } else {
                        AttributeCodec.writeJSON(statement.value(at: column), type: type, to: &output)
                    }
                case .composite(let codec):
                    let value = statement.value(at: column)
                    if case .null = value {
                        output.write("null")
                    } else {
                        do {
                            output.write(raw: try codec.compositeJSON(stored: value))
                        } catch {
                            throw StoredValueCheck.damage(
                                error, entity: entity.name, primaryKey: statement.int64(at: 0),
                                attribute: codec.attribute.name)
                        }
                    }
                case .toOne:
                    if statement.storageClass(at: column) == .null {
                        output.write("null")
                    } else {
                        output.write(statement.int64(at: column))
                    }
                case .toMany:
                    output.write("[")
                    try statement.withUTF8(at: column) { bytes throws(RemodelError) in output.write(bytes: bytes) }
                    output.write("]")
                }
            }
            output.write("}")
            count += 1
            written.done += 1
            progress.report(
                "exporting", item: entity.name, completed: written.done, total: written.total, unit: .objects)
            try output.flushIfNeeded()
        }
        return count
    }

}

extension JSONOutput {
    mutating func writeKey(_ bytes: [UInt8]) { write(bytes: bytes) }
}
