/// Which phase-3 checks a pass must run on a version it writes or goes through: every check on the
/// tables it rebuilds; on a carried table, only the checks whose values the pass made (a new column, a
/// filled constant) or whose rule differs from the rule the value was checked under in the pass's source
/// (an attribute made required, a new maximum, a narrower integer type, a new uniqueness constraint).
/// Data carried byte for byte under unchanged rules is left to SQLite's check of the file.
struct CheckScope: Sendable {
    /// The version checked, and its layout.
    let version: ModelVersion
    let layout: StoreLayout
    /// The step's source version, and its layout.
    let source: ModelVersion
    let sourceLayout: StoreLayout
    /// What the step does to the tables.
    let changes: StorageChanges
    /// The checks each property of an entity of a carried table needs, by entity and property name, worked
    /// out once for the step: phase 3 asks for every property of every entity, at every step of a chain.
    private var carriedRules: [String: [String: Set<MigrationRule>]] = [:]
    /// The entities of carried tables none of whose checks must run: phase 3 passes them by.
    private(set) var untouched: Set<String> = []

    /// The scope of a step; the entities `unchanged` finds the step leaves as they were are passed by without
    /// working out their rules.
    init(
        version: ModelVersion, layout: StoreLayout, source: ModelVersion, sourceLayout: StoreLayout,
        changes: StorageChanges, unchanged: UnchangedTables = .none
    ) {
        self.version = version
        self.layout = layout
        self.source = source
        self.sourceLayout = sourceLayout
        self.changes = changes
        for table in layout.tables {
            guard let carried = changes.carriedTables[table.name] else { continue }
            for name in table.entities {
                if unchanged.leavesAsItWas(name, in: layout) {
                    untouched.insert(name)
                    continue
                }
                guard let entity = version.entity(named: name), let before = source.entity(named: name) else {
                    continue
                }
                let rules = rules(of: entity, before: before, carried: carried)
                carriedRules[name] = rules
                if rules.values.allSatisfy(\.isEmpty),
                    !entity.uniquenessConstraints.contains(where: {
                        needsUniqueness(entity: name, properties: $0.properties)
                    })
                {
                    untouched.insert(name)
                }
            }
        }
    }

    /// Every check there is for a property.
    private static let every = MigrationRule.attributeRules.union(MigrationRule.relationshipRules)

    /// The checks of `property` of `entity` that must run.
    func rules(entity entityName: String, property: String) -> Set<MigrationRule> {
        if untouched.contains(entityName) { return [] }
        return carriedRules[entityName]?[property] ?? Self.every
    }

    /// Whether two scopes ask for the same checks of every property of `version` (debug builds compare the scope
    /// worked out with ``UnchangedTables`` with the one worked out without).
    func asksTheSameChecks(as other: CheckScope) -> Bool {
        guard untouched == other.untouched else { return false }
        for entity in version.entities {
            let properties = version.attributes(of: entity).map(\.name) + version.relationships(of: entity).map(\.name)
            for property in properties
            where rules(entity: entity.name, property: property) != other.rules(entity: entity.name, property: property)
            {
                return false
            }
            for constraint in entity.uniquenessConstraints
            where needsUniqueness(entity: entity.name, properties: constraint.properties)
                != other.needsUniqueness(entity: entity.name, properties: constraint.properties)
            {
                return false
            }
        }
        return true
    }

    /// Whether the check `rule` of `property` of `entity` must run.
    func needs(entity entityName: String, property: String?, rule: MigrationRule) -> Bool {
        guard let property else { return true }
        return rules(entity: entityName, property: property).contains(rule)
    }

    /// The source properties of an entity by the source column they are stored in.
    private struct SourceColumns {
        var attributes: [String: Attribute] = [:]
        var toOnes: [String: Relationship] = [:]
    }

    private func rules(of entity: Entity, before: Entity, carried: StorageChanges.CarriedTable) -> [String: Set<
        MigrationRule
    >] {
        var sourceColumns = SourceColumns()
        for attribute in source.attributes(of: before) {
            if let column = sourceLayout.columnName(of: attribute.name, in: before.name),
                sourceColumns.attributes[column] == nil
            {
                sourceColumns.attributes[column] = attribute
            }
        }
        for relationship in source.relationships(of: before) where !relationship.isToMany {
            if let column = sourceLayout.columnName(of: relationship.name, in: before.name),
                sourceColumns.toOnes[column] == nil,
                sourceColumns.attributes[column] == nil
            {
                sourceColumns.toOnes[column] = relationship
            }
        }
        var result: [String: Set<MigrationRule>] = [:]
        // Phase 3 checks stored attributes and relationships only: a transient one needs nothing.
        for attribute in version.attributes(of: entity) where attribute.isStored && result[attribute.name] == nil {
            guard let column = layout.columnName(of: attribute.name, in: entity.name),
                let origin = carried.columns[column]
            else {
                result[attribute.name] = Self.every
                continue
            }
            let earlier = origin.column.flatMap { sourceColumns.attributes[$0] }
            result[attribute.name] = rules(of: attribute, origin: origin, entity: entity.name, earlier: earlier)
        }
        for relationship in version.relationships(of: entity)
        where !relationship.isTransient && result[relationship.name] == nil {
            result[relationship.name] = MigrationRule.relationshipRules.filter {
                needs(
                    relationship, rule: $0, entity: entity.name, before: before, carried: carried,
                    sourceColumns: sourceColumns)
            }
        }
        return result
    }

    /// The rules phase 3 checks on a to-one (its column) and on a to-many (its counts): a to-many's links are
    /// checked at their to-one side and at a join table's ends (``needsJoinEnds(_:)``), never on the to-many.
    private static let toOneRules: Set<MigrationRule> = [.required, .dangling]
    private static let toManyRules: Set<MigrationRule> = [.minimumCount, .maximumCount]

    private func needs(
        _ relationship: Relationship, rule: MigrationRule, entity entityName: String, before: Entity,
        carried: StorageChanges.CarriedTable,
        sourceColumns: SourceColumns
    ) -> Bool {
        // A rule phase 3 has no check for on this kind of relationship needs nothing: an entity whose properties need
        // nothing else is passed by.
        guard (relationship.isToMany ? Self.toManyRules : Self.toOneRules).contains(rule) else { return false }
        if !relationship.isToMany {
            guard let column = layout.columnName(of: relationship.name, in: entityName),
                let origin = carried.columns[column]
            else { return true }
            guard let from = origin.column, let earlier = sourceColumns.toOnes[from] else {
                return rule == .required && !relationship.isOptional
            }
            // Links carried between objects that all arrive under their keys, as kinds of the destination, dangle no
            // more than they did.
            return rule == .required && !relationship.isOptional && earlier.isOptional
        }
        guard let earlier = sourceToMany(of: relationship, in: entityName, before: before) else { return true }
        if rule == .minimumCount { return (relationship.minCount ?? 0) > (earlier.minCount ?? 0) }
        guard let maximum = relationship.maxCount, maximum > 0 else { return false }
        guard let previous = earlier.maxCount, previous > 0 else { return true }
        return maximum < previous
    }

    /// The checks an attribute of a carried table needs, from where its column's values come.
    private func rules(
        of attribute: Attribute, origin: StorageChanges.ColumnOrigin, entity: String, earlier: Attribute?
    ) -> Set<MigrationRule> {
        let fills = origin.fills.isEmpty ? [] : origin.fills.filter { $0.entities.contains(entity) }
        guard origin.column != nil, let earlier else {
            // A new column: nil, or a constant everywhere.
            let filled = fills.contains { !$0.onlyNulls }
            if filled { return MigrationRule.attributeRules.subtracting([.required]) }
            return attribute.isOptional ? [] : [.required]
        }
        let constant = !fills.isEmpty
        var rules: Set<MigrationRule> = []
        if !attribute.isOptional && earlier.isOptional && !fills.contains(where: \.onlyNulls) {
            rules.insert(.required)
        }
        if constant || !Self.sameStorageRule(earlier.type, attribute.type) { rules.insert(.type) }
        // A composite's members are checked under the type rule: members or their rules changed, checked again.
        if attribute.type == .composite, !version.hasSameComposite(attribute, as: earlier, in: source) {
            rules.insert(.type)
        }
        if constant || attribute.minValue != earlier.minValue || earlier.type != attribute.type {
            rules.insert(.minimum)
        }
        if constant || attribute.maxValue != earlier.maxValue || earlier.type != attribute.type {
            rules.insert(.maximum)
        }
        if constant || attribute.regularExpression != earlier.regularExpression { rules.insert(.regularExpression) }
        return rules
    }

    /// Whether a value that passed the storage check of `old` passes that of `new`.
    static func sameStorageRule(_ old: AttributeType, _ new: AttributeType) -> Bool {
        guard StoreLayout.declaredType(of: old) == StoreLayout.declaredType(of: new) else { return false }
        if new == .boolean { return old == .boolean }
        if let range = new.integerRange {
            guard let previous = old.integerRange ?? (old == .boolean ? 0...1 : nil) else { return false }
            return range.contains(previous.lowerBound) && range.contains(previous.upperBound)
        }
        return true
    }

    /// The source to-many a carried to-many's links come from: stored in the carried column or join table
    /// that now stores it.
    private func sourceToMany(of relationship: Relationship, in entity: String, before: Entity) -> Relationship? {
        switch layout.storage(of: relationship.name, in: entity) {
        case .inverseColumn(let table, let column, _)?:
            guard let carried = changes.carriedTables[table], let from = carried.columns[column]?.column else {
                return nil
            }
            return source.relationships(of: before).first { candidate in
                if case .inverseColumn(carried.source, from, _)? = sourceLayout.storage(
                    of: candidate.name, in: before.name)
                {
                    return true
                }
                return false
            }
        case .joinTable(let name, let ownerIsSource, _)?:
            guard let from = changes.carriedJoins[name] else { return nil }
            return source.relationships(of: before).first { candidate in
                guard
                    case .joinTable(from, let sourceOwnerIsSource, _)? = sourceLayout.storage(
                        of: candidate.name, in: before.name)
                else {
                    return false
                }
                return sourceOwnerIsSource == ownerIsSource
            }
        default:
            return nil
        }
    }

    /// Whether a uniqueness constraint over `properties` of `entity` must be checked: unless its table is
    /// carried, the source entity had the same constraint, and every column of it is carried as it is.
    func needsUniqueness(entity entityName: String, properties: [String]) -> Bool {
        guard let table = layout.table(forEntity: entityName)?.name, let carried = changes.carriedTables[table],
            let before = source.entity(named: entityName)
        else { return true }
        var sourceColumns: [String] = []
        for property in properties {
            guard let column = layout.columnName(of: property, in: entityName), let origin = carried.columns[column],
                let from = origin.column,
                origin.fills.isEmpty
            else { return true }
            sourceColumns.append(from)
        }
        return !before.uniquenessConstraints.contains { constraint in
            constraint.properties.compactMap { sourceLayout.columnName(of: $0, in: entityName) } == sourceColumns
        }
    }

    /// Whether a join table's ends must be checked for dangling links: unless it is carried.
    func needsJoinEnds(_ join: String) -> Bool { changes.carriedJoins[join] == nil }
}
