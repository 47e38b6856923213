import Remodel

/// Relationships in generated code: a request per relationship, GRDB's `request(for:)` on the relationship's
/// association (the caller runs it; nothing is loaded behind its back), and link and unlink methods that keep both
/// sides and the order, refusing a key that names no object of the destination and an unlink that would leave a
/// required to-one empty, before anything is written.
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
            out.doc("The object's `_pk`, or the error of a link made before it is inserted.")
            out.line("func _requireInserted(_ relationship: String) throws -> Int64 {")
            out.line(
                "    guard let id else { throw \(schema).RecordError.notInserted(\(entityLiteral), relationship) }")
            out.line("    return id.rawValue")
            out.line("}")
        }
    }

    private func writeToOne(
        _ field: RecordShape.ToOneField, entity: RecordShape.EntityShape, table: RecordShape.TableShape,
        to out: inout SwiftWriter
    ) {
        let fetchType = shape.fetchType(of: field.destination)
        let key = shape.keyType(of: field.destination)
        let upper = SwiftNames.upperFirst(field.swiftName)
        let entityLiteral = Self.literal(entity.entity.name)
        let relationship = Self.literal(field.relationship.name)
        let keepsInverse = keptToOnes(entity).contains { $0.column == field.column }
        out.doc(
            "The `\(field.relationship.name)` relationship's \(field.destination), if there is one: "
                + "`request(for: \(entity.typeName).\(field.swiftName))`.")
        out.line(
            "\(open)var \(field.swiftName)Request: QueryInterfaceRequest<\(fetchType)> { request(for: Self.\(field.swiftName)) }"
        )
        out.line()
        out.doc(
            """
            Links the object to another \(field.destination) (or to none) and writes it now, keeping the other side: \
            \(inverseSentence(field.inverse))
            - Throws: `\(schema).RecordError`, with nothing written, when the object is not inserted, there is no \
            such \(field.destination)\(field.relationship.isOptional ? "" : ", the relationship is required and the key nil").
            """)
        out.block("\(open)mutating func set\(upper)(_ destination: \(key)?, in db: Database) throws") { out in
            out.line("let key = try _requireInserted(\(relationship))")
            if field.relationship.isOptional {
                out.block("if let destination") { out in
                    out.line(
                        "try \(schema).requireObject(db, \(Self.literal(existenceSQL(field.destination))), destination.rawValue, \(entityLiteral), key, \(relationship), \(Self.literal(field.destination)))"
                    )
                }
            } else {
                out.block("guard let required = destination else", closing: "}") { out in
                    out.line(
                        "throw \(schema).RecordError.invalid(\(entityLiteral), key, \"relationship\", \(relationship), \"a value is required, found nil\")"
                    )
                }
                out.line(
                    "try \(schema).requireObject(db, \(Self.literal(existenceSQL(field.destination))), required.rawValue, \(entityLiteral), key, \(relationship), \(Self.literal(field.destination)))"
                )
            }
            let update =
                "try db.execute(sql: \(Self.literal("UPDATE \(quoteIdentifier(table.table.name)) SET \(quoteIdentifier(field.column)) = ? WHERE \(pk) = ?")), arguments: [destination?.rawValue, key])"
            out.block(
                "try \(schema).linking(db, \(entityLiteral), key, \(relationship))", closing: "}"
            ) { out in
                out.line(update)
                guard keepsInverse else { return }
                out.line("var pending = \(schema).PendingChecks()")
                out.line("var object = self")
                out.line("object.\(field.swiftName) = destination")
                out.line("try object._keep\(upper)(db, key: key, &pending)")
                out.line("try pending.verify(db)")
            }
            out.line("\(field.swiftName) = destination")
        }
    }

    private func inverseSentence(_ inverse: RecordShape.ToOneInverse) -> String {
        switch inverse {
        case .none: return "the other side reads this object's column."
        case .orderedToMany: return "the object goes at the end of the other side's ordered relationship."
        case .toOne: return "the other object then names this one, and nothing else does."
        }
    }

    /// The inverse of a to-many stored as the destination's column, when it is a required to-one.
    private func requiredInverse(of field: RecordShape.ToManyField) -> Relationship? {
        let version = shape.layout.version
        guard case .inverseColumn = field.storage, let name = field.relationship.inverseName,
            let destination = version.entity(named: field.destination),
            let inverse = version.relationships(of: destination).first(where: { $0.name == name }),
            !inverse.isToMany, !inverse.isOptional
        else { return nil }
        return inverse
    }

    private func writeToMany(
        _ field: RecordShape.ToManyField, entity: RecordShape.EntityShape, to out: inout SwiftWriter
    ) {
        let fetchType = shape.fetchType(of: field.destination)
        let key = shape.keyType(of: field.destination)
        let upper = SwiftNames.upperFirst(field.swiftName)
        let relationship = Self.literal(field.relationship.name)
        let entityLiteral = Self.literal(entity.entity.name)
        let ordered = field.relationship.isOrdered
        out.doc(
            "The objects of the `\(field.relationship.name)` relationship"
                + (ordered ? ", in the relationship's order" : ", by key")
                + ": `request(for: \(entity.typeName).\(field.swiftName))`.")
        out.line(
            "\(open)var \(field.swiftName)Request: QueryInterfaceRequest<\(fetchType)> { request(for: Self.\(field.swiftName)) }"
        )
        let statements = linkStatements(field)
        let existence = Self.literal(existenceSQL(field.destination))
        let check =
            "try \(schema).requireObject(db, \(existence), object.rawValue, \(entityLiteral), key, \(relationship), \(Self.literal(field.destination)))"
        let required = requiredInverse(of: field)
        var unlinkCheck: String?
        if let required, case .inverseColumn(let table, let column, _) = field.storage {
            let sql =
                "SELECT \(pk), \(quoteIdentifier(StoreColumn.entity)) FROM \(quoteIdentifier(table)) WHERE \(quoteIdentifier(column)) = ?1 AND \(pk) = ?2"
            unlinkCheck =
                "try \(schema).refuseUnlink(db, \(Self.literal(sql)), key, object.rawValue, \(Self.literal(required.name)), \(entityLiteral), \(relationship))"
        }
        out.line()
        out.doc(
            """
            Adds objects to the `\(field.relationship.name)` relationship\(ordered ? " (at its end, in the order given)" : ""), \
            writing both sides now; an object already there \(ordered ? "moves to the end" : "stays").
            - Throws: `\(schema).RecordError`, with nothing written, when this object is not inserted or one of them \
            is no \(field.destination).
            """)
        out.block("\(open)func addTo\(upper)(_ objects: [\(key)], in db: Database) throws") { out in
            out.line("let key = try _requireInserted(\(relationship))")
            out.line("for object in objects { \(check) }")
            out.block("try \(schema).linking(db, \(entityLiteral), key, \(relationship))", closing: "}") { out in
                out.block("for object in objects") { out in
                    for sql in statements.add {
                        out.line("try db.execute(sql: \(Self.literal(sql)), arguments: [key, object.rawValue])")
                    }
                }
            }
        }
        out.line()
        out.doc(
            """
            Removes objects from the `\(field.relationship.name)` relationship, on both sides; others are left as \
            they are.
            """
                + (required != nil
                    ? "\n- Throws: `\(schema).RecordError`, with nothing written, for an object whose required "
                        + "`\(required?.name ?? "")` it would leave empty."
                    : ""))
        out.block("\(open)func removeFrom\(upper)(_ objects: [\(key)], in db: Database) throws") { out in
            out.line("let key = try _requireInserted(\(relationship))")
            if let unlinkCheck { out.line("for object in objects { \(unlinkCheck) }") }
            out.block("for object in objects") { out in
                for sql in statements.remove {
                    out.line("try db.execute(sql: \(Self.literal(sql)), arguments: [key, object.rawValue])")
                }
            }
        }
        out.line()
        out.doc(
            """
            Makes the `\(field.relationship.name)` relationship hold exactly these objects\(ordered ? ", in this order" : ""), on both sides.
            - Throws: `\(schema).RecordError`, with nothing written, when this object is not inserted, one of them \
            is no \(field.destination)\(required != nil ? ", or an object left out would have its required `\(required?.name ?? "")` empty" : "").
            """)
        out.block("\(open)func set\(upper)(_ objects: [\(key)], in db: Database) throws") { out in
            out.line("let key = try _requireInserted(\(relationship))")
            out.line("for object in objects { \(check) }")
            if let unlinkCheck, case .inverseColumn(let table, let column, _) = field.storage {
                out.line("let kept = Set(objects.map(\\.rawValue))")
                out.line(
                    "let linked = try Int64.fetchAll(db, sql: \(Self.literal("SELECT \(pk) FROM \(quoteIdentifier(table)) WHERE \(quoteIdentifier(column)) = ?")), arguments: [key])"
                )
                out.line(
                    "for object in linked.filter({ !kept.contains($0) }).map(\(key).init(rawValue:)) { \(unlinkCheck) }"
                )
            }
            out.block("try \(schema).linking(db, \(entityLiteral), key, \(relationship))", closing: "}") { out in
                for sql in statements.clear {
                    out.line("try db.execute(sql: \(Self.literal(sql)), arguments: [key])")
                }
                out.block("for object in objects") { out in
                    for sql in statements.add {
                        out.line("try db.execute(sql: \(Self.literal(sql)), arguments: [key, object.rawValue])")
                    }
                }
            }
        }
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
}
