extension StoreLayout {
    /// Whether a relationship has storage: not transient, and its destination exists.
    package func isStored(_ relationship: Relationship) -> Bool {
        !relationship.isTransient && relationship.destinationEntity.flatMap(version.entity(named:)) != nil
    }

    /// The stored inverse of a relationship of `entity` (declared by it or inherited), if the two name each
    /// other. An inverse that names a third relationship does not pair up: each side is then stored as a
    /// relationship without an inverse (Xcode builds such models).
    package func storedInverse(of relationship: Relationship, in entity: String) -> Relationship? {
        guard let owner = version.entity(named: entity),
            let inverse = version.pairedInverse(of: relationship, in: owner),
            isStored(inverse)
        else { return nil }
        return inverse
    }

    /// Lays out every hierarchy's table; with `before` (the layout of another version of the same model), a
    /// hierarchy laid out there as it would be here keeps that table (``keptTable(_:named:from:orderedToManys:)``).
    mutating func buildTables(following before: StoreLayout? = nil) {
        var names = NameAllocator()
        let entities = version.entities
        // Each entity's kinds (itself and the entities inheriting from it), by position, worked out once: every
        // property it declares is recorded for each of them. Entities are read in place, by position: copying an
        // `Entity` retains and releases every one of its fields, and a layout is built for every version of a chain.
        var kindsByPosition = [[String]?](repeating: nil, count: entities.count)
        func kinds(of position: Int) -> [String] {
            if let known = kindsByPosition[position] { return known }
            let kinds = version.hierarchyPositions(of: position).map { entities[$0].name }
            kindsByPosition[position] = kinds
            return kinds
        }
        // The ordered to-manys, found once with their stored to-one inverses: each numbers objects in the table of
        // its inverse's owner.
        var orderedToManys: [(owner: String, relationship: String, inverseOwner: String, inverse: String)] = []
        for owner in entities {
            for relationship in owner.relationships where relationship.isToMany && relationship.isOrdered {
                guard isStored(relationship), let inverse = storedInverse(of: relationship, in: owner.name),
                    !inverse.isToMany, let destination = relationship.destinationEntity.flatMap(version.entity(named:))
                else { continue }
                let inverseOwner = version.declaringEntity(of: inverse, in: destination).name
                orderedToManys.append((owner.name, relationship.name, inverseOwner, inverse.name))
            }
        }
        // Room for every entity at once: no table grows step by step, rehashing what it holds.
        columnsByEntity.reserveCapacity(entities.count)
        tableIndexByEntity.reserveCapacity(entities.count)
        for root in version.rootPositions {
            let hierarchy = version.hierarchyPositions(of: root)
            let tableName = names.claim(entities[root].name, qualifier: "table")
            if let before, let kept = keptTable(hierarchy, named: tableName, from: before) {
                // Each entity's columns as the build would record them (the attribute and to-one columns are claimed
                // before any order column, so they are the same whether or not the order columns are).
                for position in hierarchy {
                    let name = entities[position].name
                    columnsByEntity[name] = before.columnsByEntity[name]
                }
                if let orderColumns = keptOrderColumns(of: kept, hierarchy, orderedToManys: orderedToManys) {
                    for (key, column) in orderColumns { orderColumnByToOne[key] = column }
                    for position in hierarchy { tableIndexByEntity[entities[position].name] = tables.count }
                    tables.append(kept)
                    continue
                }
            }
            let width = hierarchy.reduce(2) { $0 + entities[$1].attributes.count + entities[$1].relationships.count }
            var columns = [
                Column(name: StoreColumn.pk, declaredType: "INTEGER", content: .primaryKey),
                Column(name: StoreColumn.entity, declaredType: "TEXT", content: .entityName),
            ]
            columns.reserveCapacity(width)
            var columnNames = NameAllocator(reserved: [StoreColumn.pk, StoreColumn.entity], capacity: width)
            for position in hierarchy {
                let entityName = entities[position].name
                for attribute in entities[position].attributes where attribute.isStored {
                    let declaredType = Self.declaredType(of: attribute.type)
                    // A sibling's attribute of the same name and storage shares its column: each row is one entity's.
                    // A derived attribute's column is its own (the store computes it for its entity's rows).
                    if !attribute.isDerived,
                        let shared = columns.first(where: { column in
                            guard column.name == attribute.name, case .attribute(let other, _, _) = column.content
                            else {
                                return false
                            }
                            return column.declaredType == declaredType && !related(other, entityName)
                                && !isDerived(attribute.name, of: other)
                        })
                    {
                        setColumn(shared.name, for: attribute.name, kinds: kinds(of: position))
                        continue
                    }
                    let name = columnNames.claim(attribute.name, qualifier: entityName)
                    let content = Column.Content.attribute(
                        entity: entityName, name: attribute.name, type: attribute.type)
                    columns.append(Column(name: name, declaredType: declaredType, content: content))
                    setColumn(name, for: attribute.name, kinds: kinds(of: position))
                }
            }
            for position in hierarchy {
                let entityName = entities[position].name
                // Every to-one has a column of its own: two siblings' `post` are two relationships.
                for relationship in entities[position].relationships
                where !relationship.isToMany && isStored(relationship) {
                    let name = columnNames.claim(relationship.name, qualifier: entityName)
                    let content = Column.Content.toOne(
                        entity: entityName, relationship: relationship.name,
                        destination: relationship.destinationEntity ?? "")
                    columns.append(Column(name: name, declaredType: "INTEGER", content: content))
                    setColumn(name, for: relationship.name, kinds: kinds(of: position))
                }
            }
            let members = hierarchy.count == 1 ? [] : Set(hierarchy.map { entities[$0].name })
            let rootName = entities[root].name
            for toMany in orderedToManys {
                guard hierarchy.count == 1 ? toMany.inverseOwner == rootName : members.contains(toMany.inverseOwner),
                    let inverseColumn = columnsByEntity[toMany.inverseOwner]?[toMany.inverse]
                else { continue }
                let name = columnNames.claim(
                    Self.orderColumnName(toOneColumn: inverseColumn), qualifier: toMany.inverseOwner)
                let content = Column.Content.order(
                    owner: toMany.owner, relationship: toMany.relationship, inverseColumn: inverseColumn)
                columns.append(Column(name: name, declaredType: "INTEGER", content: content))
                orderColumnByToOne[PropertyKey(entity: toMany.inverseOwner, property: toMany.inverse)] = name
            }
            for position in hierarchy { tableIndexByEntity[entities[position].name] = tables.count }
            tables.append(Table(name: tableName, entities: hierarchy.map { entities[$0].name }, columns: columns))
        }
        reservedNames = names
    }

    /// The table `before` gave a hierarchy, when this version lays its columns out the same: the same entities
    /// in the same order under the same table name, each defined as it was, and each stored to-one's destination
    /// there in both versions or in neither. A table's attribute and to-one columns, and the column each of the
    /// hierarchy's entities records for its properties, read nothing else. Nil when anything differs. The order
    /// columns are checked apart (``keptOrderColumns(of:_:orderedToManys:)``).
    private func keptTable(_ hierarchy: [Int], named name: String, from before: StoreLayout) -> Table? {
        let entities = version.entities
        guard let index = before.tableIndexByEntity[entities[hierarchy[0]].name] else { return nil }
        let table = before.tables[index]
        guard SQLName.identical(table.name, name), table.entities.count == hierarchy.count else { return nil }
        for (position, entityName) in zip(hierarchy, table.entities) {
            let entity = entities[position]
            guard SQLName.identical(entity.name, entityName), let old = before.version.entity(named: entityName),
                version.hasSameDefinition(of: entity, as: old, in: before.version)
            else { return nil }
            for relationship in entity.relationships where !relationship.isToMany && !relationship.isTransient {
                let destination = relationship.destinationEntity
                guard
                    (destination.flatMap(version.entity(named:)) == nil)
                        == (destination.flatMap(before.version.entity(named:)) == nil)
                else { return nil }
            }
        }
        return table
    }

    /// The order columns of a kept table by their to-one, when the ordered to-manys this version numbers in it
    /// (found as the build finds them, from `columnsByEntity` as it stands) are the ones the table numbers, in the
    /// same order, each by the same to-one column: then the build would claim the same names. Nil otherwise.
    private func keptOrderColumns(
        of table: Table, _ hierarchy: [Int],
        orderedToManys: [(owner: String, relationship: String, inverseOwner: String, inverse: String)]
    ) -> [(PropertyKey, String)]? {
        let members = Set(hierarchy.map { version.entities[$0].name })
        var numbered = table.columns.lazy.compactMap { column -> (String, String, String, String)? in
            guard case .order(let owner, let relationship, let inverseColumn) = column.content else { return nil }
            return (owner, relationship, inverseColumn, column.name)
        }.makeIterator()
        var result: [(PropertyKey, String)] = []
        for toMany in orderedToManys where members.contains(toMany.inverseOwner) {
            let key = PropertyKey(entity: toMany.inverseOwner, property: toMany.inverse)
            guard let inverseColumn = columnsByEntity[toMany.inverseOwner]?[toMany.inverse] else { continue }
            guard let (owner, relationship, numberedColumn, column) = numbered.next(), owner == toMany.owner,
                relationship == toMany.relationship, numberedColumn == inverseColumn
            else { return nil }
            result.append((key, column))
        }
        guard numbered.next() == nil else { return nil }
        return result
    }

    /// Whether `entity` declares `attribute` as a derived attribute.
    private func isDerived(_ attribute: String, of entity: String) -> Bool {
        version.entity(named: entity)?.attributes.first { $0.name == attribute }?.isDerived ?? false
    }

    /// Whether one entity inherits from the other (then they cannot both declare a property of one name).
    private func related(_ first: String, _ second: String) -> Bool {
        guard let a = version.entity(named: first), let b = version.entity(named: second) else { return false }
        return version.entity(a, isKindOf: b.name) || version.entity(b, isKindOf: a.name)
    }

    /// Records the column of a property for its declaring entity and every entity inheriting it (`kinds`).
    private mutating func setColumn(_ column: String, for property: String, kinds: [String]) {
        for kind in kinds {
            columnsByEntity[kind, default: [:]][property] = column
        }
    }

    /// Whether ``buildRelationshipStorage()`` would store every relationship as `before` stores it, the tables of
    /// this version built: the same entities in the same order, each with the same parent and the same relationships
    /// (the same definitions but for where they are written), in a table of the same name, each to-one in the same
    /// column, and the same order columns. Then the tables' names are the same too (every table has an entity), so the
    /// join tables claim the same names after them. An entity that declares a relationship of a name one of its
    /// ancestors declares too is not taken (which of them declares it is then found by value).
    func storesRelationshipsAlike(_ before: StoreLayout) -> Bool {
        let entities = version.entities
        let others = before.version.entities
        guard entities.count == others.count, orderColumnByToOne == before.orderColumnByToOne else { return false }
        for (entity, other) in zip(entities, others) {
            // Names by their scalars (SQLName.identical): Swift's `==` takes `Café` and `Cafe`+U+0301 for one.
            func alike(_ a: String?, _ b: String?) -> Bool { a == nil ? b == nil : SQLName.identical(a ?? "", b ?? "") }
            guard SQLName.identical(entity.name, other.name), alike(entity.parentName, other.parentName),
                alike(
                    tableIndexByEntity[entity.name].map({ tables[$0].name }),
                    before.tableIndexByEntity[other.name].map({ before.tables[$0].name }))
            else { return false }
            if !version.hasSameDefinition(of: entity, as: other, in: before.version) {
                guard entity.relationships.count == other.relationships.count,
                    zip(entity.relationships, other.relationships).allSatisfy({ $0.hasSameDefinition(as: $1) })
                else { return false }
            }
            for relationship in entity.relationships where !relationship.isToMany {
                guard
                    columnsByEntity[entity.name]?[relationship.name]
                        == before.columnsByEntity[other.name]?[relationship.name]
                else { return false }
            }
            if entity.parentName != nil, !entity.relationships.isEmpty {
                for ancestor in version.ancestors(of: entity) {
                    for inherited in ancestor.relationships
                    where entity.relationships.contains(where: { $0.name == inherited.name }) {
                        return false
                    }
                }
            }
        }
        return true
    }

    mutating func buildRelationshipStorage() {
        var names = reservedNames
        var joinNameByOwner: [PropertyKey: String] = [:]
        // Room for every relationship an entity declares (inherited ones come on top): fewer rehashes as it grows.
        storageByProperty.reserveCapacity(version.entities.reduce(0) { $0 + $1.relationships.count })
        for entity in version.entities {
            for relationship in version.relationships(of: entity) where isStored(relationship) {
                let declaring = version.declaringEntity(of: relationship, in: entity)
                let key = PropertyKey(entity: entity.name, property: relationship.name)
                guard
                    let storage = storage(
                        for: relationship, declaredBy: declaring, names: &names, joinNameByOwner: &joinNameByOwner)
                else { continue }
                storageByProperty[key] = storage
            }
        }
        reservedNames = names
    }

    private mutating func storage(
        for relationship: Relationship, declaredBy declaring: Entity, names: inout NameAllocator,
        joinNameByOwner: inout [PropertyKey: String]
    ) -> RelationshipStorage? {
        let ownTable = table(forEntity: declaring.name)?.name ?? declaring.name
        if !relationship.isToMany {
            guard let column = columnsByEntity[declaring.name]?[relationship.name] else {
                return nil
            }
            return .column(table: ownTable, column: column)
        }
        guard let destinationName = relationship.destinationEntity,
            let destination = version.entity(named: destinationName)
        else {
            return nil
        }
        let inverse = storedInverse(of: relationship, in: declaring.name)
        if let inverse, !inverse.isToMany {
            let inverseOwner = version.declaringEntity(of: inverse, in: destination)
            let key = PropertyKey(entity: inverseOwner.name, property: inverse.name)
            guard let table = table(forEntity: inverseOwner.name)?.name,
                let column = columnsByEntity[key.entity]?[key.property]
            else {
                return nil
            }
            let order = relationship.isOrdered ? orderColumnByToOne[key] : nil
            return .inverseColumn(table: table, column: column, orderColumn: order)
        }
        // A join table: owned by this side unless the inverse side's "Entity.relationship" sorts first.
        var ownerIsSource = true
        var owner = PropertyKey(entity: declaring.name, property: relationship.name)
        var join = JoinTable(
            name: "", sourceEntity: declaring.name, sourceRelationship: relationship.name,
            destinationEntity: destinationName,
            destinationRelationship: inverse?.name, sourceIsOrdered: relationship.isOrdered,
            destinationIsOrdered: inverse?.isOrdered ?? false)
        if let inverse {
            let inverseOwner = version.declaringEntity(of: inverse, in: destination)
            let mine = Array("\(declaring.name).\(relationship.name)".utf8)
            let theirs = Array("\(inverseOwner.name).\(inverse.name)".utf8)
            if theirs.lexicographicallyPrecedes(mine) {
                ownerIsSource = false
                owner = PropertyKey(entity: inverseOwner.name, property: inverse.name)
                join = JoinTable(
                    name: "", sourceEntity: inverseOwner.name, sourceRelationship: inverse.name,
                    destinationEntity: inverse.destinationEntity ?? declaring.name,
                    destinationRelationship: relationship.name,
                    sourceIsOrdered: inverse.isOrdered, destinationIsOrdered: relationship.isOrdered)
            }
        }
        if let known = joinNameByOwner[owner] {
            join.name = known
        } else {
            join.name = names.claim(
                Self.joinTableName(entity: owner.entity, relationship: owner.property), qualifier: "join")
            joinNameByOwner[owner] = join.name
            joinTables.append(join)
        }
        let order: String? =
            relationship.isOrdered
            ? (ownerIsSource ? JoinTable.sourceOrderColumn : JoinTable.destinationOrderColumn) : nil
        return .joinTable(name: join.name, ownerIsSource: ownerIsSource, orderColumn: order)
    }

    package static func declaredType(of type: AttributeType) -> String {
        switch type {
        case .integer16, .integer32, .integer64, .boolean, .objectID: return "INTEGER"
        case .double, .float, .date: return "REAL"
        case .binary, .transformable: return "BLOB"
        case .decimal, .string, .uri, .uuid, .composite, .undefined: return "TEXT"
        }
    }

    /// The order column of the to-many whose inverse is stored in `toOneColumn`.
    static func orderColumnName(toOneColumn: String) -> String { "_\(toOneColumn)_order" }

    static func joinTableName(entity: String, relationship: String) -> String { "_\(entity)_\(relationship)" }
}

/// Gives out SQL names that are unique the way SQLite compares them (ASCII letters in any case are
/// equal): the name asked for when it is free, else `name_Qualifier`, then `name_Qualifier_2`, ….
/// Models Xcode accepts can have names that differ only in case (`rawGroupUid` and `rawGroupUID` in
/// two sibling entities); each still gets a column of its own, and the same model always the same names.
struct NameAllocator: Sendable, Equatable {
    /// The names taken, ASCII letters folded (``SQLName/folded(_:)``). A `String` set takes canonically equivalent
    /// spellings for one name, more than SQLite does (`café` and `cafe` with a combining accent are two names to
    /// it): the second then gets a qualified name, which is still its own. Kept so, because a layout is what
    /// existing stores were made with: the same model always gets the same names.
    private var taken: Set<String> = []

    init(reserved: [String] = [], capacity: Int = 0) {
        taken.reserveCapacity(capacity)
        for name in reserved { taken.insert(SQLName.folded(name)) }
    }

    mutating func claim(_ name: String, qualifier: String) -> String {
        if taken.insert(SQLName.folded(name)).inserted { return name }
        let base = "\(name)_\(qualifier)"
        if taken.insert(SQLName.folded(base)).inserted { return base }
        var number = 2
        while !taken.insert(SQLName.folded("\(base)_\(number)")).inserted { number += 1 }
        return "\(base)_\(number)"
    }
}
