/// Computes a ``ModelDiff`` from two versions and their inferred mapping.
struct ModelDiffBuilder {
    let source: ModelVersion
    let destination: ModelVersion
    let mapping: MappingModel
    var lints: [ModelDiff.Lint] = []

    init(source: ModelVersion, destination: ModelVersion, mapping: MappingModel) {
        self.source = source
        self.destination = destination
        self.mapping = mapping
    }

    mutating func entityChanges() -> [ModelDiff.EntityChange] {
        var result: [ModelDiff.EntityChange] = []
        for entity in destination.entities {
            guard let entityMapping = mapping.mapping(toDestination: entity.name) else { continue }
            guard let sourceName = entityMapping.source, let sourceEntity = source.entity(named: sourceName) else {
                result.append(
                    ModelDiff.EntityChange(
                        name: entity.name, sourceName: nil, change: .added, migration: .add,
                        properties: destination.attributes(of: entity).filter(\.isStored).map {
                            ModelDiff.PropertyChange(
                                name: $0.name, change: .added, details: [$0.type.rawValue],
                                migration: "new entity, starts empty")
                        }))
                continue
            }
            let properties = propertyChanges(from: sourceEntity, to: entity, mapping: entityMapping)
            lintUniqueness(from: sourceEntity, to: entity, mapping: entityMapping)
            let renamed = sourceName != entity.name
            let change: ModelDiff.Change =
                renamed || properties.contains { $0.change != .unchanged } ? .changed : .unchanged
            result.append(
                ModelDiff.EntityChange(
                    name: entity.name, sourceName: renamed ? sourceName : nil, change: change,
                    migration: entityMapping.kind, properties: properties.filter { $0.change != .unchanged }))
        }
        var removedEntities: [String] = []
        for entityMapping in mapping.entities where entityMapping.kind == .remove {
            guard let name = entityMapping.source, let entity = source.entity(named: name) else { continue }
            if !entity.isAbstract {
                removedEntities.append(name)
                lints.append(
                    ModelDiff.Lint(
                        rule: .dataDropped, severity: .warning, entity: name, property: nil,
                        message: "entity \(name) is removed: all its objects will be dropped"))
            }
            result.append(
                ModelDiff.EntityChange(
                    name: name, sourceName: nil, change: .removed, migration: .remove, properties: []))
        }
        lintRequiredLinks(removing: Set(removedEntities))
        for problem in mapping.problems {
            lints.append(
                ModelDiff.Lint(
                    rule: .needsMapping, severity: .error, entity: problem.entity, property: problem.property,
                    message: problem.description))
        }
        return result
    }

    private mutating func propertyChanges(from sourceEntity: Entity, to entity: Entity, mapping: EntityMapping)
        -> [ModelDiff.PropertyChange]
    {
        var changes: [ModelDiff.PropertyChange] = []
        var usedSources: Set<String> = []
        var added: [Attribute] = []
        for attribute in destination.attributes(of: entity).filter(\.isStored) {
            guard let attributeMapping = mapping.attribute(attribute.name) else { continue }
            let problem = mapping.problems.first { $0.property == attribute.name }
            let migration = problem.map { "needs a mapping: \($0.message)" } ?? attributeMapping.provenance.description
            guard let sourceName = attributeMapping.sourceAttribute,
                let sourceAttribute = source.attribute(named: sourceName, in: sourceEntity)
            else {
                added.append(attribute)
                changes.append(
                    ModelDiff.PropertyChange(
                        name: attribute.name, change: .added, details: [attribute.type.rawValue], migration: migration))
                continue
            }
            usedSources.insert(sourceName)
            var details: [String] = []
            if sourceName != attribute.name { details.append("renamed from \(sourceName)") }
            if sourceAttribute.type != attribute.type {
                details.append("\(sourceAttribute.type.rawValue) → \(attribute.type.rawValue)")
            }
            if sourceAttribute.isOptional != attribute.isOptional {
                details.append(attribute.isOptional ? "required → optional" : "optional → required")
            }
            if attribute.type == .composite, sourceAttribute.type == .composite,
                !destination.hasSameCompositeShape(attribute, as: sourceAttribute, in: source)
            {
                let reshape = CompositeReshape.plan(from: sourceAttribute, in: source, to: attribute, in: destination)
                details.append("composite members change")
                for member in reshape.reshape.droppedMembers {
                    lints.append(
                        ModelDiff.Lint(
                            rule: .dataDropped, severity: .warning, entity: entity.name, property: attribute.name,
                            message:
                                "\(sourceEntity.name).\(sourceName) member \"\(member)\" is removed: its values will be dropped"
                        ))
                }
            }
            changes.append(
                ModelDiff.PropertyChange(
                    name: attribute.name, change: details.isEmpty ? .unchanged : .changed, details: details,
                    migration: migration))
        }
        let removed = source.attributes(of: sourceEntity).filter { $0.isStored && !usedSources.contains($0.name) }
        // A derived attribute's values are the store's computation: none is lost with it.
        for attribute in removed where !attribute.isComputedByStore {
            lints.append(
                ModelDiff.Lint(
                    rule: .dataDropped, severity: .warning, entity: entity.name, property: attribute.name,
                    message: "\(sourceEntity.name).\(attribute.name) is removed: its values will be dropped"))
        }
        for attribute in removed {
            changes.append(
                ModelDiff.PropertyChange(
                    name: attribute.name, change: .removed, details: [attribute.type.rawValue], migration: "dropped"))
        }
        lintLikelyRenames(removed: removed, added: added, in: entity)
        changes += relationshipChanges(from: sourceEntity, to: entity, mapping: mapping)
        return changes
    }

    private mutating func relationshipChanges(from sourceEntity: Entity, to entity: Entity, mapping: EntityMapping)
        -> [ModelDiff.PropertyChange]
    {
        var changes: [ModelDiff.PropertyChange] = []
        var usedSources: Set<String> = []
        for relationship in destination.relationships(of: entity) where !relationship.isTransient {
            guard let relationshipMapping = mapping.relationship(relationship.name) else { continue }
            let problem = mapping.problems.first { $0.property == relationship.name }
            let migration =
                problem.map { "needs a mapping: \($0.message)" } ?? relationshipMapping.provenance.description
            guard let sourceName = relationshipMapping.source,
                let sourceRelationship = source.relationship(named: sourceName, in: sourceEntity)
            else {
                changes.append(
                    ModelDiff.PropertyChange(
                        name: relationship.name, change: .added, details: [cardinality(relationship)],
                        migration: migration))
                continue
            }
            usedSources.insert(sourceName)
            var details: [String] = []
            if sourceName != relationship.name { details.append("renamed from \(sourceName)") }
            if cardinality(sourceRelationship) != cardinality(relationship) {
                details.append("\(cardinality(sourceRelationship)) → \(cardinality(relationship))")
            }
            if sourceRelationship.destinationEntity != relationship.destinationEntity {
                details.append(
                    "destination \(sourceRelationship.destinationEntity ?? "?") → \(relationship.destinationEntity ?? "?")"
                )
            }
            changes.append(
                ModelDiff.PropertyChange(
                    name: relationship.name, change: details.isEmpty ? .unchanged : .changed, details: details,
                    migration: migration))
        }
        for relationship in source.relationships(of: sourceEntity)
        where !relationship.isTransient && !usedSources.contains(relationship.name) {
            lints.append(
                ModelDiff.Lint(
                    rule: .dataDropped, severity: .warning, entity: entity.name, property: relationship.name,
                    message: "\(sourceEntity.name).\(relationship.name) is removed: its links will be dropped"))
            changes.append(
                ModelDiff.PropertyChange(
                    name: relationship.name, change: .removed, details: [cardinality(relationship)],
                    migration: "dropped"))
        }
        return changes
    }

    /// Pairs each added attribute with the removed attribute of the same type whose name is closest
    /// (each removed one used once): the pairs that look like a rename without a renaming identifier.
    private mutating func lintLikelyRenames(removed: [Attribute], added: [Attribute], in entity: Entity) {
        var available = removed
        for twin in added {
            let candidates = available.filter { $0.type == twin.type }
            guard
                let closest = candidates.min(by: {
                    Suggestion.distance($0.name, twin.name) < Suggestion.distance($1.name, twin.name)
                })
            else { continue }
            available.removeAll { $0.name == closest.name }
            lints.append(
                ModelDiff.Lint(
                    rule: .likelyRename, severity: .warning, entity: entity.name, property: twin.name,
                    message:
                        "\(entity.name).\(closest.name) is removed and \(entity.name).\(twin.name) of the same type is added: did you mean to set elementID=\"\(closest.name)\" on \"\(twin.name)\"?"
                ))
        }
    }

    private func cardinality(_ relationship: Relationship) -> String {
        relationship.isToMany ? (relationship.isOrdered ? "ordered to-many" : "to-many") : "to-one"
    }

    /// A relationship that requires objects (a required to-one, a to-many with a minimum) and is carried from a
    /// source relationship whose destination, or one of its sub-entities, the step removes: the objects linked only
    /// to removed ones are left without, and phase 3 refuses the store naming them. Said at planning, as a store
    /// with such links will fail.
    private mutating func lintRequiredLinks(removing removed: Set<String>) {
        guard !removed.isEmpty else { return }
        // An inherited relationship is named once, on the entity that declares it.
        var named: Set<String> = []
        for entity in destination.entities where !entity.isAbstract {
            guard let entityMapping = mapping.mapping(toDestination: entity.name),
                let sourceName = entityMapping.source, let sourceEntity = source.entity(named: sourceName)
            else { continue }
            for relationship in destination.relationships(of: entity) where relationship.requiresObjects {
                guard let sourceRelationshipName = entityMapping.relationship(relationship.name)?.source,
                    let sourceRelationship = source.relationship(named: sourceRelationshipName, in: sourceEntity),
                    let target = sourceRelationship.destinationEntity.flatMap(source.entity(named:))
                else { continue }
                let dropped = source.hierarchy(of: target).map(\.name).filter(removed.contains)
                let owner =
                    ([entity] + destination.ancestors(of: entity)).first {
                        $0.relationship(named: relationship.name) != nil
                    } ?? entity
                guard !dropped.isEmpty, named.insert(owner.name + "." + relationship.name).inserted else { continue }
                let names = (dropped.count == 1 ? "entity " : "entities ") + dropped.listed()
                let subject = "\(owner.name).\(relationship.name)"
                let (requirement, outcome, remedy) =
                    relationship.isToMany
                    ? (
                        "needs at least \(relationship.minCount ?? 1) objects", "left with fewer",
                        "lower its minimum"
                    )
                    : ("is required", "linked to one is left with none and", "make \(subject) optional")
                lints.append(
                    ModelDiff.Lint(
                        rule: .requiredLinkDropped, severity: .warning, entity: owner.name,
                        property: relationship.name,
                        message:
                            "\(subject) \(requirement), and the step removes \(names), whose objects it may link to: a \(owner.name) \(outcome) fails the migration, which names it; map \(dropped.count == 1 ? "that entity" : "those entities") in a mapping file, or \(remedy)"
                    ))
            }
        }
    }

    /// A uniqueness constraint the source entity does not have: a store whose objects share values fails it. When
    /// inference fills every one of its attributes with the model's default, all objects share them, and the lint
    /// says that a store of two or more objects fails.
    private mutating func lintUniqueness(from sourceEntity: Entity, to entity: Entity, mapping: EntityMapping) {
        let existing = Set(sourceEntity.uniquenessConstraints.map { Set($0.properties) })
        for constraint in entity.uniquenessConstraints where !existing.contains(Set(constraint.properties)) {
            let names = constraint.properties.joined(separator: ", ")
            let defaults = constraint.properties.compactMap { name -> String? in
                guard case .modelDefault(let value)? = mapping.attribute(name)?.provenance else { return nil }
                return value
            }
            let outcome =
                defaults.count == constraint.properties.count
                ? "inferred, every \(entity.name) gets the model's defaults (\(defaults.joined(separator: ", "))) there, so a store with two or more \(entity.name) objects fails the migration: give them distinct values in a mapping file"
                : "existing objects may hold duplicates, and the migration will fail naming them"
            lints.append(
                ModelDiff.Lint(
                    rule: .newUniquenessConstraint, severity: .warning, entity: entity.name,
                    property: constraint.properties.first,
                    message: "\(entity.name) gets a new uniqueness constraint on (\(names)); \(outcome)"))
        }
    }
}
