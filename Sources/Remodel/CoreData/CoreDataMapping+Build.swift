extension CoreDataMapping {
    /// Maps a store's schema onto a version's Remodel layout, noting every difference.
    init(layout: StoreLayout, schema: CoreDataSchema, metadata: CoreDataMetadata, facts: CoreDataModelFacts) {
        let version = layout.version
        var builder = Builder(layout: layout, schema: schema, facts: facts)
        builder.matchEntityNumbers()
        builder.compareMetadata(metadata)
        for root in version.rootEntities { builder.mapTable(root: root) }
        for join in layout.joinTables { builder.mapJoin(join) }
        builder.noteUnusedTables()
        builder.compareIndexes()
        self = builder.mapping
    }

    /// The state of one mapping being built.
    private struct Builder {
        let layout: StoreLayout
        let schema: CoreDataSchema
        let facts: CoreDataModelFacts
        var mapping = CoreDataMapping()
        var numberByEntity: [String: Int64] = [:]
        var usedTables: Set<String> = []

        init(layout: StoreLayout, schema: CoreDataSchema, facts: CoreDataModelFacts) {
            self.layout = layout
            self.schema = schema
            self.facts = facts
        }

        var version: ModelVersion { layout.version }

        /// `Z_PRIMARYKEY` names each entity (or, for an entity renamed with a renaming identifier, its
        /// former name) with its number and its parent's.
        mutating func matchEntityNumbers() {
            var matchedRows: Set<Int64> = []
            for entity in version.entities {
                let row =
                    schema.entities.first { $0.name == entity.name }
                    ?? entity.elementID.flatMap { former in schema.entities.first { $0.name == former } }
                guard let row else {
                    mapping.differences.append("\(CoreDataName.primaryKeyTable) has no entity \(entity.name)")
                    continue
                }
                numberByEntity[entity.name] = row.number
                matchedRows.insert(row.number)
            }
            for entity in version.entities {
                guard let number = numberByEntity[entity.name],
                    let row = schema.entities.first(where: { $0.number == number })
                else { continue }
                let parentNumber = version.parent(of: entity).flatMap { numberByEntity[$0.name] } ?? 0
                if row.superNumber != parentNumber {
                    let parent = version.parent(of: entity).map { "a sub-entity of \($0.name)" } ?? "a root entity"
                    mapping.differences.append(
                        "\(CoreDataName.primaryKeyTable) gives \(row.name) another parent (\(CoreDataName.superEntity) \(row.superNumber)), but \(entity.name) is \(parent)"
                    )
                }
            }
            for row in schema.entities where !matchedRows.contains(row.number) {
                mapping.differences.append(
                    "\(CoreDataName.primaryKeyTable) has entity \(row.name), which the version does not have")
            }
        }

        mutating func compareMetadata(_ metadata: CoreDataMetadata) {
            let names = Set(version.entities.map(\.name))
            if !metadata.hashedEntityNames.isEmpty {
                for name in metadata.hashedEntityNames.subtracting(names).sorted() {
                    mapping.differences.append(
                        "\(CoreDataName.metadataTable) has a version hash for entity \(name), which the version does not have"
                    )
                }
                for name in names.subtracting(metadata.hashedEntityNames).sorted() {
                    mapping.differences.append("\(CoreDataName.metadataTable) has no version hash for entity \(name)")
                }
            }
            let stored = metadata.versionIdentifiers
            if stored.contains(where: { !$0.isEmpty }) || !facts.versionIdentifier.isEmpty,
                !stored.contains(facts.versionIdentifier)
            {
                let shown = stored.map { "\"\($0)\"" }.joined(separator: ", ")
                mapping.differences.append(
                    "the store's model version identifier is \(shown), the version's \"\(facts.versionIdentifier)\"")
            }
        }

        /// The store's table for a root entity: `Z<ROOT>`, or `Z<FORMER NAME>` for a renamed root.
        private func sourceTable(of root: Entity) -> CoreDataSchema.Table? {
            schema.table(CoreDataName.table(ofRoot: root.name))
                ?? root.elementID.flatMap { schema.table(CoreDataName.table(ofRoot: $0)) }
        }

        mutating func mapTable(root: Entity) {
            guard let target = layout.table(forEntity: root.name) else { return }
            guard let table = sourceTable(of: root) else {
                mapping.differences.append("no table \(CoreDataName.table(ofRoot: root.name)) for entity \(root.name)")
                return
            }
            usedTables.insert(table.name.uppercased())
            let hierarchy = version.hierarchy(of: root).sorted {
                (numberByEntity[$0.name] ?? .max) < (numberByEntity[$1.name] ?? .max)
            }
            var result = Table(
                target: target.name, source: table.name, entityByNumber: [:], abstractNumbers: [:], columns: [],
                orders: [])
            for entity in hierarchy {
                guard let number = numberByEntity[entity.name] else { continue }
                if entity.isAbstract {
                    result.abstractNumbers[number] = entity.name
                } else {
                    result.entityByNumber[number] = entity.name
                }
            }
            var used = Set(CoreDataName.entityTableColumns)
            // Properties by upper-case name, in entity-number order: clashing names get numbered columns.
            var groups: [(key: String, members: [(Entity, String, AttributeType?, Bool)])] = []
            // A composite's leaves take columns where the composite stands (their key paths, by their own names).
            var leafNames: [String: String] = [:]
            for entity in hierarchy {
                var declared: [(String, AttributeType?, Bool)] = entity.attributes.filter(\.isStored).flatMap {
                    attribute -> [(String, AttributeType?, Bool)] in
                    guard attribute.type == .composite else {
                        return [(attribute.name, attribute.type, attribute.isOptional)]
                    }
                    return CoreDataMapping.leaves(of: attribute, in: version).map { leaf in
                        leafNames[leaf.keyPath] = leaf.name
                        return (leaf.keyPath, leaf.attribute.type, leaf.attribute.isOptional)
                    }
                }
                declared += entity.relationships.filter { !$0.isToMany && layout.isStored($0) }.map {
                    ($0.name, nil, $0.isOptional)
                }
                for (name, type, isOptional) in declared {
                    let key = CoreDataName.normalized(leafNames[name] ?? name)
                    if let index = groups.firstIndex(where: { $0.key == key }) {
                        groups[index].members.append((entity, name, type, isOptional))
                    } else {
                        groups.append((key, [(entity, name, type, isOptional)]))
                    }
                }
            }
            var sourcesByTarget: [(String, [Source])] = []
            var composites = CompositeColumns()
            for group in groups {
                let candidates = Self.numbered(CoreDataName.column(of: group.key), in: table)
                guard candidates.count == group.members.count else {
                    let names = group.members.map { "\($0.0.name).\($0.1)" }.joined(separator: ", ")
                    let found =
                        candidates.isEmpty
                        ? "no column \(CoreDataName.column(of: group.key))"
                        : "columns \(candidates.joined(separator: ", "))"
                    mapping.differences.append("\(table.name) has \(found) for \(names)")
                    continue
                }
                for (member, columnName) in zip(group.members, candidates) {
                    let (entity, property, type, isOptional) = member
                    used.insert(columnName.uppercased())
                    let declaredType = table.column(columnName)?.type ?? ""
                    let expected = type.flatMap(CoreDataValues.declaredTypes(of:)) ?? (type == nil ? ["INTEGER"] : [])
                    if !expected.contains(declaredType) {
                        let kind = type.map { "\($0.rawValue) attribute" } ?? "to-one relationship"
                        mapping.differences.append(
                            "\(table.name).\(columnName) is \(declaredType.isEmpty ? "untyped" : declaredType), not what Core Data declares for \(entity.name).\(property), a \(kind) (\(expected.sorted().joined(separator: " or ")))"
                        )
                    }
                    if type == nil {
                        // The destination's entity number, kept beside a to-one whose destination has
                        // sub-entities (`Z6_FOLDER1` beside `ZFOLDER1`): not imported, the key alone names
                        // the object in its hierarchy's table.
                        for column in table.columns where CoreDataName.isEntityNumber(column.name, of: columnName) {
                            used.insert(CoreDataName.normalized(column.name))
                            if column.type != "INTEGER" {
                                mapping.differences.append(
                                    "\(table.name).\(column.name) is \(column.type.isEmpty ? "untyped" : column.type), not the INTEGER entity number Core Data keeps beside \(entity.name).\(property)"
                                )
                            }
                        }
                    }
                    let numbers = version.hierarchy(of: entity).compactMap { numberByEntity[$0.name] }.sorted()
                    if leafNames[property] != nil {
                        composites.add(
                            leaf: Source(
                                numbers: numbers, column: columnName, entity: entity.name, property: property,
                                type: type,
                                isExternal: false, isOptional: isOptional),
                            of: entity, in: layout)
                        continue
                    }
                    guard let targetColumn = layout.columnName(of: property, in: entity.name) else { continue }
                    let source = Source(
                        numbers: numbers, column: columnName, entity: entity.name, property: property, type: type,
                        isExternal: facts.externalBinary.contains("\(entity.name).\(property)"), isOptional: isOptional)
                    if let index = sourcesByTarget.firstIndex(where: { $0.0 == targetColumn }) {
                        sourcesByTarget[index].1.append(source)
                    } else {
                        sourcesByTarget.append((targetColumn, [source]))
                    }
                    if type == nil, let order = orderColumn(for: property, declaredBy: entity) {
                        let key = CoreDataName.orderKey(ofToOne: columnName)
                        if let fok = table.column(key) {
                            used.insert(fok.name.uppercased())
                            result.orders.append(Order(target: order, partition: columnName, key: fok.name))
                        } else {
                            mapping.differences.append(
                                "\(table.name) has no column \(key) for the order of \(entity.name).\(property)'s ordered inverse"
                            )
                        }
                    }
                }
            }
            // A derived attribute the store computes is compared with Core Data's value, not copied.
            let computed = Set(
                layout.derivedColumns.filter { $0.kind != .timestamp && $0.table == result.target }.map(\.column))
            let columns = sourcesByTarget.map { ValueColumn(target: $0.0, sources: $0.1) }
            result.columns = columns.filter { !computed.contains($0.target) }
            result.derived = columns.filter { computed.contains($0.target) }
            result.composites = composites.columns(in: version)
            for column in table.columns where !used.contains(column.name.uppercased()) {
                mapping.differences.append("\(table.name) has column \(column.name), which the version does not have")
            }
            mapping.tables.append(result)
        }

        /// The Remodel order column kept for a to-one whose inverse is an ordered to-many.
        private func orderColumn(for toOne: String, declaredBy entity: Entity) -> String? {
            layout.orderColumnByToOne[StoreLayout.PropertyKey(entity: entity.name, property: toOne)]
        }

        /// `name`, then `name1`, `name2` … as the table has them, in that order.
        static func numbered(_ name: String, in table: CoreDataSchema.Table) -> [String] {
            let upper = name.uppercased()
            let found: [(Int, String)] = table.columns.compactMap { (column) -> (Int, String)? in
                let columnUpper = column.name.uppercased()
                guard columnUpper.hasPrefix(upper) else { return nil }
                let rest = columnUpper.dropFirst(upper.count)
                if rest.isEmpty { return (0, column.name) }
                guard rest.allSatisfy({ $0.isASCII && $0.isNumber }), let number = Int(rest) else { return nil }
                return (number, column.name)
            }
            return found.sorted { $0.0 < $1.0 }.map(\.1)
        }

        mutating func mapJoin(_ join: StoreLayout.JoinTable) {
            let owner = "\(join.sourceEntity).\(join.sourceRelationship)"
            guard let inverse = join.destinationRelationship else {
                mapJoinWithoutInverse(join)
                return
            }
            guard inverse.uppercased() != join.sourceRelationship.uppercased() else {
                mapping.differences.append(
                    "\(owner) is its own inverse, which Remodel does not import from Core Data yet")
                return
            }
            let relationship = join.sourceRelationship
            for table in schema.tables.values.sorted(by: { $0.name < $1.name }) {
                guard
                    CoreDataName.isNumbered(table.name, after: relationship)
                        || CoreDataName.isNumbered(table.name, after: inverse),
                    let members = table.columns.first(where: { CoreDataName.isNumbered($0.name, after: relationship) }),
                    let owners = table.columns.first(where: { CoreDataName.isNumbered($0.name, after: inverse) })
                else { continue }
                usedTables.insert(table.name.uppercased())
                var result = Join(
                    target: join.name, source: table.name, sourceColumn: owners.name, destinationColumn: members.name)
                if join.sourceIsOrdered {
                    result.sourceOrderKey = orderKey(forMembers: members.name, in: table, of: owner)
                }
                if join.destinationIsOrdered {
                    result.destinationOrderKey = orderKey(
                        forMembers: owners.name, in: table, of: "\(join.destinationEntity).\(inverse)")
                }
                mapping.joins.append(result)
                return
            }
            mapping.differences.append(
                "no join table Z_<n>\(relationship.uppercased()) or Z_<n>\(inverse.uppercased()) for \(owner)")
        }

        /// A to-many relationship without an inverse: Core Data gives it a join table named after it,
        /// `Z_<n><RELATIONSHIP>`, whose column of the same name holds the objects in the relationship and
        /// whose one other column holds their owners (whatever Core Data names it: no inverse names it).
        mutating func mapJoinWithoutInverse(_ join: StoreLayout.JoinTable) {
            let owner = "\(join.sourceEntity).\(join.sourceRelationship)"
            let relationship = join.sourceRelationship
            for table in schema.tables.values.sorted(by: { $0.name < $1.name })
            where CoreDataName.isNumbered(table.name, after: relationship) {
                let keys = table.columns.filter {
                    !CoreDataName.normalized($0.name).hasPrefix(CoreDataName.orderKeyPrefix)
                }
                guard keys.count == 2,
                    let members = keys.first(where: { CoreDataName.isNumbered($0.name, after: relationship) }),
                    let owners = keys.first(where: { $0.name != members.name })
                else { continue }
                usedTables.insert(CoreDataName.normalized(table.name))
                var result = Join(
                    target: join.name, source: table.name, sourceColumn: owners.name, destinationColumn: members.name)
                if join.sourceIsOrdered {
                    result.sourceOrderKey = orderKey(forMembers: members.name, in: table, of: owner)
                }
                mapping.joins.append(result)
                return
            }
            mapping.differences.append(
                "no join table Z_<n>\(CoreDataName.normalized(relationship)) for \(owner), a to-many relationship without an inverse"
            )
        }

        private mutating func orderKey(
            forMembers column: String, in table: CoreDataSchema.Table, of relationship: String
        ) -> String? {
            let key = CoreDataName.orderKey(ofJoinColumn: column)
            guard let found = table.column(key) else {
                mapping.differences.append("\(table.name) has no column \(key) for the order of \(relationship)")
                return nil
            }
            return found.name
        }

        mutating func noteUnusedTables() {
            for table in schema.tables.values.sorted(by: { $0.name < $1.name })
            where !usedTables.contains(table.name.uppercased()) {
                if CoreDataSchema.isCoreDataOwn(table.name) {
                    if ![CoreDataName.metadataTable, CoreDataName.primaryKeyTable].contains(
                        CoreDataName.normalized(table.name))
                    {
                        mapping.skippedTables.append(table.name)
                    }
                } else {
                    mapping.differences.append("table \(table.name), which the version does not have")
                }
            }
        }

        /// Core Data names the indexes a model declares `Z_<Entity>_<name>` (fetch indexes, indexed
        /// attributes) and `Z_<Entity>_UNIQUE_<properties>` (uniqueness constraints); its own end in `_INDEX`.
        mutating func compareIndexes() {
            var expected: Set<String> = []
            for entity in version.entities {
                for index in entity.fetchIndexes { expected.insert("Z_\(entity.name)_\(index.name)") }
                for attribute in entity.attributes where attribute.isIndexed {
                    expected.insert("Z_\(entity.name)_\(attribute.name)")
                }
                for constraint in entity.uniquenessConstraints {
                    expected.insert("Z_\(entity.name)_UNIQUE_" + constraint.properties.joined(separator: "_"))
                }
            }
            let found = Set(schema.indexNames.filter { $0.hasPrefix("Z_") && !$0.uppercased().hasSuffix("_INDEX") })
            for name in expected.subtracting(found).sorted() { mapping.indexDifferences.append("no index \(name)") }
            for name in found.subtracting(expected).sorted() {
                mapping.indexDifferences.append("index \(name), which the version does not declare")
            }
        }
    }
}
