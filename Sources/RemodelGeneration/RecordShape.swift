import RemodelModel

/// What the generated code looks like for one model version, resolved once from its ``StoreLayout``: every Swift
/// name (docs/TYPED-ACCESS.md, "Names"), every column and where each relationship is kept. The writers only print
/// it; none of them derives a name or a column again.
struct RecordShape {
    /// A stored attribute of an entity (declared or inherited).
    struct AttributeField {
        var attribute: Attribute
        var swiftName: String
        var column: String
        /// The column's position in the table's selection, which `init(row:)` reads.
        var index: Int
        /// The struct of a Composite attribute, nested in the schema enum (``RecordShape/compositeTypeNames``).
        var compositeType: String? = nil
        /// The Swift type of a Transformable attribute whose `customClassName` names a property-list type
        /// (`ArchivedValueType`): the records read and write its keyed archive as that type.
        var archivedType: String? = nil
        /// A derived attribute's value is nil until the object is read from the store, which computes it.
        var isOptional: Bool { attribute.isOptional || attribute.isDerived }
        /// Whether the store computes the value (docs/MODELS.md, "Derived attributes"): the records read it and never
        /// write it.
        var isDerived: Bool { attribute.isDerived }
    }

    /// What keeps the other side of a to-one in step with it.
    enum ToOneInverse {
        /// No inverse, or a to-many stored as this column read backwards, unordered.
        case none
        /// An ordered to-many: this table's `orderColumn` holds the object's position in it.
        case orderedToMany(orderColumn: String)
        /// A one-to-one: the destination table's `column` points back.
        case toOne(table: String, column: String)
    }

    /// A to-one relationship: a key property and a column of the entity's table.
    struct ToOneField {
        var relationship: Relationship
        var swiftName: String
        var column: String
        /// The name the selection gives the column (`author_pk`), so that a row of GRDB's eager loading holds the
        /// related object under the relationship's name (`author`) and its key under this one.
        var rowName: String
        var index: Int
        var destination: String
        var inverse: ToOneInverse
    }

    /// A to-many relationship: a request and link methods; no stored property.
    struct ToManyField {
        var relationship: Relationship
        var swiftName: String
        var destination: String
        var storage: StoreLayout.RelationshipStorage
        /// For a join table: the join table, and whether the relationship is its own inverse (both directions kept).
        var join: StoreLayout.JoinTable?
        var isOwnInverse: Bool
    }

    /// A concrete entity: one Swift value type.
    struct EntityShape {
        var entity: Entity
        var typeName: String
        /// The case of the hierarchy's enum holding it.
        var caseName: String
        var tableIndex: Int
        var attributes: [AttributeField]
        var toOnes: [ToOneField]
        var toManys: [ToManyField]
        /// The uniqueness constraints of the entity and its ancestors, as attribute or relationship names.
        var uniqueness: [[String]]
    }

    /// One table: one record type conforming to GRDB's record protocols.
    struct TableShape {
        var table: StoreLayout.Table
        /// The record type: the entity's own type for an entity alone in its table, else `Any<Root>`.
        var recordTypeName: String
        var isHierarchy: Bool
        /// The columns `init(row:)` reads, in order: `_pk`, `_entity`, attributes and to-ones (not order columns).
        var selection: [String]
        /// The name each column of the selection has in a row: the column's, or a to-one's `<name>_pk`.
        var rowNames: [String]
        /// Indexes into ``RecordShape/entities`` of the concrete entities stored here.
        var entityIndexes: [Int]
        /// The file the table's types are written to.
        var fileName: String
        /// Associations on the record type, by relationship: (declaring entity, relationship) → Swift name.
        var associationNames: [StoreLayout.PropertyKey: String]
    }

    /// A join table: a `TableRecord` type inside the schema enum, for `hasMany(_:through:)`.
    struct JoinShape {
        var join: StoreLayout.JoinTable
        var typeName: String
    }

    let layout: StoreLayout
    let modelName: String
    let schemaTypeName: String
    private(set) var tables: [TableShape] = []
    private(set) var entities: [EntityShape] = []
    private(set) var joins: [JoinShape] = []
    /// The struct of each composite, by composite name, nested in the schema enum beside its own types.
    private(set) var compositeTypeNames: [String: String] = [:]
    private var entityIndexByName: [String: Int] = [:]

    init(layout: StoreLayout, modelName: String) {
        self.layout = layout
        self.modelName = modelName
        var types = SwiftNames.Allocator(reserved: SwiftNames.reservedTypeNames)
        schemaTypeName = types.claimExactly(
            SwiftNames.schemaTypeName(modelName + (layout.version.configurationName ?? "")))
        let version = layout.version
        // Entity types first, in file order, so a model's own names win over the generated `Any…` enums.
        var typeNameByEntity: [String: String] = [:]
        for entity in version.entities where !entity.isAbstract {
            typeNameByEntity[entity.name] = types.claimType(entity.name)
        }
        for (tableIndex, table) in layout.tables.enumerated() {
            let concrete = table.entities.filter { typeNameByEntity[$0] != nil }
            let isHierarchy = table.entities.count > 1 || concrete.isEmpty
            let recordTypeName =
                isHierarchy
                ? types.claimExactly("Any" + SwiftNames.sanitized(table.entities.first ?? table.name))
                : typeNameByEntity[concrete[0]]!
            let selection = table.columns.compactMap { column -> String? in
                if case .order = column.content { return nil }
                return column.name
            }
            let rowNames = Self.rowNames(of: table, selection: selection, version: version)
            var cases = SwiftNames.Allocator(reserved: SwiftNames.keywords)
            var indexes: [Int] = []
            for name in concrete {
                guard let entity = version.entity(named: name), let typeName = typeNameByEntity[name] else { continue }
                indexes.append(entities.count)
                entityIndexByName[name] = entities.count
                entities.append(
                    EntityShape(
                        entity: entity, typeName: typeName,
                        caseName: cases.claimExactly(SwiftNames.lowerCamel(typeName)),
                        tableIndex: tableIndex, attributes: [], toOnes: [], toManys: [], uniqueness: []))
            }
            tables.append(
                TableShape(
                    table: table, recordTypeName: recordTypeName, isHierarchy: isHierarchy, selection: selection,
                    rowNames: rowNames, entityIndexes: indexes, fileName: recordTypeName + ".swift",
                    associationNames: [:]))
        }
        // Nested in `<Model>Schema.Links`, whose code names the record types bare: a link never takes one's name.
        var joinTypes = SwiftNames.Allocator(
            reserved: SwiftNames.reservedTypeNames.union(entities.map(\.typeName)).union(tables.map(\.recordTypeName)))
        for join in layout.joinTables {
            joins.append(JoinShape(join: join, typeName: joinTypes.claimType(String(join.name.drop { $0 == "_" }))))
        }
        var compositeTypes = SwiftNames.Allocator(
            reserved: SwiftNames.reservedTypeNames.union(["ColumnKey", "PendingChecks", "CompositeCoding"]))
        for composite in version.composites {
            compositeTypeNames[composite.name] = compositeTypes.claimType(composite.name)
        }
        for index in entities.indices { resolveProperties(of: index) }
        for index in tables.indices { resolveAssociations(of: index) }
    }

    private mutating func resolveProperties(of index: Int) {
        let version = layout.version
        let entity = entities[index].entity
        let table = tables[entities[index].tableIndex]
        var members = SwiftNames.Allocator(reserved: SwiftNames.reservedMemberNames)
        var attributes: [AttributeField] = []
        var seen: Set<String> = []
        for attribute in layout.storedAttributes(of: entity) where seen.insert(attribute.name).inserted {
            guard let column = layout.columnName(of: attribute.name, in: entity.name),
                let position = table.selection.firstIndex(of: column)
            else { continue }
            let archivedType =
                attribute.type == .transformable
                ? attribute.source.attribute("customClassName").flatMap(ArchivedValueType.parse)?.spelled : nil
            attributes.append(
                AttributeField(
                    attribute: attribute,
                    swiftName: members.claimMember(
                        attribute.name,
                        // A Decimal and an archived value keep their stored form beside them (`_name`).
                        companions: attribute.type == .decimal || archivedType != nil
                            ? SwiftNames.Allocator.decimalCompanions : { _ in [] }),
                    column: column,
                    index: position,
                    compositeType: attribute.type == .composite
                        ? attribute.compositeName.flatMap { compositeTypeNames[$0] } : nil,
                    archivedType: archivedType))
        }
        var toOnes: [ToOneField] = []
        var toManys: [ToManyField] = []
        for relationship in layout.storedRelationships(of: entity) {
            guard let storage = layout.storage(of: relationship.name, in: entity.name),
                let destination = relationship.destinationEntity
            else { continue }
            let swiftName = members.claimMember(
                relationship.name, companions: SwiftNames.Allocator.relationshipCompanions)
            switch storage {
            case .column(_, let column):
                guard let position = table.selection.firstIndex(of: column) else { continue }
                toOnes.append(
                    ToOneField(
                        relationship: relationship, swiftName: swiftName, column: column,
                        rowName: table.rowNames[position], index: position,
                        destination: destination, inverse: toOneInverse(of: relationship, in: entity)))
            case .inverseColumn:
                toManys.append(
                    ToManyField(
                        relationship: relationship, swiftName: swiftName, destination: destination, storage: storage,
                        join: nil, isOwnInverse: false))
            case .joinTable(let name, _, _):
                let inverse = layout.storedInverse(of: relationship, in: entity.name)
                let declaring = version.declaringEntity(of: relationship, in: entity)
                let isOwnInverse =
                    inverse.map { inverse in
                        inverse.name == relationship.name
                            && relationship.destinationEntity.flatMap(version.entity(named:)).map {
                                version.declaringEntity(of: inverse, in: $0).name == declaring.name
                            } == true
                    } ?? false
                toManys.append(
                    ToManyField(
                        relationship: relationship, swiftName: swiftName, destination: destination, storage: storage,
                        join: layout.joinTable(named: name), isOwnInverse: isOwnInverse))
            }
        }
        var uniqueness: [[String]] = []
        for owner in version.ancestors(of: entity).reversed() + [entity] {
            for constraint in owner.uniquenessConstraints { uniqueness.append(constraint.properties) }
        }
        entities[index].attributes = attributes
        entities[index].toOnes = toOnes
        entities[index].toManys = toManys
        entities[index].uniqueness = uniqueness
    }

    /// The selection's names in a row: a to-one's column is read as `<relationship>_pk` (then `_2`, … until no
    /// other name of the row, nor any relationship of the table's entities, is the same without regard to case,
    /// as GRDB looks a row's columns up). An attribute's column keeps its name.
    private static func rowNames(
        of table: StoreLayout.Table, selection: [String], version: ModelVersion
    ) -> [String] {
        var taken = Set(selection.map { $0.lowercased() })
        for name in table.entities {
            guard let entity = version.entity(named: name) else { continue }
            for relationship in version.relationships(of: entity) { taken.insert(relationship.name.lowercased()) }
        }
        return selection.map { column in
            guard let found = table.columns.first(where: { $0.name == column }),
                case .toOne(_, let relationship, _) = found.content
            else { return column }
            let base = SwiftNames.sanitized(relationship) + "_pk"
            var candidate = base
            var number = 1
            while !taken.insert(candidate.lowercased()).inserted {
                number += 1
                candidate = "\(base)_\(number)"
            }
            return candidate
        }
    }

    private func toOneInverse(of relationship: Relationship, in entity: Entity) -> ToOneInverse {
        let version = layout.version
        guard let inverse = layout.storedInverse(of: relationship, in: entity.name),
            let destination = relationship.destinationEntity.flatMap(version.entity(named:))
        else { return .none }
        let declaring = version.declaringEntity(of: relationship, in: entity)
        if inverse.isToMany {
            guard inverse.isOrdered,
                let order = layout.orderColumnByToOne[
                    StoreLayout.PropertyKey(entity: declaring.name, property: relationship.name)]
            else { return .none }
            return .orderedToMany(orderColumn: order)
        }
        let inverseOwner = version.declaringEntity(of: inverse, in: destination)
        guard case .column(let table, let column)? = layout.storage(of: inverse.name, in: inverseOwner.name) else {
            return .none
        }
        return .toOne(table: table, column: column)
    }

    /// Association names on a hierarchy's record type, by relationship: the relationship's name under the rule
    /// (the first entity's spelling), then `_2`.
    private mutating func resolveAssociations(of index: Int) {
        var names = SwiftNames.Allocator(reserved: SwiftNames.reservedMemberNames)
        var result: [StoreLayout.PropertyKey: String] = [:]
        for entityIndex in tables[index].entityIndexes {
            let shape = entities[entityIndex]
            let relationships = shape.toOnes.map(\.relationship) + shape.toManys.map(\.relationship)
            for relationship in relationships {
                let key = declaringKey(relationship, in: shape.entity)
                if result[key] == nil { result[key] = names.claimMember(relationship.name) }
            }
        }
        tables[index].associationNames = result
    }

    /// The key of an association named `name` on a record of `table`: the name, unless a row of the table has a
    /// column of that name (GRDB would read the column instead of the related object), then with `_` appended.
    func associationKey(_ name: String, in table: TableShape) -> String {
        let taken = Set(table.rowNames.map { $0.lowercased() })
        var key = name
        while taken.contains(key.lowercased()) { key += "_" }
        return key
    }

    func declaringKey(_ relationship: Relationship, in entity: Entity) -> StoreLayout.PropertyKey {
        StoreLayout.PropertyKey(
            entity: layout.version.declaringEntity(of: relationship, in: entity).name, property: relationship.name)
    }

    // MARK: - Looking things up

    func entity(named name: String) -> EntityShape? { entityIndexByName[name].map { entities[$0] } }

    /// The table shape holding an entity's objects (concrete or abstract).
    func table(forEntity name: String) -> TableShape? {
        layout.tableIndexByEntity[name].map { tables[$0] }
    }

    /// The key type of an entity's hierarchy: `Person.Key`, `AnyItem.Key`.
    func keyType(of entityName: String) -> String {
        (table(forEntity: entityName)?.recordTypeName ?? "Never") + ".Key"
    }

    /// The concrete entities an object of `entityName` may be (itself and its descendants).
    func concreteKinds(of entityName: String) -> [String] {
        layout.kinds(of: entityName).filter { layout.version.entity(named: $0)?.isAbstract == false }
    }

    /// The type a request for objects of an entity returns: the entity's own type when no other entity's objects
    /// can be among them, else its table's record type (an enum over the hierarchy).
    func fetchType(of entityName: String) -> String {
        let kinds = concreteKinds(of: entityName)
        if kinds == [entityName], let shape = entity(named: entityName) { return shape.typeName }
        return table(forEntity: entityName)?.recordTypeName ?? "Never"
    }

    /// `Columns` members of an entity: attribute and to-one names with their columns.
    func columnMembers(of shape: EntityShape) -> [(name: String, column: String)] {
        shape.attributes.map { ($0.swiftName, $0.column) } + shape.toOnes.map { ($0.swiftName, $0.column) }
    }
}
