/// What a step leaves exactly as it was, found without analysing it: the entities it copies as they are,
/// and the tables made of nothing else. A step of a long history changes an attribute or two of one entity;
/// the analyses of what it carries (``StepStorageAnalysis``), what phase 3 checks (``CheckScope``) and what it
/// drops (``DataLoss``) then cost what the step changes, not the whole schema (issue 29).
///
/// What it finds is what those analyses would find: a table here is carried column by column as it is, with
/// nothing to fill, drop or check, and an entity here loses nothing. Debug builds work everything out both
/// ways and compare (``StepPlan``).
struct UnchangedTables: Sendable {
    /// Destination entities defined as the source entity of the same name, and their ancestors too, whose
    /// objects the mapping copies as they are: the only mapping from that source entity, without filter or
    /// policy, every stored attribute and relationship from the one of the same name.
    private(set) var entities: Set<String> = []
    /// Destination hierarchy tables the same in both layouts, kept under their keys, all of whose entities are
    /// unchanged, and whose to-one columns lead to tables that are unchanged too, or that keep every object of the
    /// target's source table under its key.
    private(set) var tables: Set<String> = []
    /// Destination join tables the same in both layouts whose two ends' tables are unchanged.
    private(set) var joins: Set<String> = []
    /// The entity mapping of each entity the step copies as it is (before its ancestors are asked about): the next
    /// step of a chain, whose source is this step's destination, asks no more of an entity it maps alike and that
    /// it, and its ancestors, leave as they are (``init(mapping:source:destination:keys:policies:before:)``).
    private(set) var copiedMappings: [String: EntityMapping] = [:]

    /// Nothing found: every table is analysed.
    static let none = UnchangedTables()

    private init() {}

    /// `previous` is what the step before in a chain found (its destination is this step's source): an entity it
    /// copied as it is under the same entity mapping, that this step leaves as it is with all its ancestors, takes
    /// every property from itself here too, which is not worked out again.
    init(
        mapping: MappingModel, source: StoreLayout, destination: StoreLayout, keys: KeyPlan, policies: Set<String>,
        previous: UnchangedTables? = nil
    ) {
        let before = source.version
        let after = destination.version
        var mappingsFrom: [String: Int] = [:]
        for entityMapping in mapping.entities {
            if let name = entityMapping.source { mappingsFrom[name, default: 0] += 1 }
        }
        var copied: Set<String> = []
        copiedMappings.reserveCapacity(previous?.copiedMappings.count ?? 0)
        for entityMapping in mapping.entities {
            guard let name = entityMapping.destination,
                entityMapping.source.map({ SQLName.identical($0, name) }) == true,
                mappingsFrom[name] == 1,
                entityMapping.filter == nil, entityMapping.policy == nil, !policies.contains(name),
                let old = before.entity(named: name), let new = after.entity(named: name),
                before.hasSameDefinition(of: old, as: new, in: after)
            else { continue }
            if let known = previous?.copiedMappings[name], known == entityMapping,
                Self.ancestorsAreTheSame(of: new, in: after, as: before)
            {
                assert(
                    Self.copiesEveryProperty(entityMapping, of: new, in: destination),
                    "\(name): copied as it is in the step before, not in this one")
            } else if !Self.copiesEveryProperty(entityMapping, of: new, in: destination) {
                continue
            }
            copied.insert(name)
            copiedMappings[name] = entityMapping
        }
        entities = copied.filter { name in
            guard let entity = after.entity(named: name) else { return false }
            return after.ancestors(of: entity).allSatisfy { copied.contains($0.name) }
        }
        // Tables the same in both layouts made of unchanged entities, then, until none is left to take out, those
        // whose to-one columns lead to a table that is not here, unless the links survive as they are (the target's
        // table keeps every object of its source table under its key: the analysis carries such a column as it is).
        var candidates: [String: StoreLayout.Table] = [:]
        for table in destination.tables {
            // An abstract entity with no concrete kind has no object: the analysis gives the columns it declares
            // no users, and starts them empty. Such a table is analysed.
            guard case .preserved(table.name)? = keys.mode(ofDestinationTable: table.name),
                source.table(named: table.name) == table, table.entities.allSatisfy(entities.contains),
                table.entities.allSatisfy({ name in
                    guard let entity = after.entity(named: name), entity.isAbstract else { return true }
                    return after.hierarchy(of: entity).contains { !$0.isAbstract }
                })
            else { continue }
            candidates[table.name] = table
        }
        var changed = true
        while changed {
            changed = false
            for (name, table) in candidates {
                let leadsElsewhere = table.columns.contains { column in
                    guard case .toOne(_, _, let target) = column.content else { return false }
                    guard let targetTable = destination.table(forEntity: target) else { return true }
                    return candidates[targetTable.name] == nil
                        && !Self.linksSurvive(
                            to: target, in: targetTable, mapping: mapping, source: source, destination: destination,
                            keys: keys, policies: policies)
                }
                if leadsElsewhere {
                    candidates[name] = nil
                    changed = true
                }
            }
        }
        tables = Set(candidates.keys)
        for join in destination.joinTables {
            guard source.joinTable(named: join.name) == join,
                let owner = destination.table(forEntity: join.sourceEntity)?.name, tables.contains(owner),
                let target = destination.table(forEntity: join.destinationEntity)?.name, tables.contains(target)
            else { continue }
            joins.insert(join.name)
        }
    }

    /// Whether every ancestor of `entity` (of `version`) is defined in `other` as in `version`: then so are the
    /// properties it inherits.
    private static func ancestorsAreTheSame(of entity: Entity, in version: ModelVersion, as other: ModelVersion)
        -> Bool
    {
        guard entity.parentName != nil else { return true }
        return version.ancestors(of: entity).allSatisfy { ancestor in
            guard let earlier = other.entity(named: ancestor.name) else { return false }
            return version.hasSameDefinition(of: ancestor, as: earlier, in: other)
        }
    }

    /// Whether the links of an unchanged entity's to-one to `target` (as named in both versions) stay true as they
    /// are while `table`, the target's, is not itself unchanged: as ``StepStorageAnalysis`` decides it
    /// (`feederKeepingEveryObject`, `linksSurvive`): the table receives every object of the target's source table,
    /// each once and unfiltered, under its own key, and every concrete kind of the source target arrives as a kind of
    /// the target.
    private static func linksSurvive(
        to target: String, in table: StoreLayout.Table, mapping: MappingModel, source: StoreLayout,
        destination: StoreLayout, keys: KeyPlan, policies: Set<String>
    ) -> Bool {
        guard let sourceTable = source.table(forEntity: target),
            StepStorageAnalysis.feederKeepingEveryObject(
                table, source: source, destination: destination, mapping: mapping, keys: keys, policies: policies)
                == sourceTable.name
        else { return false }
        return StepStorageAnalysis.everyKindArrives(
            of: target, as: target, source: source.version, destination: destination.version, mapping: mapping)
    }

    /// Whether an entity mapping takes every stored attribute and relationship of `entity` from the one of the
    /// same name, as it is. `inOrder` tries ``copiesInOrder(_:of:in:)`` first (tests ask both roads).
    static func copiesEveryProperty(
        _ mapping: EntityMapping, of entity: Entity, in layout: StoreLayout, inOrder: Bool = true
    ) -> Bool {
        if inOrder, let answer = copiesInOrder(mapping, of: entity, in: layout.version) { return answer }
        let attributes = layout.storedAttributes(of: entity)
        let relationships = layout.version.relationships(of: entity).filter { !$0.isTransient }
        guard mapping.attributes.count == attributes.count, mapping.relationships.count == relationships.count else {
            return false
        }
        let names = Set(attributes.map(\.name))
        guard names.count == attributes.count, Set(relationships.map(\.name)).count == relationships.count else {
            return false
        }
        for attribute in mapping.attributes {
            guard names.contains(attribute.destination),
                attribute.sourceAttribute.map({ SQLName.identical($0, attribute.destination) }) == true,
                let text = attribute.value?.text, text.hasPrefix("$source."),
                SQLName.identical(text.dropFirst("$source.".count), attribute.destination)
            else { return false }
        }
        let relationshipNames = Set(relationships.map(\.name))
        return mapping.relationships.allSatisfy { relationship in
            relationshipNames.contains(relationship.destination)
                && relationship.source.map { SQLName.identical($0, relationship.destination) } == true
        }
    }

    /// ``copiesEveryProperty(_:of:in:)`` for a mapping that lists the entity's stored attributes and relationships
    /// in model order (as inference writes a copy), answered by walking the two side by side, without a set or a
    /// copy of any property: nil when the mapping lists them otherwise, for the full answer.
    static func copiesInOrder(_ mapping: EntityMapping, of entity: Entity, in version: ModelVersion) -> Bool? {
        let prefix = "$source."
        var attributeCount = 0
        var relationshipCount = 0
        var names: [String] = []
        // Inherited properties first, as `ModelVersion.attributes(of:)` and `relationships(of:)` list them.
        let line = entity.parentName == nil ? [entity] : version.ancestors(of: entity).reversed() + [entity]
        for declaring in line {
            for attribute in declaring.attributes where attribute.isStored {
                guard attributeCount < mapping.attributes.count else { return nil }
                let attributeMapping = mapping.attributes[attributeCount]
                guard SQLName.identical(attributeMapping.destination, attribute.name) else { return nil }
                guard attributeMapping.sourceAttribute.map({ SQLName.identical($0, attribute.name) }) == true,
                    let text = attributeMapping.value?.text, text.hasPrefix(prefix),
                    SQLName.identical(text.dropFirst(prefix.count), attribute.name)
                else { return false }
                attributeCount += 1
            }
        }
        guard attributeCount == mapping.attributes.count else { return nil }
        for declaring in line {
            for relationship in declaring.relationships where !relationship.isTransient {
                guard relationshipCount < mapping.relationships.count,
                    SQLName.identical(mapping.relationships[relationshipCount].destination, relationship.name)
                else { return nil }
                guard
                    mapping.relationships[relationshipCount].source.map({ SQLName.identical($0, relationship.name) })
                        == true
                else { return false }
                relationshipCount += 1
            }
        }
        guard relationshipCount == mapping.relationships.count else { return nil }
        // The names must be distinct, attributes among attributes and relationships among relationships.
        names.reserveCapacity(max(attributeCount, relationshipCount))
        for attributeMapping in mapping.attributes { names.append(attributeMapping.destination) }
        guard Self.distinct(&names) else { return false }
        names.removeAll(keepingCapacity: true)
        for relationshipMapping in mapping.relationships { names.append(relationshipMapping.destination) }
        return Self.distinct(&names)
    }

    /// Whether the names are distinct (sorts them).
    private static func distinct(_ names: inout [String]) -> Bool {
        guard names.count > 1 else { return true }
        names.sort()
        for index in 1..<names.count where names[index] == names[index - 1] { return false }
        return true
    }

    /// Whether the step leaves an entity's values, links and rules as they were: it is unchanged, and so are
    /// its table and every table its relationships are stored in. Phase 3 has nothing to check in it.
    func leavesAsItWas(_ entity: String, in layout: StoreLayout) -> Bool {
        guard entities.contains(entity), let table = layout.table(forEntity: entity), tables.contains(table.name),
            let definition = layout.version.entity(named: entity)
        else { return false }
        for relationship in layout.version.relationships(of: definition) where !relationship.isTransient {
            switch layout.storage(of: relationship.name, in: entity) {
            case .column(let table, _)?, .inverseColumn(let table, _, _)?:
                guard tables.contains(table) else { return false }
            case .joinTable(let name, _, _)?:
                guard joins.contains(name) else { return false }
            case nil:
                continue
            }
        }
        return true
    }

    /// The carried table an unchanged destination table is: every column from itself.
    func carried(_ table: StoreLayout.Table) -> StorageChanges.CarriedTable? {
        guard tables.contains(table.name) else { return nil }
        var columns: [String: StorageChanges.ColumnOrigin] = [:]
        for column in table.columns {
            switch column.content {
            case .primaryKey, .entityName: continue
            default: columns[column.name] = StorageChanges.ColumnOrigin(column: column.name)
            }
        }
        return StorageChanges.CarriedTable(
            source: table.name, destination: table.name, columns: columns, droppedColumns: [])
    }
}
