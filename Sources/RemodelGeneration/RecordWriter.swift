internal import Foundation
import RemodelModel

/// Prints a ``RecordShape`` as Swift source: a file per table and the schema's file.
///
/// Every concrete entity gets the same shape, whether or not it has a parent or children: a value type conforming
/// to GRDB's `FetchableRecord` and `MutablePersistableRecord` (so `TableRecord`), `Codable`, `Identifiable` with
/// `id: Key?`, whose GRDB callbacks validate, check keys, keep relationships and follow delete rules. A table that
/// holds several entities also gets an enum over them, its record type; each entity's type there reads only its own
/// objects (``RecordWriter/sharedTableSupport``).
struct RecordWriter {
    let shape: RecordShape
    let bundleName: String
    let access: RecordGenerator.Access

    /// `public ` or nothing.
    var open: String { access == .public ? "public " : "" }
    var schema: String { shape.schemaTypeName }
    var versionName: String { shape.layout.version.name }
    /// The configuration the records are of, `nil` for every entity of the version.
    var configurationName: String? { shape.layout.version.configurationName }

    /// Whether public declarations of these entities name a Foundation type (so the import must be public too).
    func usesFoundation(_ entities: [RecordShape.EntityShape]) -> Bool {
        let foundationTypes: Set<String> = ["Date", "Decimal", "Data", "UUID", "URL"]
        return entities.contains { entity in
            entity.attributes.contains { foundationTypes.contains(AttributeCoding.swiftType(of: $0.attribute.type)) }
        }
    }

    func header(_ subject: String, publicFoundation: Bool) -> String {
        """
        \(RecordGenerator.marker) from the model \(SwiftNames.stringLiteral(bundleName)), \
        version \(SwiftNames.stringLiteral(versionName))\(configurationName.map { ", configuration " + Self.literal($0) } ?? "") \
        (Remodel \(version)).
        // \(subject). Do not edit: run `remodel generate` again when the model changes.
        // swift-format-ignore-file

        \(access == .public && publicFoundation ? "public " : "")import Foundation
        \(access == .public ? "public " : "")import GRDB
        \(usesArchives ? Self.archiveImports : "")
        """
    }

    /// The two names the archived values use, imported alone so that no other name of `Remodel` (its `Store`, its
    /// SQLite types) meets the app's own or GRDB's.
    static let archiveImports = "import enum Remodel.KeyedArchiveCoding\nimport protocol Remodel.KeyedArchivable\n"

    static func literal(_ text: String) -> String { SwiftNames.stringLiteral(text) }

    func coding(_ field: RecordShape.AttributeField) -> AttributeCoding {
        AttributeCoding(field: field, schema: schema)
    }

    // MARK: - A table's file

    func tableFile(_ index: Int) -> String {
        let table = shape.tables[index]
        return header(
            "The table \(Self.literal(table.table.name))",
            publicFoundation: usesFoundation(table.entityIndexes.map { shape.entities[$0] })) + tableBody(index)
    }

    /// Every table and the schema in one file, for a build-tool plugin that declares one output per model.
    func combinedFile() -> String {
        var text = header(
            "Every table of the version and its schema",
            publicFoundation: usesFoundation(shape.entities) || compositesUseFoundation)
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
        if table.isHierarchy {
            out.line()
            writeHierarchyConformance(table, to: &out)
            out.line()
            writeHierarchyAssociations(table, to: &out)
        }
        return out.text
    }

    /// `Key`: a hierarchy's typed key, wrapping `_pk`.
    func writeKeyType(rootName: String, to out: inout SwiftWriter) {
        out.doc(
            """
            The key of a \(rootName) object (its `_pk`), shared by every entity of the table: `insert` gives it, so \
            an object's `id` is nil until then. `Key(3)`, `Key(rawValue: 3)` or a literal `3`.
            """)
        out.block(
            "\(open)struct Key: RawRepresentable, Hashable, Comparable, Sendable, Codable, ExpressibleByIntegerLiteral, DatabaseValueConvertible, CustomStringConvertible"
        ) { out in
            out.doc("The object's `_pk`.")
            out.line("\(open)var rawValue: Int64")
            out.line()
            out.doc("A key from a `_pk`.")
            out.line("\(open)init(rawValue: Int64) { self.rawValue = rawValue }")
            out.line()
            out.doc("A key from a `_pk`.")
            out.line("\(open)init(_ rawValue: Int64) { self.rawValue = rawValue }")
            out.line()
            out.doc("A key from a `_pk` written as a literal.")
            out.line("\(open)init(integerLiteral value: Int64) { self.rawValue = value }")
            out.line()
            out.line("\(open)static func < (lhs: Key, rhs: Key) -> Bool { lhs.rawValue < rhs.rawValue }")
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
        if table.isHierarchy {
            summary +=
                "\n\nIts table \(Self.literal(table.table.name)) holds other entities' objects too: GRDB's requests "
                + "on this type (`all()`, `filter`, `fetchAll`, `including`, …) read only objects whose concrete "
                + "entity is \(entity.entity.name)"
                + (kinds.isEmpty ? "" : " (\(kinds.joined(separator: ", ")) objects are read as their own types)")
                + "; `\(table.recordTypeName)` reads them all."
        }
        out.doc(summary)
        let conformances = "Identifiable, Hashable, Sendable, FetchableRecord, MutablePersistableRecord"
        out.block("\(open)struct \(name): \(conformances)") { out in
            if table.isHierarchy {
                out.doc("The key of objects of the table \(Self.literal(table.table.name)).")
                out.line("\(open)typealias Key = \(table.recordTypeName).Key")
            } else {
                writeKeyType(rootName: entity.entity.name, to: &out)
            }
            out.line()
            out.doc("The entity's name, as the store's `_entity` column holds it.")
            out.line("\(open)static let entityName = \(Self.literal(entity.entity.name))")
            out.doc("The table holding the entity's objects.")
            out.line("\(open)static let databaseTableName = \(Self.literal(table.table.name))")
            if table.isHierarchy {
                out.doc("The columns `init(row:)` reads: the table's.")
                out.line(
                    "\(open)static var databaseSelection: [any SQLSelectable] { \(table.recordTypeName).databaseSelection }"
                )
            } else {
                writeSelection(table, to: &out)
            }
            out.line()
            out.doc("The object's key (`_pk`): nil until it is inserted.")
            out.line("\(open)var id: Key?")
            for field in entity.attributes {
                let coding = coding(field)
                out.doc(attributeDoc(field))
                // A derived attribute is read-only: the store computes it, the app never assigns it.
                let setter = field.isDerived ? "private(set) " : ""
                guard let storedForm = coding.storedForm else {
                    out.line("\(open)\(setter)var \(field.swiftName): \(coding.propertyType)")
                    continue
                }
                // A Decimal keeps the text the store holds (`12.30` stays `12.30`) until it is set.
                if field.isDerived {
                    out.line("\(open)var \(field.swiftName): \(coding.propertyType) { \(coding.propertyValue) }")
                } else {
                    out.block("\(open)var \(field.swiftName): \(coding.propertyType)") { out in
                        out.line("get { \(coding.propertyValue) }")
                        out.line("set { \(coding.storage) = \(coding.storageValue("newValue")) }")
                    }
                }
                out.line("\(setter)var \(coding.storage): \(storedForm)\(field.isOptional ? "?" : "")")
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
        writeCodable(entity, table: table, to: &out)
        out.line()
        writeValidation(entity, to: &out)
        out.line()
        writePersistence(entity, table: table, to: &out)
        if !entity.toOnes.isEmpty || !entity.toManys.isEmpty {
            out.line()
            writeRelationships(entity, table: table, to: &out)
            out.line()
            writeAssociations(entity, table: table, to: &out)
        }
        if table.isHierarchy {
            out.line()
            out.line("extension \(name): \(schema).SharedTableRecord {}")
        }
    }

    /// `databaseSelection`: the table's columns in the layout's order, to-one keys under their row names.
    func writeSelection(_ table: RecordShape.TableShape, to out: inout SwiftWriter) {
        let selection = zip(table.selection, table.rowNames).map { column, name in
            column == name
                ? "Column(\(Self.literal(column)))" : "Column(\(Self.literal(column))).forKey(\(Self.literal(name)))"
        }.joined(separator: ", ")
        out.doc(
            """
            The columns `init(row:)` reads, by index, in this order: a store's table may have its columns in another \
            order (a column added by a migration comes last), and columns the app added. A to-one's key is read \
            as `<relationship>_pk`, so that GRDB's eager loading finds the related object under the relationship's \
            name.
            """)
        out.line("\(open)static var databaseSelection: [any SQLSelectable] { [\(selection)] }")
    }

    private func attributeDoc(_ field: RecordShape.AttributeField) -> String {
        var text = "`\(field.attribute.name)`: \(field.attribute.type.rawValue)"
        if field.attribute.isOptional { text += ", optional" }
        if let value = field.attribute.defaultValue { text += ", default \(value)" }
        if field.column != field.attribute.name { text += " (column `\(field.column)`)" }
        if field.isDerived {
            text +=
                ", derived (`\(field.attribute.derivationExpression ?? "")`): computed by the store, never written by"
                + " the record; nil until the object is read, and as it was read until it is read again"
        }
        return text + "."
    }

    private func writeInitializer(_ entity: RecordShape.EntityShape, to out: inout SwiftWriter) {
        var parameters = ["id: Key? = nil"]
        for field in entity.attributes where !field.isDerived {
            var parameter = "\(field.swiftName): \(coding(field).propertyType)"
            if let literal = AttributeCoding.defaultLiteral(of: field.attribute) {
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
                let coding = coding(field)
                out.line("self.\(coding.storage) = \(field.isDerived ? "nil" : coding.storageValue(field.swiftName))")
            }
            for field in entity.toOnes { out.line("self.\(field.swiftName) = \(field.swiftName)") }
        }
    }

    /// `init(row:)` by column index, in the order of the table's selection. In a table of several entities it
    /// refuses a row of another entity, so that no request (GRDB's own included) reads one as this type.
    private func writeRowInitializer(
        _ entity: RecordShape.EntityShape, table: RecordShape.TableShape, to out: inout SwiftWriter
    ) {
        out.doc(
            """
            Reads an object from a row selected with `databaseSelection`, by column index.
            - Throws: `\(schema).RecordError` when a column holds a value the attribute cannot have\
            \(table.isHierarchy ? ", or the row is another entity's" : "").
            """)
        let entityLiteral = Self.literal(entity.entity.name)
        if table.isHierarchy {
            out.block("\(open)init(row: Row) throws") { out in
                out.line("try \(schema).requireEntity(row, \(entityLiteral), table: \(Self.literal(table.table.name)))")
                out.line("try self.init(_uncheckedRow: row)")
            }
            out.line()
            out.doc("Reads an object from a row whose `_entity` was read already.")
        }
        out.block(table.isHierarchy ? "init(_uncheckedRow row: Row) throws" : "\(open)init(row: Row) throws") { out in
            out.line("id = Key(rawValue: try row.decode(Int64.self, atIndex: 0))")
            for field in entity.attributes {
                let coding = coding(field)
                out.line("\(coding.storage) = \(coding.rowRead(entity: entity.entity.name))")
            }
            for field in entity.toOnes {
                out.line(
                    "\(field.swiftName) = try row.decode(Int64?.self, atIndex: \(field.index)).map(\(shape.keyType(of: field.destination)).init(rawValue:))"
                )
            }
        }
    }

    // MARK: - Codable

    /// `Codable`, keyed by the row's names (`_pk`, the attributes' columns, `<relationship>_pk`): so a record nests
    /// in GRDB's eager-loading structs (a to-many's rows are decoded this way), and encodes as JSON like
    /// `remodel export` names things.
    private func writeCodable(
        _ entity: RecordShape.EntityShape, table: RecordShape.TableShape, to out: inout SwiftWriter
    ) {
        out.block("extension \(entity.typeName): Codable") { out in
            out.doc(
                """
                Decodes an object keyed by its row's names; GRDB's row decoder reads the columns as the store \
                layout encodes them.
                """)
            out.block("\(open)init(from decoder: any Decoder) throws") { out in
                if table.isHierarchy {
                    out.line("try \(schema).requireEntity(decoder, Self.entityName)")
                }
                out.line("let container = try decoder.container(keyedBy: \(schema).ColumnKey.self)")
                out.line("id = try container.decodeIfPresent(Key.self, forKey: \(Self.literal(StoreColumn.pk)))")
                for field in entity.attributes { out.line(coding(field).decodeStatement) }
                for field in entity.toOnes {
                    out.line(
                        "\(field.swiftName) = try container.decodeIfPresent(\(shape.keyType(of: field.destination)).self, forKey: \(Self.literal(field.rowName)))"
                    )
                }
            }
            out.line()
            out.doc("Encodes the object keyed by its row's names.")
            out.block("\(open)func encode(to encoder: any Encoder) throws") { out in
                out.line("var container = encoder.container(keyedBy: \(schema).ColumnKey.self)")
                out.line("try container.encodeIfPresent(id, forKey: \(Self.literal(StoreColumn.pk)))")
                for field in entity.attributes { out.line(coding(field).encodeStatement) }
                for field in entity.toOnes {
                    out.line(
                        "try container.encodeIfPresent(\(field.swiftName), forKey: \(Self.literal(field.rowName)))")
                }
            }
        }
    }

    // MARK: - Validation

    private func writeValidation(_ entity: RecordShape.EntityShape, to out: inout SwiftWriter) {
        let entityLiteral = Self.literal(entity.entity.name)
        out.block("extension \(entity.typeName)") { out in
            out.doc(
                """
                Checks the object against the model's rules, as `remodel import` does: minimum and maximum (numbers \
                by value, text by length in Unicode scalars, binary data by bytes, dates by time), regular \
                expressions, values SQLite cannot keep (NaN) and required to-one relationships. GRDB's `insert`, \
                `update`, `save` and `upsert` call it first (`willSave`), then check that every to-one key names an \
                object of its destination.
                - Throws: `\(schema).RecordError` naming the entity, the object and the property.
                """)
            out.block("\(open)func validate() throws") { out in
                for field in entity.attributes where coding(field).isWritten {
                    writeAttributeChecks(field, entity: entityLiteral, to: &out)
                }
                for field in entity.toOnes where !field.relationship.isOptional {
                    out.block("if \(field.swiftName) == nil") { out in
                        out.line(
                            "throw \(schema).RecordError.invalid(\(entityLiteral), id?.rawValue, \"relationship\", \(Self.literal(field.relationship.name)), \"a value is required, found nil\")"
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
        let checksNaN = AttributeCoding.checksNaN(type)
        let bounded = AttributeCoding.hasBounds(type) && (minimum != nil || maximum != nil)
        guard checksNaN || bounded || pattern != nil else { return }
        let name = Self.literal(attribute.name)
        let context = "\(entity), id?.rawValue, \(name)"
        let value = field.isOptional ? "value" : field.swiftName
        var body: [String] = []
        if checksNaN {
            if type == .date {
                body.append("try \(schema).checkFinite(\(value).timeIntervalSince1970, \(context))")
            } else {
                body.append("try \(schema).checkNotNaN(\(value).isNaN, \(context))")
            }
        }
        if bounded {
            let measure: String
            let unit: String
            switch type {
            case .string: (measure, unit) = ("Double(\(value).unicodeScalars.count)", " characters")
            case .uri: (measure, unit) = ("Double(\(value).absoluteString.unicodeScalars.count)", " characters")
            case .transformable where field.archivedType != nil:
                (measure, unit) = ("Double(KeyedArchiveCoding.encode(\(value)).count)", " bytes")
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
            case .string: text = value
            case .uri, .decimal, .uuid: text = AttributeCoding.storedExpression(value, type: type)
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
}
