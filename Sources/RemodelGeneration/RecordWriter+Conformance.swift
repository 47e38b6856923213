import Remodel

/// A table's record type: GRDB's `FetchableRecord`, `MutablePersistableRecord` and `TableRecord`, with the
/// selection `init(row:)` reads by index and the hooks that validate, keep relationships and follow delete rules.
extension RecordWriter {
    func writeRecordConformance(_ table: RecordShape.TableShape, to out: inout SwiftWriter) {
        let type = table.recordTypeName
        let entities = table.entityIndexes.map { shape.entities[$0] }
        let selection = table.selection.map { "Column(\(Self.literal($0)))" }.joined(separator: ", ")
        out.block(
            "extension \(type): \(table.isHierarchy ? "FetchableRecord, " : "FetchableRecord, ")MutablePersistableRecord"
        ) { out in
            out.doc("The table's name in the store.")
            out.line("\(open)static let databaseTableName = \(Self.literal(table.table.name))")
            out.line()
            out.doc(
                """
                The columns `init(row:)` reads, by index, in this order: a store's table may have its columns in \
                another order (a column added by a migration comes last), and columns the app added.
                """)
            out.line("\(open)static var databaseSelection: [any SQLSelectable] { [\(selection)] }")
            if table.isHierarchy {
                out.line()
                writeHierarchyConformance(table, entities: entities, to: &out)
            } else {
                out.line()
                out.line(
                    "\(open)func encode(to container: inout PersistenceContainer) throws { _encode(to: &container) }")
                out.line()
                out.line(
                    "\(open)mutating func didInsert(_ inserted: InsertionSuccess) { id = ID(rawValue: inserted.rowID) }"
                )
                out.line()
                out.line("\(open)func willSave(_ db: Database) throws { try validate() }")
                out.line()
                out.line(
                    "\(open)func aroundSave(_ db: Database, save: () throws -> PersistenceSuccess) throws { try _aroundSave(db, save: save) }"
                )
                out.line()
                out.line(
                    "\(open)func aroundDelete(_ db: Database, delete: () throws -> Bool) throws { try _aroundDelete(db, delete: delete) }"
                )
            }
        }
    }

    private func writeHierarchyConformance(
        _ table: RecordShape.TableShape, entities: [RecordShape.EntityShape], to out: inout SwiftWriter
    ) {
        out.doc(
            """
            Reads an object as its concrete entity, from the `_entity` column.
            - Throws: `\(schema).RecordError` for an `_entity` the model's version does not have here.
            """)
        out.block("\(open)init(row: Row) throws") { out in
            out.line("let entity = try row.decode(String.self, atIndex: 1)")
            out.block("switch entity", closing: "}") { out in
                for entity in entities {
                    out.line(
                        "case \(Self.literal(entity.entity.name)): self = .\(entity.caseName)(try \(entity.typeName)(row: row))"
                    )
                }
                out.line(
                    "default: throw \(schema).RecordError.unknownEntity(entity, table: \(Self.literal(table.table.name)), key: try row.decode(Int64.self, atIndex: 0))"
                )
            }
        }
        func dispatch(_ signature: String, _ call: String) {
            out.line()
            out.block("\(open)\(signature)") { out in
                if entities.isEmpty {
                    out.line("switch self {}")
                    return
                }
                out.block("switch self", closing: "}") { out in
                    for entity in entities { out.line("case .\(entity.caseName)(let object): \(call)") }
                }
            }
        }
        dispatch("func encode(to container: inout PersistenceContainer) throws", "object._encode(to: &container)")
        out.line()
        out.block("\(open)mutating func didInsert(_ inserted: InsertionSuccess)") { out in
            if entities.isEmpty {
                out.line("switch self {}")
                return
            }
            out.block("switch self", closing: "}") { out in
                for entity in entities {
                    out.line("case .\(entity.caseName)(var object):")
                    out.line("    object.id = ID(rawValue: inserted.rowID)")
                    out.line("    self = .\(entity.caseName)(object)")
                }
            }
        }
        dispatch("func willSave(_ db: Database) throws", "try object.validate()")
        dispatch(
            "func aroundSave(_ db: Database, save: () throws -> PersistenceSuccess) throws",
            "try object._aroundSave(db, save: save)")
        dispatch(
            "func aroundDelete(_ db: Database, delete: () throws -> Bool) throws",
            "try object._aroundDelete(db, delete: delete)")
    }
}
