extension CoreDataMapping {
    /// Maps a store's schema onto a version's Remodel layout, noting every difference.
    init(layout: StoreLayout, schema: CoreDataSchema, metadata: CoreDataMetadata, facts: CoreDataModelFacts) {
        let version = layout.version
        var builder = Builder(layout: layout, schema: schema, facts: facts)
        builder.matchEntityNumbers()
        builder.compareMetadata(metadata)
        for root in version.rootEntities { builder.mapTable(root: root) }
        builder.mapJoins()
        builder.noteUnusedTables()
        builder.compareIndexes()
        self = builder.mapping
    }

    /// The state of one mapping being built.
    struct Builder {
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

        mutating func noteUnusedTables() {
            for table in schema.tables.values.sorted(by: { $0.name < $1.name })
            where !usedTables.contains(CoreDataName.normalized(table.name)) {
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
            let found = Set(
                schema.indexNames.filter { $0.hasPrefix("Z_") && !CoreDataName.normalized($0).hasSuffix("_INDEX") })
            for name in expected.subtracting(found).sorted() { mapping.indexDifferences.append("no index \(name)") }
            for name in found.subtracting(expected).sorted() {
                mapping.indexDifferences.append("index \(name), which the version does not declare")
            }
        }
    }
}
