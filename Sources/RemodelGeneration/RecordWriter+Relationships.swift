import Remodel

/// Relationships in generated code: a request per relationship (the caller runs it; nothing is loaded behind its
/// back), link and unlink methods that keep both sides and the order, GRDB associations with explicit foreign keys.
extension RecordWriter {
    func writeRelationships(
        _ entity: RecordShape.EntityShape, table: RecordShape.TableShape, to out: inout SwiftWriter
    ) {
        let entityLiteral = Self.literal(entity.entity.name)
        out.block("extension \(entity.typeName)") { out in
            var first = true
            for field in entity.toOnes {
                if !first { out.line() }
                first = false
                writeToOne(field, entity: entity, table: table, to: &out)
            }
            for field in entity.toManys {
                if !first { out.line() }
                first = false
                writeToMany(field, entity: entity, to: &out)
            }
            out.line()
            out.line("func _requireInserted(_ relationship: String) throws {")
            out.line(
                "    if id == .unassigned { throw \(schema).RecordError.notInserted(\(entityLiteral), relationship) }")
            out.line("}")
        }
    }

    private var pk: String { quoteIdentifier(StoreColumn.pk) }

    /// SQL counting the objects of `destination`'s kinds with one `_pk` (`?1`).
    private func existenceSQL(_ destination: String) -> String {
        let table = shape.layout.table(forEntity: destination)?.name ?? destination
        let kinds = shape.layout.kinds(of: destination).map(quoteLiteral).joined(separator: ", ")
        return
            "SELECT count(*) FROM \(quoteIdentifier(table)) WHERE \(pk) = ?1 AND \(quoteIdentifier(StoreColumn.entity)) IN (\(kinds))"
    }

    private func writeToOne(
        _ field: RecordShape.ToOneField, entity: RecordShape.EntityShape, table: RecordShape.TableShape,
        to out: inout SwiftWriter
    ) {
        let fetchType = shape.fetchType(of: field.destination)
        let key = shape.keyType(of: field.destination)
        let upper = SwiftNames.upperFirst(field.swiftName)
        let keepsInverse: Bool
        if case .none = field.inverse { keepsInverse = false } else { keepsInverse = true }
        out.doc("A request for the `\(field.relationship.name)` relationship's \(field.destination), if there is one.")
        out.block("\(open)var \(field.swiftName)Request: QueryInterfaceRequest<\(fetchType)>") { out in
            out.line(
                "\(shape.allRequest(of: field.destination)).filter(Column(\(Self.literal(StoreColumn.pk))) == \(field.swiftName)?.rawValue)"
            )
        }
        out.line()
        out.doc(
            """
            Links the object to another \(field.destination) (or to none) and writes it now, keeping the other side: \
            \(inverseSentence(field.inverse))
            - Throws: `\(schema).RecordError` when the object is not inserted or there is no such \(field.destination).
            """)
        out.block("\(open)mutating func set\(upper)(_ destination: \(key)?, in db: Database) throws") { out in
            out.line("try _requireInserted(\(Self.literal(field.relationship.name)))")
            out.block("if let destination") { out in
                out.line(
                    "try \(schema).requireObject(db, \(Self.literal(existenceSQL(field.destination))), destination.rawValue, \(Self.literal(entity.entity.name)), \(Self.literal(field.relationship.name)), \(Self.literal(field.destination)))"
                )
            }
            let quotedTable = quoteIdentifier(table.table.name)
            let column = quoteIdentifier(field.column)
            if keepsInverse {
                out.line(
                    "let old = try Int64.fetchOne(db, sql: \(Self.literal("SELECT \(column) FROM \(quotedTable) WHERE \(pk) = ?")), arguments: [id.rawValue])"
                )
            }
            out.line(
                "try db.execute(sql: \(Self.literal("UPDATE \(quotedTable) SET \(column) = ? WHERE \(pk) = ?")), arguments: [destination?.rawValue, id.rawValue])"
            )
            out.line("\(field.swiftName) = destination")
            if keepsInverse {
                out.line("try _keep\(upper)(db, key: id.rawValue, old: old)")
            }
        }
    }

    private func inverseSentence(_ inverse: RecordShape.ToOneInverse) -> String {
        switch inverse {
        case .none: return "the other side reads this object's column."
        case .orderedToMany: return "the object goes at the end of the other side's ordered relationship."
        case .toOne: return "the other object then names this one, and nothing else does."
        }
    }

    private func writeToMany(
        _ field: RecordShape.ToManyField, entity: RecordShape.EntityShape, to out: inout SwiftWriter
    ) {
        let fetchType = shape.fetchType(of: field.destination)
        let key = shape.keyType(of: field.destination)
        let upper = SwiftNames.upperFirst(field.swiftName)
        let relationship = Self.literal(field.relationship.name)
        let ordered = field.relationship.isOrdered
        let destinationTable = quoteIdentifier(shape.layout.table(forEntity: field.destination)?.name ?? "")
        out.doc(
            "A request for the objects of the `\(field.relationship.name)` relationship"
                + (ordered ? ", in the relationship's order." : ", by key."))
        out.block("\(open)var \(field.swiftName)Request: QueryInterfaceRequest<\(fetchType)>") { out in
            let base = shape.allRequest(of: field.destination)
            switch field.storage {
            case .inverseColumn(_, let column, let orderColumn):
                let order = orderColumn.map { "Column(\(Self.literal($0))), " } ?? ""
                out.line(
                    "\(base).filter(Column(\(Self.literal(column))) == id.rawValue).order(\(order)Column(\(Self.literal(StoreColumn.pk))))"
                )
            case .joinTable(let name, let ownerIsSource, let orderColumn):
                let (mine, other) = joinSides(ownerIsSource)
                let join = quoteIdentifier(name)
                let filter = "\(pk) IN (SELECT \(other) FROM \(join) WHERE \(mine) = ?)"
                if let orderColumn {
                    let position =
                        "(SELECT \(quoteIdentifier(orderColumn)) FROM \(join) WHERE \(mine) = ? AND \(other) = \(destinationTable).\(pk))"
                    out.line(
                        "\(base).filter(sql: \(Self.literal(filter)), arguments: [id.rawValue]).order(SQL(sql: \(Self.literal(position)), arguments: [id.rawValue]), Column(\(Self.literal(StoreColumn.pk))))"
                    )
                } else {
                    out.line(
                        "\(base).filter(sql: \(Self.literal(filter)), arguments: [id.rawValue]).order(Column(\(Self.literal(StoreColumn.pk))))"
                    )
                }
            case .column:
                out.line("\(base).none()")
            }
        }
        let statements = linkStatements(field)
        let existence = Self.literal(existenceSQL(field.destination))
        let check =
            "try \(schema).requireObject(db, \(existence), object.rawValue, \(Self.literal(entity.entity.name)), \(relationship), \(Self.literal(field.destination)))"
        out.line()
        out.doc(
            """
            Adds objects to the `\(field.relationship.name)` relationship\(ordered ? " (at its end, in the order given)" : ""), \
            writing both sides now; an object already there \(ordered ? "moves to the end" : "stays").
            - Throws: `\(schema).RecordError` when this object is not inserted or one of them is no \(field.destination).
            """)
        out.block("\(open)func addTo\(upper)(_ objects: [\(key)], in db: Database) throws") { out in
            out.line("try _requireInserted(\(relationship))")
            out.block("for object in objects") { out in
                out.line(check)
                for sql in statements.add {
                    out.line("try db.execute(sql: \(Self.literal(sql)), arguments: [id.rawValue, object.rawValue])")
                }
            }
        }
        out.line()
        out.doc(
            "Removes objects from the `\(field.relationship.name)` relationship, on both sides; others are left as they are."
        )
        out.block("\(open)func removeFrom\(upper)(_ objects: [\(key)], in db: Database) throws") { out in
            out.line("try _requireInserted(\(relationship))")
            out.block("for object in objects") { out in
                for sql in statements.remove {
                    out.line("try db.execute(sql: \(Self.literal(sql)), arguments: [id.rawValue, object.rawValue])")
                }
            }
        }
        out.line()
        out.doc(
            """
            Makes the `\(field.relationship.name)` relationship hold exactly these objects\(ordered ? ", in this order" : ""), on both sides.
            - Throws: `\(schema).RecordError` when this object is not inserted or one of them is no \(field.destination).
            """)
        out.block("\(open)func set\(upper)(_ objects: [\(key)], in db: Database) throws") { out in
            out.line("try _requireInserted(\(relationship))")
            for sql in statements.clear {
                out.line("try db.execute(sql: \(Self.literal(sql)), arguments: [id.rawValue])")
            }
            out.line("try addTo\(upper)(objects, in: db)")
        }
    }

    /// The join table's column holding this side's `_pk`, and the other's.
    private func joinSides(_ ownerIsSource: Bool) -> (mine: String, other: String) {
        let source = quoteIdentifier(StoreColumn.joinSource)
        let destination = quoteIdentifier(StoreColumn.joinDestination)
        return ownerIsSource ? (source, destination) : (destination, source)
    }

    /// SQL to add and remove one link (`?1` this object's `_pk`, `?2` the other's) and to clear every link of this
    /// object (`?1`).
    private func linkStatements(_ field: RecordShape.ToManyField) -> (add: [String], remove: [String], clear: [String])
    {
        switch field.storage {
        case .inverseColumn(let table, let column, let orderColumn):
            let quotedTable = quoteIdentifier(table)
            let quotedColumn = quoteIdentifier(column)
            let kinds = shape.layout.kinds(of: field.destination).map(quoteLiteral).joined(separator: ", ")
            let entityColumn = quoteIdentifier(StoreColumn.entity)
            var set = "\(quotedColumn) = ?1"
            var unset = "\(quotedColumn) = NULL"
            if let orderColumn {
                let order = quoteIdentifier(orderColumn)
                set +=
                    ", \(order) = (SELECT coalesce(max(o.\(order)) + 1, 0) FROM \(quotedTable) AS o WHERE o.\(quotedColumn) = ?1 AND o.\(pk) <> ?2)"
                unset += ", \(order) = NULL"
            }
            return (
                add: ["UPDATE \(quotedTable) SET \(set) WHERE \(pk) = ?2 AND \(entityColumn) IN (\(kinds))"],
                remove: ["UPDATE \(quotedTable) SET \(unset) WHERE \(pk) = ?2 AND \(quotedColumn) = ?1"],
                clear: ["UPDATE \(quotedTable) SET \(unset) WHERE \(quotedColumn) = ?1"]
            )
        case .joinTable(let name, let ownerIsSource, _):
            guard let join = field.join else { return ([], [], []) }
            let quotedJoin = quoteIdentifier(name)
            let source = quoteIdentifier(StoreColumn.joinSource)
            let destination = quoteIdentifier(StoreColumn.joinDestination)
            let sourceOrder = quoteIdentifier(StoreColumn.joinSourceOrder)
            let destinationOrder = quoteIdentifier(StoreColumn.joinDestinationOrder)
            func insert(_ sourceParameter: String, _ destinationParameter: String) -> String {
                let sourcePosition =
                    join.sourceIsOrdered
                    ? "(SELECT coalesce(max(\(sourceOrder)) + 1, 0) FROM \(quotedJoin) WHERE \(source) = \(sourceParameter))"
                    : "NULL"
                let destinationPosition =
                    join.destinationIsOrdered
                    ? "(SELECT coalesce(max(\(destinationOrder)) + 1, 0) FROM \(quotedJoin) WHERE \(destination) = \(destinationParameter))"
                    : "NULL"
                return
                    "INSERT OR IGNORE INTO \(quotedJoin) (\(source), \(destination), \(sourceOrder), \(destinationOrder)) "
                    + "VALUES (\(sourceParameter), \(destinationParameter), \(sourcePosition), \(destinationPosition))"
            }
            func delete(_ sourceParameter: String, _ destinationParameter: String) -> String {
                "DELETE FROM \(quotedJoin) WHERE \(source) = \(sourceParameter) AND \(destination) = \(destinationParameter)"
            }
            let (mine, other) = ownerIsSource ? ("?1", "?2") : ("?2", "?1")
            var add = [insert(mine, other)]
            var remove = [delete(mine, other)]
            var clear = ["DELETE FROM \(quotedJoin) WHERE \(ownerIsSource ? source : destination) = ?1"]
            if field.isOwnInverse {
                add.append(insert(other, mine))
                remove.append(delete(other, mine))
                clear.append("DELETE FROM \(quotedJoin) WHERE \(destination) = ?1")
            }
            return (add, remove, clear)
        case .column:
            return ([], [], [])
        }
    }

    // MARK: - Associations

    /// GRDB associations on a table's record type, with explicit foreign keys (the layout declares none).
    func writeAssociations(_ table: RecordShape.TableShape, to out: inout SwiftWriter) {
        var written: Set<StoreLayout.PropertyKey> = []
        var lines: [String] = []
        for entityIndex in table.entityIndexes {
            let entity = shape.entities[entityIndex]
            for field in entity.toOnes {
                let key = shape.declaringKey(field.relationship, in: entity.entity)
                guard written.insert(key).inserted, let name = table.associationNames[key],
                    let destination = shape.table(forEntity: field.destination)
                else { continue }
                lines.append(
                    "/// The `\(entity.entity.name).\(field.relationship.name)` relationship (column `\(field.column)`)."
                )
                lines.append(
                    "\(open)static var \(name): BelongsToAssociation<\(table.recordTypeName), \(destination.recordTypeName)> { belongsTo(\(destination.recordTypeName).self, key: \(Self.literal(name)), using: ForeignKey([\(Self.literal(field.column))], to: [\(Self.literal(StoreColumn.pk))])) }"
                )
            }
            for field in entity.toManys {
                let key = shape.declaringKey(field.relationship, in: entity.entity)
                guard written.insert(key).inserted, let name = table.associationNames[key],
                    let destination = shape.table(forEntity: field.destination)
                else { continue }
                let target = destination.recordTypeName
                lines.append("/// The `\(entity.entity.name).\(field.relationship.name)` relationship.")
                switch field.storage {
                case .inverseColumn(_, let column, let orderColumn):
                    let order =
                        orderColumn.map {
                            ".order(Column(\(Self.literal($0))), Column(\(Self.literal(StoreColumn.pk))))"
                        } ?? ""
                    lines.append(
                        "\(open)static var \(name): HasManyAssociation<\(table.recordTypeName), \(target)> { hasMany(\(target).self, key: \(Self.literal(name)), using: ForeignKey([\(Self.literal(column))], to: [\(Self.literal(StoreColumn.pk))]))\(order) }"
                    )
                case .joinTable(let joinName, let ownerIsSource, let orderColumn):
                    guard let link = shape.joins.first(where: { $0.join.name == joinName }) else { continue }
                    let linkType = "\(schema).Links.\(link.typeName)"
                    let mine = ownerIsSource ? StoreColumn.joinSource : StoreColumn.joinDestination
                    let otherSide = ownerIsSource ? "destinationObject" : "sourceObject"
                    let order = orderColumn.map { ".order(Column(\(Self.literal($0))))" } ?? ""
                    lines.append(
                        "\(open)static var \(name): HasManyThroughAssociation<\(table.recordTypeName), \(target)> { hasMany(\(target).self, through: hasMany(\(linkType).self, key: \(Self.literal(name + "Links")), using: ForeignKey([\(Self.literal(mine))], to: [\(Self.literal(StoreColumn.pk))]))\(order), using: \(linkType).\(otherSide), key: \(Self.literal(name))) }"
                    )
                case .column:
                    continue
                }
            }
        }
        guard !lines.isEmpty else { return }
        out.block("extension \(table.recordTypeName)") { out in
            for line in lines { out.line(line) }
        }
    }
}
