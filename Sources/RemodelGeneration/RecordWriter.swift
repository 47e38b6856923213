internal import Foundation
import Remodel

/// Prints a ``RecordShape`` as Swift source: a file per table and the schema's file.
struct RecordWriter {
    let shape: RecordShape
    let bundleName: String
    let access: RecordGenerator.Access

    /// `public ` or nothing.
    var open: String { access == .public ? "public " : "" }
    var schema: String { shape.schemaTypeName }
    var versionName: String { shape.layout.version.name }

    /// Whether public declarations of these entities name a Foundation type (so the import must be public too).
    func usesFoundation(_ entities: [RecordShape.EntityShape]) -> Bool {
        let foundationTypes: Set<String> = ["Date", "Decimal", "Data", "UUID", "URL"]
        return entities.contains { entity in
            entity.attributes.contains { foundationTypes.contains(AttributeSwiftType.name(of: $0.attribute.type)) }
        }
    }

    func header(_ subject: String, publicFoundation: Bool) -> String {
        """
        \(RecordGenerator.marker) from the model \(SwiftNames.stringLiteral(bundleName)), \
        version \(SwiftNames.stringLiteral(versionName)) (Remodel \(version)).
        // \(subject). Do not edit: run `remodel generate` again when the model changes.
        // swift-format-ignore-file

        \(access == .public && publicFoundation ? "public " : "")import Foundation
        \(access == .public ? "public " : "")import GRDB

        """
    }

    static func literal(_ text: String) -> String { SwiftNames.stringLiteral(text) }

    // MARK: - A table's file

    func tableFile(_ index: Int) -> String {
        let table = shape.tables[index]
        return header(
            "The table \(Self.literal(table.table.name))",
            publicFoundation: usesFoundation(table.entityIndexes.map { shape.entities[$0] })) + tableBody(index)
    }

    /// Every table and the schema in one file, for a build-tool plugin that declares one output per model.
    func combinedFile() -> String {
        var text = header("Every table of the version and its schema", publicFoundation: usesFoundation(shape.entities))
        for index in shape.tables.indices { text += tableBody(index) + "\n" }
        return text + schemaBody()
    }

    func tableBody(_ index: Int) -> String {
        let table = shape.tables[index]
        var out = SwiftWriter()
        if table.isHierarchy {
            writeHierarchyRecord(table, to: &out)
        }
        for entityIndex in table.entityIndexes {
            out.line()
            writeEntity(shape.entities[entityIndex], table: table, to: &out)
        }
        out.line()
        writeRecordConformance(table, to: &out)
        out.line()
        writeAssociations(table, to: &out)
        return out.text
    }

    /// The enum of a table holding a hierarchy: one case per concrete entity.
    private func writeHierarchyRecord(_ table: RecordShape.TableShape, to out: inout SwiftWriter) {
        let entities = table.entityIndexes.map { shape.entities[$0] }
        let names = table.table.entities.joined(separator: ", ")
        out.doc(
            """
            An object of the table \(Self.literal(table.table.name)) (entities \(names)), as its concrete entity.

            GRDB reads a whole table with `all()`, so this enum is the table's record type: `fetchAll(db)` returns
            every object once. Each entity's own type reads only its objects: `Book.fetchAll(db)`.
            """)
        out.block("\(open)enum \(table.recordTypeName): Identifiable, Hashable, Sendable") { out in
            for entity in entities {
                out.line("case \(entity.caseName)(\(entity.typeName))")
            }
            out.line()
            writeKeyType(rootName: table.table.entities.first ?? table.table.name, to: &out)
            out.line()
            out.doc("The object's key.")
            out.block("\(open)var id: ID") { out in
                if entities.isEmpty {
                    out.line("switch self {}")
                    return
                }
                out.block("switch self", closing: "}") { out in
                    for entity in entities { out.line("case .\(entity.caseName)(let object): return object.id") }
                }
            }
        }
    }

    /// `ID`: a hierarchy's typed key, wrapping `_pk`.
    private func writeKeyType(rootName: String, to out: inout SwiftWriter) {
        out.doc(
            """
            The key of a \(rootName) object (its `_pk`), shared by every entity of the table. An object made in \
            Swift has ``ID/unassigned`` until it is inserted.
            """)
        out.block(
            "\(open)struct ID: RawRepresentable, Hashable, Comparable, Sendable, DatabaseValueConvertible, CustomStringConvertible"
        ) { out in
            out.doc("The object's `_pk`.")
            out.line("\(open)var rawValue: Int64")
            out.line()
            out.doc("The key of an object not inserted yet: `insert` gives the object its `_pk` as the store does.")
            out.line("\(open)static let unassigned = ID(rawValue: .min)")
            out.line()
            out.doc("A key from a `_pk`.")
            out.line("\(open)init(rawValue: Int64) { self.rawValue = rawValue }")
            out.line()
            out.doc("A key from a `_pk`.")
            out.line("\(open)init(_ rawValue: Int64) { self.rawValue = rawValue }")
            out.line()
            out.line("\(open)static func < (lhs: ID, rhs: ID) -> Bool { lhs.rawValue < rhs.rawValue }")
            out.line()
            out.line("\(open)var description: String { String(rawValue) }")
        }
    }

    // MARK: - An entity's value type

    private func writeEntity(
        _ entity: RecordShape.EntityShape, table: RecordShape.TableShape, to out: inout SwiftWriter
    ) {
        let name = entity.typeName
        let kinds = shape.concreteKinds(of: entity.entity.name).filter { $0 != entity.entity.name }
        var summary = "An object of the entity \(Self.literal(entity.entity.name))"
        if let parent = entity.entity.parentName { summary += " (a kind of \(parent))" }
        summary += " in version \(Self.literal(versionName)) of the model \(Self.literal(bundleName))."
        if !kinds.isEmpty {
            summary +=
                "\n\nIts type reads only objects whose concrete entity is \(entity.entity.name); \(kinds.joined(separator: ", ")) "
                + "objects are read as their own types (`\(table.recordTypeName)` reads them all)."
        }
        out.doc(summary)
        let conformances =
            table.isHierarchy ? "Identifiable, Hashable, Sendable, FetchableRecord" : "Identifiable, Hashable, Sendable"
        out.block("\(open)struct \(name): \(conformances)") { out in
            if table.isHierarchy {
                out.doc("The key of objects of the table \(Self.literal(table.table.name)).")
                out.line("\(open)typealias ID = \(table.recordTypeName).ID")
            } else {
                writeKeyType(rootName: entity.entity.name, to: &out)
            }
            out.line()
            out.doc("The entity's name, as the store's `_entity` column holds it.")
            out.line("\(open)static let entityName = \(Self.literal(entity.entity.name))")
            out.line()
            out.doc("The object's key (`_pk`), ``ID/unassigned`` until it is inserted.")
            out.line("\(open)var id: ID")
            for field in entity.attributes {
                let type = AttributeSwiftType.name(of: field.attribute.type) + (field.isOptional ? "?" : "")
                out.doc(attributeDoc(field))
                guard field.attribute.type == .decimal else {
                    out.line("\(open)var \(field.swiftName): \(type)")
                    continue
                }
                // A Decimal keeps the text the store holds (`12.30` stays `12.30`) until it is set.
                let wrap =
                    field.isOptional
                    ? "newValue.map(\(schema).StoredDecimal.init)" : "\(schema).StoredDecimal(newValue)"
                let unwrap = field.isOptional ? "_\(field.swiftName)?.value" : "_\(field.swiftName).value"
                out.block("\(open)var \(field.swiftName): \(type)") { out in
                    out.line("get { \(unwrap) }")
                    out.line("set { _\(field.swiftName) = \(wrap) }")
                }
                out.line("var _\(field.swiftName): \(schema).StoredDecimal\(field.isOptional ? "?" : "")")
            }
            for field in entity.toOnes {
                out.doc(
                    "The key of the \(field.relationship.isOptional ? "" : "required ")`\(field.relationship.name)` "
                        + "relationship's \(field.destination) (column `\(field.column)`).")
                out.line("\(open)var \(field.swiftName): \(shape.keyType(of: field.destination))?")
            }
            out.line()
            writeInitializer(entity, to: &out)
            out.line()
            out.doc("The columns of the entity's properties, for GRDB's query interface.")
            out.block("\(open)enum Columns") { out in
                out.line("\(open)static let id = Column(\(Self.literal(StoreColumn.pk)))")
                for (member, column) in shape.columnMembers(of: entity) {
                    out.line("\(open)static let \(member) = Column(\(Self.literal(column)))")
                }
            }
            out.line()
            writeRowInitializer(entity, table: table, to: &out)
        }
        out.line()
        writeQueries(entity, table: table, to: &out)
        out.line()
        writeValidation(entity, to: &out)
        out.line()
        writePersistence(entity, table: table, to: &out)
        if !entity.toOnes.isEmpty || !entity.toManys.isEmpty {
            out.line()
            writeRelationships(entity, table: table, to: &out)
        }
    }

    private func attributeDoc(_ field: RecordShape.AttributeField) -> String {
        var text = "`\(field.attribute.name)`: \(field.attribute.type.rawValue)"
        if field.attribute.isOptional { text += ", optional" }
        if let value = field.attribute.defaultValue { text += ", default \(value)" }
        if field.column != field.attribute.name { text += " (column `\(field.column)`)" }
        return text + "."
    }

    private func writeInitializer(_ entity: RecordShape.EntityShape, to out: inout SwiftWriter) {
        var parameters = ["id: ID = .unassigned"]
        for field in entity.attributes {
            let type = AttributeSwiftType.name(of: field.attribute.type) + (field.isOptional ? "?" : "")
            var parameter = "\(field.swiftName): \(type)"
            if let literal = AttributeSwiftType.defaultLiteral(of: field.attribute) {
                parameter += " = \(literal)"
            } else if field.isOptional {
                parameter += " = nil"
            }
            parameters.append(parameter)
        }
        for field in entity.toOnes {
            parameters.append("\(field.swiftName): \(shape.keyType(of: field.destination))? = nil")
        }
        out.doc("An object with the model's default values; `insert` gives it its key.")
        out.block("\(open)init(\(parameters.joined(separator: ", ")))") { out in
            out.line("self.id = id")
            for field in entity.attributes {
                if field.attribute.type == .decimal {
                    let wrap =
                        field.isOptional
                        ? "\(field.swiftName).map(\(schema).StoredDecimal.init)"
                        : "\(schema).StoredDecimal(\(field.swiftName))"
                    out.line("self._\(field.swiftName) = \(wrap)")
                } else {
                    out.line("self.\(field.swiftName) = \(field.swiftName)")
                }
            }
            for field in entity.toOnes { out.line("self.\(field.swiftName) = \(field.swiftName)") }
        }
    }

    /// `init(row:)` by column index, in the order of the table's selection.
    private func writeRowInitializer(
        _ entity: RecordShape.EntityShape, table: RecordShape.TableShape, to out: inout SwiftWriter
    ) {
        out.doc(
            """
            Reads an object from a row selected with `\(table.recordTypeName).databaseSelection`, by column index.
            - Throws: `\(schema).RecordError` when a column holds a value the attribute cannot have.
            """)
        out.block("\(open)init(row: Row) throws") { out in
            out.line("id = ID(rawValue: try row.decode(Int64.self, atIndex: 0))")
            for field in entity.attributes {
                let type = AttributeSwiftType.name(of: field.attribute.type)
                let read: String
                if let reader = AttributeSwiftType.reader(of: field.attribute.type) {
                    read =
                        "try \(schema).\(reader)(row, \(field.index), \(Self.literal(entity.entity.name)), \(Self.literal(field.attribute.name)))"
                } else {
                    read = "try row.decode(\(type)?.self, atIndex: \(field.index))"
                }
                let target = field.attribute.type == .decimal ? "_\(field.swiftName)" : field.swiftName
                if field.isOptional {
                    out.line("\(target) = \(read)")
                } else {
                    out.line(
                        "\(target) = try \(schema).required(\(read), row, \(Self.literal(entity.entity.name)), \(Self.literal(field.attribute.name)))"
                    )
                }
            }
            for field in entity.toOnes {
                out.line(
                    "\(field.swiftName) = try row.decode(Int64?.self, atIndex: \(field.index)).map(\(shape.keyType(of: field.destination)).init(rawValue:))"
                )
            }
        }
    }

    // MARK: - Queries

    private func writeQueries(
        _ entity: RecordShape.EntityShape, table: RecordShape.TableShape, to out: inout SwiftWriter
    ) {
        let name = entity.typeName
        guard table.isHierarchy else { return }
        let filter = "Column(\(Self.literal(StoreColumn.entity))) == \(Self.literal(entity.entity.name))"
        out.block("extension \(name)") { out in
            out.doc(
                """
                A request for every object whose concrete entity is \(entity.entity.name), ordered by key unless \
                you order it: a query on the table \(Self.literal(table.table.name)) filtered on `_entity`.
                """)
            out.block("\(open)static func all() -> QueryInterfaceRequest<\(name)>") { out in
                out.line("\(table.recordTypeName).filter(\(filter)).asRequest(of: \(name).self)")
            }
            out.line()
            out.doc("Every object whose concrete entity is \(entity.entity.name), by key.")
            out.block("\(open)static func fetchAll(_ db: Database) throws -> [\(name)]") { out in
                out.line("try all().order(Column(\(Self.literal(StoreColumn.pk)))).fetchAll(db)")
            }
            out.line()
            out.doc("The object with that key, if it is a \(entity.entity.name).")
            out.block("\(open)static func fetchOne(_ db: Database, id: ID) throws -> \(name)?") { out in
                out.line("try all().filter(Column(\(Self.literal(StoreColumn.pk))) == id.rawValue).fetchOne(db)")
            }
            out.line()
            out.doc("How many objects are \(entity.entity.name)s.")
            out.block("\(open)static func fetchCount(_ db: Database) throws -> Int") { out in
                out.line("try all().fetchCount(db)")
            }
        }
    }

    // MARK: - Validation

    private func writeValidation(_ entity: RecordShape.EntityShape, to out: inout SwiftWriter) {
        let entityLiteral = Self.literal(entity.entity.name)
        out.block("extension \(entity.typeName)") { out in
            out.doc(
                """
                Checks the object against the model's rules, as `remodel import` does: required values, minimum and \
                maximum (numbers by value, text by length in Unicode scalars, binary data by bytes, dates by time), \
                regular expressions and required to-one relationships. Inserts and updates call it first.
                - Throws: `\(schema).RecordError` naming the entity, the object and the property.
                """)
            out.block("\(open)func validate() throws") { out in
                for field in entity.attributes { writeAttributeChecks(field, entity: entityLiteral, to: &out) }
                for field in entity.toOnes where !field.relationship.isOptional {
                    out.block("if \(field.swiftName) == nil") { out in
                        out.line(
                            "throw \(schema).RecordError.invalid(\(entityLiteral), id.rawValue, \"relationship\", \(Self.literal(field.relationship.name)), \"a value is required, found nil\")"
                        )
                    }
                }
            }
        }
    }

    private func writeAttributeChecks(_ field: RecordShape.AttributeField, entity: String, to out: inout SwiftWriter) {
        let attribute = field.attribute
        let type = attribute.type
        let shift = type == .date ? ModelDefaultValue.referenceDateOffset : 0
        let minimum = attribute.minValue.flatMap { Double($0.trimmingCharacters(in: .whitespaces)) }.map { $0 + shift }
        let maximum = attribute.maxValue.flatMap { Double($0.trimmingCharacters(in: .whitespaces)) }.map { $0 + shift }
        let pattern = attribute.regularExpression.flatMap { $0.isEmpty ? nil : $0 }
        let checksNaN = type == .double || type == .float || type == .decimal
        let bounded = AttributeSwiftType.hasBounds(type) && (minimum != nil || maximum != nil)
        guard checksNaN || bounded || pattern != nil else { return }
        let name = Self.literal(attribute.name)
        let context = "\(entity), id.rawValue, \(name)"
        let value = field.isOptional ? "value" : field.swiftName
        var body: [String] = []
        if checksNaN {
            body.append("try \(schema).checkNotNaN(\(value).isNaN, \(context))")
        }
        if bounded {
            let measure: String
            let unit: String
            switch type {
            case .string: (measure, unit) = ("Double(\(value).unicodeScalars.count)", " characters")
            case .uri: (measure, unit) = ("Double(\(value).absoluteString.unicodeScalars.count)", " characters")
            case .binary, .transformable: (measure, unit) = ("Double(\(value).count)", " bytes")
            case .date: (measure, unit) = ("\(value).timeIntervalSince1970", "")
            case .decimal: (measure, unit) = ("Double(\(value).description) ?? 0", "")
            default: (measure, unit) = ("Double(\(value))", "")
            }
            let bound = { (number: Double?) in number.map { $0.description } ?? "nil" }
            body.append(
                "try \(schema).checkBounds(\(measure), minimum: \(bound(minimum)), maximum: \(bound(maximum)), unit: \(Self.literal(unit)), isDate: \(type == .date), \(context))"
            )
        }
        if let pattern {
            let text: String
            switch type {
            case .string, .composite: text = value
            case .uri, .decimal, .uuid: text = AttributeSwiftType.storedExpression(value, type: type)
            default: text = ""
            }
            if !text.isEmpty {
                body.append("try \(schema).checkPattern(\(text), \(Self.literal(pattern)), \(context))")
            }
        }
        guard !body.isEmpty else { return }
        if field.isOptional {
            out.block("if let value = \(field.swiftName)") { out in body.forEach { out.line($0) } }
        } else {
            body.forEach { out.line($0) }
        }
    }

    // MARK: - Persistence

    /// What every entity type has for its table's record type to call: encoding, the hooks around a save and a
    /// delete; and for an entity sharing its table, `insert`, `update`, `save` and `delete` through that type.
    private func writePersistence(
        _ entity: RecordShape.EntityShape, table: RecordShape.TableShape, to out: inout SwiftWriter
    ) {
        let entityLiteral = Self.literal(entity.entity.name)
        out.block("extension \(entity.typeName)") { out in
            out.line("func _encode(to container: inout PersistenceContainer) {")
            out.line(
                "    container[\(Self.literal(StoreColumn.pk))] = id == .unassigned ? nil : id.rawValue")
            out.line("    container[\(Self.literal(StoreColumn.entity))] = \(entityLiteral)")
            for field in entity.attributes {
                let column = Self.literal(field.column)
                if field.attribute.type == .decimal {
                    out.line("    container[\(column)] = _\(field.swiftName)\(field.isOptional ? "?" : "").stored")
                } else if field.isOptional {
                    let mapped = AttributeSwiftType.storedExpression("$0", type: field.attribute.type)
                    let value = mapped == "$0" ? field.swiftName : "\(field.swiftName).map { \(mapped) }"
                    out.line("    container[\(column)] = \(value)")
                } else {
                    out.line(
                        "    container[\(column)] = \(AttributeSwiftType.storedExpression(field.swiftName, type: field.attribute.type))"
                    )
                }
            }
            for field in entity.toOnes {
                out.line("    container[\(Self.literal(field.column))] = \(field.swiftName)?.rawValue")
            }
            out.line("}")
            out.line()
            writeAroundSave(entity, table: table, to: &out)
            out.line()
            writeAroundDelete(entity, to: &out)
            out.line()
            writeInsert(entity, table: table, to: &out)
            guard table.isHierarchy else { return }
            let record = table.recordTypeName
            out.line()
            out.doc(
                """
                Writes the object's values over its row, after `validate()`.
                - Throws: `\(schema).RecordError`, GRDB's `RecordError.recordNotFound` when the row is gone, or \
                `DatabaseError`.
                """)
            out.block("\(open)func update(_ db: Database) throws") { out in
                out.line("try \(record).\(entity.caseName)(self).update(db)")
            }
            out.line()
            out.doc("Updates the object's row, or inserts it when there is none.")
            out.block("\(open)mutating func save(_ db: Database) throws") { out in
                out.line("var record = \(record).\(entity.caseName)(self)")
                out.line("try record.save(db)")
                out.line("id = record.id")
            }
            out.line()
            out.doc(
                """
                Deletes the object, following the model's delete rules: Deny refuses, Cascade deletes the related objects,
                every reference to the object is cleared.
                - Returns: Whether there was a row to delete.
                """)
            out.line("@discardableResult")
            out.block("\(open)func delete(_ db: Database) throws -> Bool") { out in
                out.line("try \(record).\(entity.caseName)(self).delete(db)")
            }
        }
    }

    /// `insert` as one cached statement: what GRDB's `insert` does for the record (validate, write the row, give
    /// the key, keep the other sides), without building a persistence container and its SQL for every object.
    /// GRDB's own `insert(_:onConflict:)` still works, through the record's hooks.
    private func writeInsert(
        _ entity: RecordShape.EntityShape, table: RecordShape.TableShape, to out: inout SwiftWriter
    ) {
        let columns =
            [StoreColumn.pk, StoreColumn.entity] + entity.attributes.map(\.column) + entity.toOnes.map(\.column)
        let sql =
            "INSERT INTO \(quoteIdentifier(table.table.name)) (\(columns.map(quoteIdentifier).joined(separator: ", "))) "
            + "VALUES (\(Array(repeating: "?", count: columns.count).joined(separator: ", ")))"
        var values = ["id == .unassigned ? nil : id.rawValue", Self.literal(entity.entity.name)]
        for field in entity.attributes {
            if field.attribute.type == .decimal {
                values.append("_\(field.swiftName)\(field.isOptional ? "?" : "").stored")
            } else if field.isOptional {
                let mapped = AttributeSwiftType.storedExpression("$0", type: field.attribute.type)
                values.append(mapped == "$0" ? field.swiftName : "\(field.swiftName).map { \(mapped) }")
            } else {
                values.append(AttributeSwiftType.storedExpression(field.swiftName, type: field.attribute.type))
            }
        }
        values += entity.toOnes.map { "\($0.swiftName)?.rawValue" }
        let properties = propertyNamesByColumn(entity)
        let constraints = entity.uniqueness.map { "[" + $0.map { Self.literal($0) }.joined(separator: ", ") + "]" }
        out.doc(
            """
            Inserts the object as a row of the table \(Self.literal(table.table.name)), after `validate()`, and gives \
            it its key (the next `_pk`, as the store numbers objects) unless it has one.
            - Throws: `\(schema).RecordError` for a rule the object breaks, or GRDB's `DatabaseError`.
            """)
        out.block("\(open)mutating func insert(_ db: Database) throws") { out in
            out.line("try validate()")
            out.line("let statement = try db.cachedStatement(sql: \(Self.literal(sql)))")
            out.line("do {")
            out.line("    try statement.execute(arguments: [\(values.joined(separator: ", "))])")
            out.line("} catch let error as DatabaseError {")
            out.line(
                "    throw \(schema).RecordError.saving(error, \(Self.literal(entity.entity.name)), id.rawValue, constraints: [\(constraints.joined(separator: ", "))], properties: \(properties))"
            )
            out.line("}")
            out.line("if id == .unassigned { id = ID(rawValue: db.lastInsertedRowID) }")
            for field in keptToOnes(entity) {
                out.line(
                    "if \(field.swiftName) != nil { try _keep\(SwiftNames.upperFirst(field.swiftName))(db, key: id.rawValue, old: nil) }"
                )
            }
        }
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
    private func keptToOnes(_ entity: RecordShape.EntityShape) -> [RecordShape.ToOneField] {
        entity.toOnes.filter {
            if case .none = $0.inverse { return false }
            return true
        }
    }

    private func writeAroundSave(
        _ entity: RecordShape.EntityShape, table: RecordShape.TableShape, to out: inout SwiftWriter
    ) {
        let kept = keptToOnes(entity)
        let quotedTable = quoteIdentifier(table.table.name)
        let pk = quoteIdentifier(StoreColumn.pk)
        let columns = entity.uniqueness.map { constraint in
            "[" + constraint.map { property in Self.literal(property) }.joined(separator: ", ") + "]"
        }
        let columnNames =
            "["
            + shape.columnMembers(of: entity).enumerated().map { offset, member in
                let property =
                    offset < entity.attributes.count
                    ? entity.attributes[offset].attribute.name
                    : entity.toOnes[offset - entity.attributes.count].relationship.name
                return "\(Self.literal(member.column)): \(Self.literal(property))"
            }.joined(separator: ", ") + "]"
        out.line("func _aroundSave(_ db: Database, save: () throws -> PersistenceSuccess) throws {")
        if !kept.isEmpty {
            let selected = kept.map { quoteIdentifier($0.column) }.joined(separator: ", ")
            out.line(
                "    let previous = id == .unassigned ? nil : try Row.fetchOne(db, sql: \(Self.literal("SELECT \(selected) FROM \(quotedTable) WHERE \(pk) = ?")), arguments: [id.rawValue])"
            )
        }
        out.line("    do {")
        out.line("        _ = try save()")
        out.line("    } catch let error as DatabaseError {")
        out.line(
            "        throw \(schema).RecordError.saving(error, \(Self.literal(entity.entity.name)), id.rawValue, constraints: [\(columns.joined(separator: ", "))], properties: \(columnNames == "[]" ? "[:]" : columnNames))"
        )
        out.line("    }")
        if !kept.isEmpty {
            out.line("    let key = id == .unassigned ? db.lastInsertedRowID : id.rawValue")
            for (offset, field) in kept.enumerated() {
                out.line("    let old\(offset) = try previous?.decode(Int64?.self, atIndex: \(offset))")
                out.line("    if previous == nil || old\(offset) != \(field.swiftName)?.rawValue {")
                out.line("        try _keep\(SwiftNames.upperFirst(field.swiftName))(db, key: key, old: old\(offset))")
                out.line("    }")
            }
        }
        out.line("}")
        for field in kept {
            out.line()
            writeKeepInverse(field, table: table, to: &out)
        }
    }

    /// After a to-one changed: the position in an ordered inverse (appended at the end), or the other side of a
    /// one-to-one (which then names only this object).
    private func writeKeepInverse(
        _ field: RecordShape.ToOneField, table: RecordShape.TableShape, to out: inout SwiftWriter
    ) {
        let quotedTable = quoteIdentifier(table.table.name)
        let pk = quoteIdentifier(StoreColumn.pk)
        let column = quoteIdentifier(field.column)
        out.line(
            "func _keep\(SwiftNames.upperFirst(field.swiftName))(_ db: Database, key: Int64, old: Int64?) throws {")
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
            out.line(
                "    try db.execute(sql: \(Self.literal("UPDATE \(other) SET \(back) = NULL WHERE \(back) = ?1 AND \(pk) IS NOT ?2")), arguments: [key, new])"
            )
            out.line("    guard let new else { return }")
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
    /// reference to an object that is gone.
    private func writeAroundDelete(_ entity: RecordShape.EntityShape, to out: inout SwiftWriter) {
        let entityLiteral = Self.literal(entity.entity.name)
        out.line("func _aroundDelete(_ db: Database, delete: () throws -> Bool) throws {")
        out.line("    guard id != .unassigned else { _ = try delete(); return }")
        var cascades: [(String, String)] = []
        for (name, relationship, request) in relationshipRequests(entity) {
            switch relationship.deletionRule {
            case .deny?:
                out.line("    if try \(request).fetchCount(db) > 0 {")
                out.line(
                    "        throw \(schema).RecordError.deleteDenied(\(entityLiteral), id.rawValue, \(Self.literal(relationship.name)))"
                )
                out.line("    }")
            case .cascade?:
                let variable = "cascade\(SwiftNames.upperFirst(name))"
                out.line("    let \(variable) = try \(request).fetchAll(db)")
                cascades.append((variable, relationship.name))
            default:
                break
            }
        }
        for statement in referenceClearingSQL(of: entity.entity.name) {
            out.line("    try db.execute(sql: \(Self.literal(statement)), arguments: [id.rawValue])")
        }
        out.line("    _ = try delete()")
        for (variable, _) in cascades {
            out.line("    for object in \(variable) { try object.delete(db) }")
        }
        out.line("}")
    }

    /// Each relationship of the entity with the Swift request for its objects.
    private func relationshipRequests(_ entity: RecordShape.EntityShape) -> [(String, Relationship, String)] {
        entity.toOnes.map { ($0.swiftName, $0.relationship, "\($0.swiftName)Request") }
            + entity.toManys.map { ($0.swiftName, $0.relationship, "\($0.swiftName)Request") }
    }

    /// SQL that clears every reference to an object of `entityName` (one `?`: its `_pk`): to-one columns whose
    /// destination may be it (with their order columns), and join table rows on either side.
    func referenceClearingSQL(of entityName: String) -> [String] {
        let layout = shape.layout
        let version = layout.version
        var statements: [String] = []
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
                statements.append(
                    "UPDATE \(quoteIdentifier(table.name)) SET \(sets.joined(separator: ", ")) WHERE \(quoteIdentifier(column.name)) = ?"
                )
            }
        }
        for join in layout.joinTables {
            var sides: [String] = []
            if version.entity(named: join.sourceEntity).map({ layout.kinds(of: $0.name).contains(entityName) }) == true
            {
                sides.append(quoteIdentifier(StoreColumn.joinSource))
            }
            if layout.kinds(of: join.destinationEntity).contains(entityName) {
                sides.append(quoteIdentifier(StoreColumn.joinDestination))
            }
            for side in sides {
                statements.append("DELETE FROM \(quoteIdentifier(join.name)) WHERE \(side) = ?")
            }
        }
        return statements
    }
}
