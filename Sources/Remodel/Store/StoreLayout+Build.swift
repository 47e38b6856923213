extension StoreLayout {
    /// Whether a relationship has storage: not transient, and its destination exists.
    func isStored(_ relationship: Relationship) -> Bool {
        !relationship.isTransient && relationship.destinationEntity.flatMap(version.entity(named:)) != nil
    }

    /// The stored inverse of a relationship, if any.
    func storedInverse(of relationship: Relationship) -> Relationship? {
        guard let inverse = version.inverse(of: relationship), isStored(inverse) else { return nil }
        return inverse
    }

    mutating func buildTables() {
        for root in version.rootEntities {
            let hierarchy = version.hierarchy(of: root)
            var columns = [
                Column(name: "_pk", declaredType: "INTEGER", content: .primaryKey),
                Column(name: "_entity", declaredType: "TEXT", content: .entityName),
            ]
            var names: Set<String> = ["_pk", "_entity"]
            for entity in hierarchy {
                for attribute in entity.attributes where attribute.isStored && names.insert(attribute.name).inserted {
                    let content = Column.Content.attribute(entity: entity.name, name: attribute.name, type: attribute.type)
                    columns.append(Column(name: attribute.name, declaredType: Self.declaredType(of: attribute.type), content: content))
                }
            }
            for entity in hierarchy {
                for relationship in entity.relationships
                where !relationship.isToMany && isStored(relationship) && names.insert(relationship.name).inserted {
                    let content = Column.Content.toOne(
                        entity: entity.name, relationship: relationship.name, destination: relationship.destinationEntity ?? "")
                    columns.append(Column(name: relationship.name, declaredType: "INTEGER", content: content))
                }
            }
            let members = Set(hierarchy.map(\.name))
            for owner in version.entities {
                for relationship in owner.relationships where relationship.isToMany && relationship.isOrdered && isStored(relationship) {
                    guard let inverse = storedInverse(of: relationship), !inverse.isToMany,
                        let destination = relationship.destinationEntity.flatMap(version.entity(named:)),
                        members.contains(version.declaringEntity(of: inverse, in: destination).name)
                    else { continue }
                    let name = Self.orderColumnName(inverse: inverse.name)
                    guard names.insert(name).inserted else { continue }
                    let content = Column.Content.order(owner: owner.name, relationship: relationship.name, inverse: inverse.name)
                    columns.append(Column(name: name, declaredType: "INTEGER", content: content))
                }
            }
            for entity in hierarchy { tableIndexByEntity[entity.name] = tables.count }
            tables.append(Table(name: root.name, entities: hierarchy.map(\.name), columns: columns))
        }
    }

    mutating func buildRelationshipStorage() {
        var joinNames: Set<String> = []
        for entity in version.entities {
            for relationship in version.relationships(of: entity) where isStored(relationship) {
                let declaring = version.declaringEntity(of: relationship, in: entity)
                let key = PropertyKey(entity: entity.name, property: relationship.name)
                guard let storage = storage(for: relationship, declaredBy: declaring, joinNames: &joinNames) else { continue }
                storageByProperty[key] = storage
            }
        }
    }

    private mutating func storage(
        for relationship: Relationship, declaredBy declaring: Entity, joinNames: inout Set<String>
    ) -> RelationshipStorage? {
        let ownTable = table(forEntity: declaring.name)?.name ?? declaring.name
        if !relationship.isToMany {
            return .column(table: ownTable, column: relationship.name)
        }
        guard let destinationName = relationship.destinationEntity, let destination = version.entity(named: destinationName) else {
            return nil
        }
        let inverse = storedInverse(of: relationship)
        if let inverse, !inverse.isToMany {
            let inverseOwner = version.declaringEntity(of: inverse, in: destination)
            let table = table(forEntity: inverseOwner.name)?.name ?? inverseOwner.name
            let order = relationship.isOrdered ? Self.orderColumnName(inverse: inverse.name) : nil
            return .inverseColumn(table: table, column: inverse.name, orderColumn: order)
        }
        // A join table: owned by this side unless the inverse side's "Entity.relationship" sorts first.
        var ownerIsSource = true
        var join = JoinTable(
            name: Self.joinTableName(entity: declaring.name, relationship: relationship.name),
            sourceEntity: declaring.name, sourceRelationship: relationship.name, destinationEntity: destinationName,
            destinationRelationship: inverse?.name, sourceIsOrdered: relationship.isOrdered,
            destinationIsOrdered: inverse?.isOrdered ?? false)
        if let inverse {
            let inverseOwner = version.declaringEntity(of: inverse, in: destination)
            let mine = Array("\(declaring.name).\(relationship.name)".utf8)
            let theirs = Array("\(inverseOwner.name).\(inverse.name)".utf8)
            if theirs.lexicographicallyPrecedes(mine) {
                ownerIsSource = false
                join = JoinTable(
                    name: Self.joinTableName(entity: inverseOwner.name, relationship: inverse.name),
                    sourceEntity: inverseOwner.name, sourceRelationship: inverse.name,
                    destinationEntity: inverse.destinationEntity ?? declaring.name, destinationRelationship: relationship.name,
                    sourceIsOrdered: inverse.isOrdered, destinationIsOrdered: relationship.isOrdered)
            }
        }
        if joinNames.insert(join.name).inserted { joinTables.append(join) }
        let order: String? = relationship.isOrdered
            ? (ownerIsSource ? JoinTable.sourceOrderColumn : JoinTable.destinationOrderColumn) : nil
        return .joinTable(name: join.name, ownerIsSource: ownerIsSource, orderColumn: order)
    }

    static func declaredType(of type: AttributeType) -> String {
        switch type {
        case .integer16, .integer32, .integer64, .boolean, .objectID: return "INTEGER"
        case .double, .float, .date: return "REAL"
        case .binary, .transformable: return "BLOB"
        case .decimal, .string, .uri, .uuid, .composite, .undefined: return "TEXT"
        }
    }

    static func orderColumnName(inverse: String) -> String { "_\(inverse)_order" }

    static func joinTableName(entity: String, relationship: String) -> String { "_\(entity)_\(relationship)" }
}
