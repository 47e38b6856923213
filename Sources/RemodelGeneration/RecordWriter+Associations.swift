import Remodel

/// GRDB associations, with explicit foreign keys (the layout declares none), on every entity's type and on a
/// hierarchy's record type: what `request(for:)`, `including(required:)`, `including(all:)` and `joining` take. An
/// association to an entity whose table holds others reads that entity's objects only.
extension RecordWriter {
    func writeAssociations(
        _ entity: RecordShape.EntityShape, table: RecordShape.TableShape, to out: inout SwiftWriter
    ) {
        out.block("extension \(entity.typeName)") { out in
            let fields = entity.toOnes.map { AssociatedField.toOne($0) } + entity.toManys.map { .toMany($0) }
            for line in associationLines(
                origin: entity.typeName, table: table, fields: fields.map { ($0, $0.swiftName) })
            {
                out.line(line)
            }
        }
    }

    /// A hierarchy's record type: one association per relationship of its entities.
    func writeHierarchyAssociations(_ table: RecordShape.TableShape, to out: inout SwiftWriter) {
        var written: Set<StoreLayout.PropertyKey> = []
        var fields: [(AssociatedField, String)] = []
        for entityIndex in table.entityIndexes {
            let entity = shape.entities[entityIndex]
            for field in entity.toOnes.map({ AssociatedField.toOne($0) }) + entity.toManys.map({ .toMany($0) }) {
                let key = shape.declaringKey(field.relationship, in: entity.entity)
                guard written.insert(key).inserted, let name = table.associationNames[key] else { continue }
                fields.append((field, name))
            }
        }
        guard !fields.isEmpty else { return }
        // Each relationship under its own name: two sub-entities may each have a relationship of one name.
        out.block("extension \(table.recordTypeName)") { out in
            for line in associationLines(origin: table.recordTypeName, table: table, fields: fields) {
                out.line(line)
            }
        }
    }

    enum AssociatedField {
        case toOne(RecordShape.ToOneField)
        case toMany(RecordShape.ToManyField)

        var relationship: Relationship {
            switch self {
            case .toOne(let field): field.relationship
            case .toMany(let field): field.relationship
            }
        }

        var swiftName: String {
            switch self {
            case .toOne(let field): field.swiftName
            case .toMany(let field): field.swiftName
            }
        }

        var destination: String {
            switch self {
            case .toOne(let field): field.destination
            case .toMany(let field): field.destination
            }
        }
    }

    /// `.filter(…)` on `_entity` for a request of objects of `entityName`, where its table holds other entities.
    func kindFilter(_ entityName: String) -> String {
        guard let table = shape.layout.table(forEntity: entityName) else { return "" }
        let kinds = shape.concreteKinds(of: entityName)
        if Set(table.entities.filter { shape.layout.version.entity(named: $0)?.isAbstract == false })
            == Set(kinds)
        {
            return ""
        }
        let column = "Column(\(Self.literal(StoreColumn.entity)))"
        if kinds.count == 1 { return ".filter(\(column) == \(Self.literal(kinds[0])))" }
        return ".filter([\(kinds.map(Self.literal).joined(separator: ", "))].contains(\(column)))"
    }

    /// The lines of `fields`' associations, each declared under the name paired with it.
    private func associationLines(
        origin: String, table: RecordShape.TableShape, fields: [(AssociatedField, String)]
    ) -> [String] {
        var lines: [String] = []
        let pkLiteral = Self.literal(StoreColumn.pk)
        for (field, member) in fields {
            let key = Self.literal(shape.associationKey(member, in: table))
            let target = shape.fetchType(of: field.destination)
            let filter = kindFilter(field.destination)
            switch field {
            case .toOne(let toOne):
                lines.append(
                    "/// The `\(field.relationship.name)` relationship (column `\(toOne.column)`), under the key \(key)."
                )
                lines.append(
                    "\(open)static var \(member): BelongsToAssociation<\(origin), \(target)> { belongsTo(\(target).self, key: \(key), using: ForeignKey([\(Self.literal(toOne.column))], to: [\(pkLiteral)]))\(filter) }"
                )
            case .toMany(let toMany):
                lines.append("/// The `\(field.relationship.name)` relationship, under the key \(key).")
                switch toMany.storage {
                case .inverseColumn(_, let column, let orderColumn):
                    let order =
                        orderColumn.map { ".order(Column(\(Self.literal($0))), Column(\(pkLiteral)))" }
                        ?? ".order(Column(\(pkLiteral)))"
                    lines.append(
                        "\(open)static var \(member): HasManyAssociation<\(origin), \(target)> { hasMany(\(target).self, key: \(key), using: ForeignKey([\(Self.literal(column))], to: [\(pkLiteral)]))\(filter)\(order) }"
                    )
                case .joinTable(let joinName, let ownerIsSource, let orderColumn):
                    guard let link = shape.joins.first(where: { $0.join.name == joinName }) else { continue }
                    let linkType = "\(schema).Links.\(link.typeName)"
                    let mine = ownerIsSource ? StoreColumn.joinSource : StoreColumn.joinDestination
                    let otherSide = ownerIsSource ? "destinationObject" : "sourceObject"
                    let pivotOrder = orderColumn.map { ".order(Column(\(Self.literal($0))))" } ?? ""
                    let targetOrder = orderColumn == nil ? ".order(Column(\(pkLiteral)))" : ""
                    let pivotKey = Self.literal(shape.associationKey(member, in: table) + "Links")
                    lines.append(
                        "\(open)static var \(member): HasManyThroughAssociation<\(origin), \(target)> { hasMany(\(target).self, through: hasMany(\(linkType).self, key: \(pivotKey), using: ForeignKey([\(Self.literal(mine))], to: [\(pkLiteral)]))\(pivotOrder), using: \(linkType).\(otherSide), key: \(key))\(targetOrder) }"
                    )
                case .column:
                    continue
                }
            }
        }
        return lines
    }
}
