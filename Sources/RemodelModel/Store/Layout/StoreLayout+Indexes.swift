extension StoreLayout {
    mutating func buildIndexes() {
        var result: [Index] = []
        for table in tables {
            for column in table.columns {
                if case .toOne = column.content {
                    result.append(
                        Index(
                            name: "_\(table.name)_\(column.name)_index", table: table.name,
                            keys: [.init(column: column.name)]))
                }
            }
            if table.entities.count > 1 {
                result.append(
                    Index(
                        name: "_\(table.name)_entity_index", table: table.name,
                        keys: [.init(column: StoreColumn.entity)]))
            }
            for entityName in table.entities {
                guard let entity = version.entity(named: entityName) else { continue }
                result += entityIndexes(entity, table: table)
            }
        }
        for join in joinTables {
            result.append(
                Index(
                    name: "_\(join.name)_destination_index", table: join.name,
                    keys: [.init(column: JoinTable.destinationColumn)]))
        }
        // Index names are compared without regard to case, like every SQLite name: two that differ only in
        // case (or collide with a table's) get a suffix, the same one for the same model every time.
        var names = reservedNames
        var seen: Set<String> = []
        indexes = result.filter { seen.insert($0.name).inserted }.map { index in
            var index = index
            index.name = names.claim(index.name, qualifier: "index")
            return index
        }
    }

    private func entityIndexes(_ entity: Entity, table: Table) -> [Index] {
        var result: [Index] = []
        let isRoot = table.name == entity.name
        let partial: [String]? = isRoot ? nil : kinds(of: entity.name)
        for (offset, constraint) in entity.uniquenessConstraints.enumerated() {
            let keys = constraint.properties.compactMap { key(named: $0, in: entity) }
            guard !keys.isEmpty, keys.count == constraint.properties.count else { continue }
            result.append(
                Index(
                    name: "_\(entity.name)_unique_\(offset + 1)", table: table.name, keys: keys, isUnique: true,
                    entities: partial))
        }
        for fetchIndex in entity.fetchIndexes {
            let keys = fetchIndex.elements.compactMap { element in
                key(named: element.property, in: entity).map { key in
                    var key = key
                    key.ascending = element.ascending
                    return key
                }
            }
            guard !keys.isEmpty, keys.count == fetchIndex.elements.count else { continue }
            result.append(Index(name: "_\(entity.name)_fetch_\(fetchIndex.name)", table: table.name, keys: keys))
        }
        for attribute in entity.attributes where attribute.isIndexed && attribute.isStored {
            guard let column = columnName(of: attribute.name, in: entity.name) else { continue }
            result.append(
                Index(name: "_\(entity.name)_fetch_\(attribute.name)", table: table.name, keys: [.init(column: column)])
            )
        }
        return result
    }

    /// The index key of a property an index or constraint names: its column, or for a composite member
    /// (`place.city`) the member inside the composite's column.
    package func key(named property: String, in entity: Entity) -> Index.Key? {
        if let column = columnName(of: property, in: entity.name) { return Index.Key(column: column) }
        guard let (attribute, member) = version.compositeMember(named: property, in: entity),
            let column = columnName(of: attribute.name, in: entity.name)
        else { return nil }
        return Index.Key(column: column, member: member)
    }
}
