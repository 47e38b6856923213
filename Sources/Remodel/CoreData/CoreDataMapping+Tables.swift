extension CoreDataMapping.Builder {
    /// A stored property of a hierarchy looking for its column: an attribute (with its type) or a to-one.
    private struct Member {
        var entity: Entity
        var property: String
        /// `nil` for a to-one relationship.
        var type: AttributeType?
        var isOptional: Bool
        /// A composite's leaf: its own name, which names its column (`property` is its key path, `place.geo.lat`).
        var leafName: String? = nil

        /// The name Core Data names the property's column after.
        var columnStem: String { leafName ?? property }

        /// The declared types Core Data gives the property's column.
        var expectedTypes: Set<String> {
            guard let type else { return ["INTEGER"] }
            return CoreDataValues.declaredTypes(of: type) ?? []
        }
    }

    /// The store's table for a root entity: `Z<ROOT>` (or `Z<FORMER NAME>` for a renamed root), or that
    /// name with a number Core Data added; where several are there, the one whose columns are most of the
    /// hierarchy's properties.
    private func sourceTable(of root: Entity, properties: [Member]) -> CoreDataSchema.Table? {
        let names = [root.name] + (root.elementID.map { [$0] } ?? [])
        var candidates: [(table: CoreDataSchema.Table, suffix: Int)] = []
        for table in schema.tables.values where !usedTables.contains(CoreDataName.normalized(table.name)) {
            let suffixes = names.compactMap {
                CoreDataName.suffix(of: table.name, after: CoreDataName.table(ofRoot: $0))
            }
            if let suffix = suffixes.min() { candidates.append((table, suffix)) }
        }
        func fit(_ table: CoreDataSchema.Table) -> Int {
            properties.filter { member in
                table.columns.contains {
                    CoreDataName.suffix(of: $0.name, after: CoreDataName.column(of: member.columnStem)) != nil
                }
            }.count
        }
        return candidates.min { left, right in
            let (leftFit, rightFit) = (fit(left.table), fit(right.table))
            return leftFit != rightFit ? leftFit > rightFit : left.suffix < right.suffix
        }?.table
    }

    /// Maps a hierarchy's table: each stored attribute and to-one to the column the store's structure says
    /// holds it (``CoreDataColumnMatching``), the entity numbers kept beside to-ones, and the ordering keys
    /// of ordered to-manys whose inverse is a to-one.
    mutating func mapTable(root: Entity) {
        guard let target = layout.table(forEntity: root.name) else { return }
        let hierarchy = version.hierarchy(of: root).sorted {
            (numberByEntity[$0.name] ?? .max) < (numberByEntity[$1.name] ?? .max)
        }
        var members: [Member] = []
        for entity in hierarchy {
            for attribute in entity.attributes where attribute.isStored {
                guard attribute.type == .composite else {
                    members.append(
                        Member(
                            entity: entity, property: attribute.name, type: attribute.type,
                            isOptional: attribute.isOptional))
                    continue
                }
                // A composite's leaves take columns where the composite stands, named by their own names.
                members += CoreDataMapping.leaves(of: attribute, in: version).map {
                    Member(
                        entity: entity, property: $0.keyPath, type: $0.attribute.type,
                        isOptional: $0.attribute.isOptional, leafName: $0.name)
                }
            }
            members += entity.relationships.filter { !$0.isToMany && layout.isStored($0) }.map {
                Member(entity: entity, property: $0.name, type: nil, isOptional: $0.isOptional)
            }
        }
        guard let table = sourceTable(of: root, properties: members) else {
            mapping.differences.append("no table \(CoreDataName.table(ofRoot: root.name)) for entity \(root.name)")
            return
        }
        usedTables.insert(CoreDataName.normalized(table.name))
        var result = CoreDataMapping.Table(
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
        let columns = table.columns.filter {
            !CoreDataName.entityTableColumns.contains(CoreDataName.normalized($0.name))
        }
        let claims = members.map { member in
            let name = CoreDataName.column(of: member.columnStem)
            let candidates = columns.compactMap { column in
                CoreDataName.suffix(of: column.name, after: name).map { (column.name, $0) }
            }.sorted { $0.1 < $1.1 }.map(\.0)
            let expected = member.expectedTypes
            return CoreDataColumnMatching.Claim(
                candidates: candidates, kinds: Set(kinds(of: member.entity)),
                fits: { expected.contains(table.column($0)?.type ?? "") })
        }
        let assigned = CoreDataColumnMatching.assign(
            claims, occupancy: schema.occupancy[CoreDataName.normalized(table.name)] ?? [:])
        var used = Set(CoreDataName.entityTableColumns)
        var sourcesByTarget: [(String, [CoreDataMapping.Source])] = []
        var composites = CompositeColumns()
        for (index, member) in members.enumerated() {
            let described = "\(member.entity.name).\(member.property)"
            guard let columnName = assigned[index] else {
                let name = CoreDataName.column(of: member.columnStem)
                let found =
                    claims[index].candidates.isEmpty
                    ? "no column \(name)"
                    : "no column \(name) left (\(claims[index].candidates.joined(separator: ", ")) hold other properties)"
                mapping.differences.append("\(table.name) has \(found) for \(described)")
                continue
            }
            used.insert(CoreDataName.normalized(columnName))
            if !claims[index].fits(columnName) {
                let declaredType = table.column(columnName)?.type ?? ""
                let kind = member.type.map { "\($0.rawValue) attribute" } ?? "to-one relationship"
                mapping.differences.append(
                    "\(table.name).\(columnName) is \(declaredType.isEmpty ? "untyped" : declaredType), not what Core Data declares for \(described), a \(kind) (\(member.expectedTypes.sorted().joined(separator: " or ")))"
                )
            }
            if member.type == nil { noteEntityNumberColumns(beside: columnName, of: described, in: table, used: &used) }
            if member.leafName != nil {
                composites.add(
                    leaf: CoreDataMapping.Source(
                        numbers: kinds(of: member.entity).sorted(), column: columnName, entity: member.entity.name,
                        property: member.property, type: member.type, isExternal: false,
                        isOptional: member.isOptional),
                    of: member.entity, in: layout)
                continue
            }
            guard let targetColumn = layout.columnName(of: member.property, in: member.entity.name) else { continue }
            let source = CoreDataMapping.Source(
                numbers: kinds(of: member.entity).sorted(), column: columnName, entity: member.entity.name,
                property: member.property, type: member.type,
                isExternal: facts.externalBinary.contains(described), isOptional: member.isOptional)
            if let position = sourcesByTarget.firstIndex(where: { $0.0 == targetColumn }) {
                sourcesByTarget[position].1.append(source)
            } else {
                sourcesByTarget.append((targetColumn, [source]))
            }
            if member.type == nil, let order = orderColumn(for: member.property, declaredBy: member.entity) {
                let key = CoreDataName.orderKey(ofToOne: columnName)
                if let fok = table.column(key) {
                    used.insert(CoreDataName.normalized(fok.name))
                    result.orders.append(CoreDataMapping.Order(target: order, partition: columnName, key: fok.name))
                } else {
                    mapping.differences.append(
                        "\(table.name) has no column \(key) for the order of \(described)'s ordered inverse")
                }
            }
        }
        // A derived attribute the store computes is compared with Core Data's value, not copied.
        let computed = Set(
            layout.derivedColumns.filter { $0.kind != .timestamp && $0.table == result.target }.map(\.column))
        let valueColumns = sourcesByTarget.map { CoreDataMapping.ValueColumn(target: $0.0, sources: $0.1) }
        result.columns = valueColumns.filter { !computed.contains($0.target) }
        result.derived = valueColumns.filter { computed.contains($0.target) }
        result.composites = composites.columns(in: version)
        for column in table.columns where !used.contains(CoreDataName.normalized(column.name)) {
            mapping.differences.append("\(table.name) has column \(column.name), which the version does not have")
        }
        mapping.tables.append(result)
    }

    /// The entity numbers of `entity`'s objects: its own and its sub-entities'.
    private func kinds(of entity: Entity) -> [Int64] {
        version.hierarchy(of: entity).compactMap { numberByEntity[$0.name] }
    }

    /// The destination's entity number, kept beside a to-one whose destination has sub-entities
    /// (`Z6_FOLDER1` beside `ZFOLDER1`): not imported, the key alone names the object in its hierarchy's
    /// table; its type is checked.
    private mutating func noteEntityNumberColumns(
        beside toOne: String, of described: String, in table: CoreDataSchema.Table, used: inout Set<String>
    ) {
        for column in table.columns where CoreDataName.isEntityNumber(column.name, of: toOne) {
            used.insert(CoreDataName.normalized(column.name))
            if column.type != "INTEGER" {
                mapping.differences.append(
                    "\(table.name).\(column.name) is \(column.type.isEmpty ? "untyped" : column.type), not the INTEGER entity number Core Data keeps beside \(described)"
                )
            }
        }
    }

    /// The Remodel order column kept for a to-one whose inverse is an ordered to-many.
    private func orderColumn(for toOne: String, declaredBy entity: Entity) -> String? {
        layout.orderColumnByToOne[StoreLayout.PropertyKey(entity: entity.name, property: toOne)]
    }
}
