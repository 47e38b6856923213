import Remodel

/// GRDB's persistence, as GRDB's own methods run it (`insert`, `update`, `save`, `upsert`, `delete`: nothing
/// shadows them): the record's columns, and the callbacks that keep the store valid. `willSave` validates the object
/// and checks its to-one keys before anything is written; `aroundSave` tells a uniqueness failure in the model's
/// terms and keeps the other side of a relationship; `aroundDelete` follows the delete rules in a savepoint, refusing
/// (with nothing written) a delete that would leave another object's required to-one empty.
extension RecordWriter {
    func writePersistence(
        _ entity: RecordShape.EntityShape, table: RecordShape.TableShape, to out: inout SwiftWriter
    ) {
        out.block("extension \(entity.typeName)") { out in
            out.doc("The object's columns, for GRDB's persistence methods.")
            out.block("\(open)func encode(to container: inout PersistenceContainer) throws") { out in
                out.line("container[\(Self.literal(StoreColumn.pk))] = id")
                out.line("container[\(Self.literal(StoreColumn.entity))] = Self.entityName")
                for field in entity.attributes {
                    let coding = coding(field)
                    guard coding.isWritten else { continue }
                    out.line("container[\(Self.literal(field.column))] = \(coding.columnValue)")
                }
                for field in entity.toOnes {
                    out.line("container[\(Self.literal(field.column))] = \(field.swiftName)")
                }
            }
            out.line()
            out.doc("Takes the key `insert` gave the object.")
            out.line(
                "\(open)mutating func didInsert(_ inserted: InsertionSuccess) { id = Key(rawValue: inserted.rowID) }")
            out.line()
            out.doc(
                """
                Before an insert, update, save or upsert, with nothing written yet: `validate()`, then every to-one \
                key names an object of its destination entity (or of one of its sub-entities).
                - Throws: `\(schema).RecordError` naming the entity, the object and the property.
                """)
            out.block("\(open)func willSave(_ db: Database) throws") { out in
                out.line("try validate()")
                for field in entity.toOnes {
                    out.block("if let key = \(field.swiftName)") { out in
                        out.line(
                            "try \(schema).requireObject(db, \(Self.literal(existenceSQL(field.destination))), key.rawValue, \(Self.literal(entity.entity.name)), id?.rawValue, \(Self.literal(field.relationship.name)), \(Self.literal(field.destination)))"
                        )
                    }
                }
            }
            if table.isHierarchy {
                let sql = Self.literal(
                    "SELECT \(quoteIdentifier(StoreColumn.entity)) FROM \(quoteIdentifier(table.table.name)) WHERE \(pk) = ?"
                )
                out.line()
                out.doc("An insert with a key (or an upsert) never takes the row of another entity's object.")
                out.block("\(open)func willInsert(_ db: Database) throws") { out in
                    out.line("if let id { try \(schema).requireSameEntity(db, \(sql), id.rawValue, Self.entityName) }")
                }
                out.line()
                out.doc("An update never writes over the row of another entity's object.")
                out.block("\(open)func willUpdate(_ db: Database, columns: Set<String>) throws") { out in
                    out.line("if let id { try \(schema).requireSameEntity(db, \(sql), id.rawValue, Self.entityName) }")
                }
            }
            out.line()
            writeAroundSave(entity, table: table, to: &out)
            for field in keptToOnes(entity) {
                out.line()
                writeKeepInverse(field, entity: entity, table: table, to: &out)
            }
            out.line()
            writeAroundDelete(entity, table: table, to: &out)
        }
    }

    var pk: String { quoteIdentifier(StoreColumn.pk) }

    /// SQL finding an object of `destination`'s kinds with one `_pk` (`?1`); the `_entity` test only where the
    /// table holds other entities too.
    func existenceSQL(_ destination: String) -> String {
        let layout = shape.layout
        let table = layout.table(forEntity: destination)
        let kinds = layout.kinds(of: destination)
        var sql = "SELECT 1 FROM \(quoteIdentifier(table?.name ?? destination)) WHERE \(pk) = ?1"
        if let table, Set(table.entities) != Set(kinds) {
            sql +=
                " AND \(quoteIdentifier(StoreColumn.entity)) IN (\(kinds.map(quoteLiteral).joined(separator: ", ")))"
        }
        return sql
    }

    /// `["column": "property", …]` for telling a constraint's columns in the model's terms.
    private func propertyNamesByColumn(_ entity: RecordShape.EntityShape) -> String {
        let pairs =
            entity.attributes.map { ($0.column, $0.attribute.name) }
            + entity.toOnes.map { ($0.column, $0.relationship.name) }
        guard !pairs.isEmpty else { return "[:]" }
        return "[" + pairs.map { "\(Self.literal($0.0)): \(Self.literal($0.1))" }.joined(separator: ", ") + "]"
    }

    /// The to-ones whose other side is kept in step after a save: an ordered inverse (the position) or a
    /// one-to-one (the other column).
    func keptToOnes(_ entity: RecordShape.EntityShape) -> [RecordShape.ToOneField] {
        entity.toOnes.filter {
            if case .none = $0.inverse { return false }
            return true
        }
    }

    /// Whether keeping a one-to-one's other side may empty a required to-one (this one, for the object that named
    /// the new partner, or the inverse, for the old partner): then it is checked, in a savepoint, when done.
    func keepingMayEmptyRequired(_ field: RecordShape.ToOneField) -> Bool {
        guard case .toOne = field.inverse else { return false }
        return !field.relationship.isOptional || requiredInverse(of: field)
    }

    /// Whether the inverse of a to-one is a required to-one.
    private func requiredInverse(of field: RecordShape.ToOneField) -> Bool {
        guard case .toOne = field.inverse, let destination = field.relationship.destinationEntity,
            let inverseName = field.relationship.inverseName,
            let entity = shape.layout.version.entity(named: destination)
        else { return false }
        return shape.layout.version.relationships(of: entity).first { $0.name == inverseName }.map { !$0.isOptional }
            ?? false
    }

    private func writeAroundSave(
        _ entity: RecordShape.EntityShape, table: RecordShape.TableShape, to out: inout SwiftWriter
    ) {
        let kept = keptToOnes(entity)
        let guarded = kept.contains(where: keepingMayEmptyRequired)
        let quotedTable = quoteIdentifier(table.table.name)
        out.doc(
            """
            Runs the save, telling a uniqueness constraint it breaks in the model's terms (nothing is written then), \
            and keeps the other side of the relationships that have one in step.
            """)
        out.block("\(open)func aroundSave(_ db: Database, save: () throws -> PersistenceSuccess) throws") { out in
            if !kept.isEmpty {
                let selected = kept.map { quoteIdentifier($0.column) }.joined(separator: ", ")
                out.line(
                    "let previous = try id.flatMap { try Row.fetchOne(db, sql: \(Self.literal("SELECT \(selected) FROM \(quotedTable) WHERE \(pk) = ?")), arguments: [$0.rawValue]) }"
                )
            }
            func body(_ out: inout SwiftWriter) {
                out.line("do {")
                out.line("    _ = try save()")
                out.line("} catch let error as DatabaseError {")
                out.line(
                    "    throw \(schema).RecordError.saving(error, \(Self.literal(entity.entity.name)), id?.rawValue, properties: \(propertyNamesByColumn(entity)))"
                )
                out.line("}")
                guard !kept.isEmpty else { return }
                out.line("let key = id?.rawValue ?? db.lastInsertedRowID")
                for (offset, field) in kept.enumerated() {
                    out.block(
                        "if try previous == nil || previous?.decode(Int64?.self, atIndex: \(offset)) != \(field.swiftName)?.rawValue"
                    ) { out in
                        out.line("try _keep\(SwiftNames.upperFirst(field.swiftName))(db, key: key, &pending)")
                    }
                }
            }
            guard !kept.isEmpty else {
                body(&out)
                return
            }
            if guarded {
                out.block("try db.inSavepoint", closing: "}") { out in
                    out.line("var pending = \(schema).PendingChecks()")
                    body(&out)
                    out.line("try pending.verify(db)")
                    out.line("return .commit")
                }
            } else {
                out.line("var pending = \(schema).PendingChecks()")
                body(&out)
            }
        }
    }

    /// After a to-one changed: the position in an ordered inverse (appended at the end), or the other side of a
    /// one-to-one (which then names only this object), watching the required to-ones it empties.
    private func writeKeepInverse(
        _ field: RecordShape.ToOneField, entity: RecordShape.EntityShape, table: RecordShape.TableShape,
        to out: inout SwiftWriter
    ) {
        let quotedTable = quoteIdentifier(table.table.name)
        let column = quoteIdentifier(field.column)
        out.line(
            "func _keep\(SwiftNames.upperFirst(field.swiftName))(_ db: Database, key: Int64, _ pending: inout \(schema).PendingChecks) throws {"
        )
        out.line("    let new = \(field.swiftName)?.rawValue")
        switch field.inverse {
        case .none:
            break
        case .orderedToMany(let orderColumn):
            let order = quoteIdentifier(orderColumn)
            let sql =
                "UPDATE \(quotedTable) SET \(order) = CASE WHEN ?1 IS NULL THEN NULL ELSE "
                + "(SELECT coalesce(max(o.\(order)) + 1, 0) FROM \(quotedTable) AS o WHERE o.\(column) = ?1 AND o.\(pk) <> ?2) END "
                + "WHERE \(pk) = ?2"
            out.line("    try db.execute(sql: \(Self.literal(sql)), arguments: [new, key])")
        case .toOne(let otherTable, let otherColumn):
            let other = quoteIdentifier(otherTable)
            let back = quoteIdentifier(otherColumn)
            let cause = "\"linking \(entity.entity.name) _pk \\(key)\""
            let inverseName = field.relationship.inverseName ?? field.relationship.name
            if requiredInverse(of: field) {
                out.line(
                    "    try pending.watch(db, \(Self.literal("SELECT \(pk), \(quoteIdentifier(StoreColumn.entity)) FROM \(other) WHERE \(back) = ?1 AND \(pk) IS NOT ?2")), [key, new], table: \(Self.literal(otherTable)), column: \(Self.literal(otherColumn)), relationship: \(Self.literal(inverseName)), cause: \(cause))"
                )
            }
            out.line(
                "    try db.execute(sql: \(Self.literal("UPDATE \(other) SET \(back) = NULL WHERE \(back) = ?1 AND \(pk) IS NOT ?2")), arguments: [key, new])"
            )
            out.line("    guard let new else { return }")
            if !field.relationship.isOptional {
                out.line(
                    "    try pending.watch(db, \(Self.literal("SELECT \(pk), \(quoteIdentifier(StoreColumn.entity)) FROM \(quotedTable) WHERE \(column) = ?1 AND \(pk) <> ?2")), [new, key], table: \(Self.literal(table.table.name)), column: \(Self.literal(field.column)), relationship: \(Self.literal(field.relationship.name)), cause: \(cause))"
                )
            }
            out.line(
                "    try db.execute(sql: \(Self.literal("UPDATE \(quotedTable) SET \(column) = NULL WHERE \(column) = ?1 AND \(pk) <> ?2")), arguments: [new, key])"
            )
            out.line(
                "    try db.execute(sql: \(Self.literal("UPDATE \(other) SET \(back) = ?1 WHERE \(pk) = ?2")), arguments: [key, new])"
            )
        }
        out.line("}")
    }

    /// Delete rules: Deny refuses while the relationship holds objects, Cascade deletes them (after this object's
    /// row, so a cycle of cascades ends), and every reference to the object — through any relationship, with or
    /// without an inverse — is cleared: Nullify, and No Action treated as Nullify, since the store never keeps a
    /// reference to an object that is gone. A required to-one that would be left empty refuses the whole delete.
    private func writeAroundDelete(
        _ entity: RecordShape.EntityShape, table: RecordShape.TableShape, to out: inout SwiftWriter
    ) {
        let entityLiteral = Self.literal(entity.entity.name)
        out.doc(
            """
            Deletes the object following the model's delete rules, in a savepoint: Deny refuses while the \
            relationship holds objects, Cascade deletes them, every reference to the object is cleared; a delete \
            that would leave another object's required to-one empty is refused, with nothing written.
            - Throws: `\(schema).RecordError` naming the relationship and the object.
            """)
        out.block("\(open)func aroundDelete(_ db: Database, delete: () throws -> Bool) throws") { out in
            out.block("try db.inSavepoint", closing: "}") { out in
                out.line("var pending = \(schema).PendingChecks()")
                out.line("_ = try _delete(db, &pending, row: delete)")
                out.line("try pending.verify(db)")
                out.line("return .commit")
            }
        }
        out.line()
        out.line(
            "func _delete(_ db: Database, _ pending: inout \(schema).PendingChecks, row: () throws -> Bool) throws -> Bool {"
        )
        var cascades: [(variable: String, destination: String)] = []
        // A to-one's object is the one the stored row names (the value in hand may be older than a link made since).
        let stored = { (field: RecordShape.ToOneField) -> String in
            let sql =
                "\(pk) = (SELECT \(quoteIdentifier(field.column)) FROM \(quoteIdentifier(table.table.name)) WHERE \(pk) = ?)"
            return
                "\(shape.fetchType(of: field.destination)).filter(sql: \(Self.literal(sql)), arguments: [key])\(kindFilter(field.destination))"
        }
        let relationships =
            entity.toOnes.map { ($0.swiftName, $0.relationship, $0.destination, stored($0)) }
            + entity.toManys.map { ($0.swiftName, $0.relationship, $0.destination, "\($0.swiftName)Request") }
        let references = referencesClearedOnDelete(of: entity.entity.name)
        let ruled = relationships.contains { $0.1.deletionRule == .deny || $0.1.deletionRule == .cascade }
        guard ruled || !references.isEmpty else {
            out.line("    try row()")
            out.line("}")
            return
        }
        out.line("    guard let key = id?.rawValue else { return try row() }")
        for (name, relationship, destination, request) in relationships {
            switch relationship.deletionRule {
            case .deny?:
                out.line("    if try \(request).fetchCount(db) > 0 {")
                out.line(
                    "        throw \(schema).RecordError.deleteDenied(\(entityLiteral), key, \(Self.literal(relationship.name)))"
                )
                out.line("    }")
            case .cascade?:
                let variable = "cascade\(SwiftNames.upperFirst(name))"
                out.line("    let \(variable) = try \(request).fetchAll(db)")
                cascades.append((variable, destination))
            default:
                break
            }
        }
        for reference in references {
            if let watch = reference.requiredWatch {
                let cause = "\"deleting \(entity.entity.name) _pk \\(key)\""
                out.line(
                    "    try pending.watch(db, \(Self.literal(watch)), [key], table: \(Self.literal(reference.table)), column: \(Self.literal(reference.column)), relationship: \(Self.literal(reference.relationship)), cause: \(cause))"
                )
            }
            out.line("    try db.execute(sql: \(Self.literal(reference.sql)), arguments: [key])")
        }
        out.line("    let deleted = try row()")
        for cascade in cascades {
            let table = shape.layout.table(forEntity: cascade.destination)?.name ?? cascade.destination
            let sql = "DELETE FROM \(quoteIdentifier(table)) WHERE \(pk) = ?"
            out.line(
                "    for object in \(cascade.variable) { _ = try object._delete(db, &pending) { try \(schema).deleteRow(db, \(Self.literal(sql)), object.id?.rawValue) } }"
            )
        }
        out.line("    return deleted")
        out.line("}")
    }

    /// A reference to an object that its delete clears.
    struct ClearedReference {
        /// SQL clearing it (one `?`: the object's `_pk`).
        var sql: String
        var table: String
        var column: String
        var relationship: String
        /// For a required to-one: SQL listing the objects whose reference is cleared (`_pk`, `_entity`).
        var requiredWatch: String?
    }

    /// Every reference to an object of `entityName`: to-one columns whose destination may be it (with their order
    /// columns), and join table rows on either side.
    func referencesClearedOnDelete(of entityName: String) -> [ClearedReference] {
        let layout = shape.layout
        let version = layout.version
        var references: [ClearedReference] = []
        for table in layout.tables {
            for column in table.columns {
                guard case .toOne(let owner, let relationship, let destination) = column.content,
                    layout.kinds(of: destination).contains(entityName)
                else { continue }
                var sets = ["\(quoteIdentifier(column.name)) = NULL"]
                if let order = layout.orderColumnByToOne[StoreLayout.PropertyKey(entity: owner, property: relationship)]
                {
                    sets.append("\(quoteIdentifier(order)) = NULL")
                }
                let required =
                    version.entity(named: owner).flatMap { owner in
                        version.relationships(of: owner).first { $0.name == relationship }
                    }.map { !$0.isOptional } ?? false
                let quotedTable = quoteIdentifier(table.name)
                let quotedColumn = quoteIdentifier(column.name)
                references.append(
                    ClearedReference(
                        sql: "UPDATE \(quotedTable) SET \(sets.joined(separator: ", ")) WHERE \(quotedColumn) = ?",
                        table: table.name, column: column.name, relationship: relationship,
                        requiredWatch: required
                            ? "SELECT \(pk), \(quoteIdentifier(StoreColumn.entity)) FROM \(quotedTable) WHERE \(quotedColumn) = ?1"
                            : nil))
            }
        }
        for join in layout.joinTables {
            var sides: [String] = []
            if version.entity(named: join.sourceEntity).map({ layout.kinds(of: $0.name).contains(entityName) }) == true
            {
                sides.append(StoreColumn.joinSource)
            }
            if layout.kinds(of: join.destinationEntity).contains(entityName) {
                sides.append(StoreColumn.joinDestination)
            }
            for side in sides {
                references.append(
                    ClearedReference(
                        sql: "DELETE FROM \(quoteIdentifier(join.name)) WHERE \(quoteIdentifier(side)) = ?",
                        table: join.name, column: side, relationship: join.sourceRelationship, requiredWatch: nil))
            }
        }
        return references
    }
}
