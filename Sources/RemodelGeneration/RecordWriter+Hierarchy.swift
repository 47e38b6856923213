import Remodel

/// A table that holds several entities: an enum over its concrete entities is the table's record type (GRDB's
/// `FetchableRecord` and `MutablePersistableRecord`, `Codable`), so that `fetchAll(db)` returns every object of the
/// table once, each as its concrete entity. Its persistence is each entity's own: every callback goes to the case's
/// object.
extension RecordWriter {
    /// The enum: one case per concrete entity, the table's key type and `id`.
    func writeHierarchyRecord(_ table: RecordShape.TableShape, to out: inout SwiftWriter) {
        let entities = table.entityIndexes.map { shape.entities[$0] }
        let names = table.table.entities.joined(separator: ", ")
        out.doc(
            """
            An object of the table \(Self.literal(table.table.name)) (entities \(names)), as its concrete entity.

            GRDB reads a whole table with `all()`, so this enum is the table's record type: `fetchAll(db)` returns
            every object once. Each entity's own type reads only its objects: `\(entities.first?.typeName ?? "Entity").fetchAll(db)`.
            """)
        out.block(
            "\(open)enum \(table.recordTypeName): Identifiable, Hashable, Sendable, FetchableRecord, MutablePersistableRecord"
        ) { out in
            for entity in entities {
                out.line("case \(entity.caseName)(\(entity.typeName))")
            }
            out.line()
            writeKeyType(rootName: table.table.entities.first ?? table.table.name, to: &out)
            out.line()
            out.doc("The table's name in the store.")
            out.line("\(open)static let databaseTableName = \(Self.literal(table.table.name))")
            writeSelection(table, to: &out)
            out.line()
            out.doc("The object's key: nil until it is inserted.")
            out.block("\(open)var id: Key?") { out in
                dispatch(entities, to: &out) { "return \($0).id" }
            }
        }
    }

    /// `switch self { case .book(let object): … }` over the entities (`switch self {}` when there is none).
    private func dispatch(
        _ entities: [RecordShape.EntityShape], binding: String = "let", to out: inout SwiftWriter,
        _ body: (String) -> String
    ) {
        if entities.isEmpty {
            out.line("switch self {}")
            return
        }
        out.block("switch self", closing: "}") { out in
            for entity in entities { out.line("case .\(entity.caseName)(\(binding) object): \(body("object"))") }
        }
    }

    /// `switch entity { case "Book": self = .book(try Book(<reading>)) … default: throw … }`.
    private func writeEntitySwitch(
        _ entities: [RecordShape.EntityShape], table: RecordShape.TableShape, reading: String, key: String,
        to out: inout SwiftWriter
    ) {
        out.block("switch entity", closing: "}") { out in
            for entity in entities {
                out.line(
                    "case \(Self.literal(entity.entity.name)): self = .\(entity.caseName)(try \(entity.typeName)(\(reading)))"
                )
            }
            out.line(
                "default: throw \(schema).RecordError.unknownEntity(entity, table: \(Self.literal(table.table.name)), key: \(key))"
            )
        }
    }

    func writeHierarchyConformance(_ table: RecordShape.TableShape, to out: inout SwiftWriter) {
        let entities = table.entityIndexes.map { shape.entities[$0] }
        out.block("extension \(table.recordTypeName)") { out in
            out.doc(
                """
                Reads an object as its concrete entity, from the `_entity` column.
                - Throws: `\(schema).RecordError` for an `_entity` the model's version does not have here.
                """)
            out.block("\(open)init(row: Row) throws") { out in
                out.line("let entity = try row.decode(String.self, atIndex: 1)")
                writeEntitySwitch(
                    entities, table: table, reading: "_uncheckedRow: row",
                    key: "try row.decode(Int64.self, atIndex: 0)",
                    to: &out)
            }
            func forward(_ signature: String, _ call: String) {
                out.line()
                out.block("\(open)\(signature)") { out in dispatch(entities, to: &out) { _ in call } }
            }
            forward("func encode(to container: inout PersistenceContainer) throws", "try object.encode(to: &container)")
            out.line()
            out.block("\(open)mutating func didInsert(_ inserted: InsertionSuccess)") { out in
                if entities.isEmpty {
                    out.line("switch self {}")
                    return
                }
                out.block("switch self", closing: "}") { out in
                    for entity in entities {
                        out.line("case .\(entity.caseName)(var object):")
                        out.line("    object.didInsert(inserted)")
                        out.line("    self = .\(entity.caseName)(object)")
                    }
                }
            }
            forward("func willSave(_ db: Database) throws", "try object.willSave(db)")
            forward("func willInsert(_ db: Database) throws", "try object.willInsert(db)")
            forward(
                "func willUpdate(_ db: Database, columns: Set<String>) throws",
                "try object.willUpdate(db, columns: columns)")
            forward(
                "func aroundSave(_ db: Database, save: () throws -> PersistenceSuccess) throws",
                "try object.aroundSave(db, save: save)")
            forward(
                "func aroundDelete(_ db: Database, delete: () throws -> Bool) throws",
                "try object.aroundDelete(db, delete: delete)")
            out.line()
            out.block(
                "func _delete(_ db: Database, _ pending: inout \(schema).PendingChecks, row: () throws -> Bool) throws -> Bool"
            ) { out in
                dispatch(entities, to: &out) { _ in "return try object._delete(db, &pending, row: row)" }
            }
        }
        out.line()
        out.block("extension \(table.recordTypeName): Codable") { out in
            out.doc("Decodes an object as its concrete entity, from the `_entity` key.")
            out.block("\(open)init(from decoder: any Decoder) throws") { out in
                out.line("let entity = try \(schema).entityName(decoder)")
                writeEntitySwitch(entities, table: table, reading: "from: decoder", key: "nil", to: &out)
            }
            out.line()
            out.doc("Encodes the object with its `_entity`.")
            out.block("\(open)func encode(to encoder: any Encoder) throws") { out in
                if entities.isEmpty {
                    out.line("switch self {}")
                    return
                }
                out.line("var container = encoder.container(keyedBy: \(schema).ColumnKey.self)")
                dispatch(entities, to: &out) { _ in
                    "try container.encode(type(of: object).entityName, forKey: \(Self.literal(StoreColumn.entity))); try object.encode(to: encoder)"
                }
            }
        }
    }
}
