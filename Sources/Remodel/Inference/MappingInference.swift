/// Infers the mapping between two versions of a model, at least as far as
/// Core Data's lightweight migration goes, plus lossless widening.
///
/// What it cannot infer becomes a ``MappingProblem`` saying what to write.
///
/// For example:
/// ```swift
/// let bundle = try ModelBundle(contentsOf: "Models/Library.xcdatamodeld")
/// let mapping = try MappingInference.infer(bundle: bundle, from: "Library 2", to: "Library 3")
/// print(mapping.problems) // []
/// ```
public enum MappingInference {
    /// Infers the mapping between two versions of a bundle, given by name.
    /// - Throws: ``/RemodelModel/RemodelError`` when a version does not exist in the bundle.
    public static func infer(bundle: ModelBundle, from source: String, to destination: String) throws(RemodelError)
        -> MappingModel
    {
        let sourceVersion = try bundle.requireVersion(named: source, code: .invalidMapping)
        let destinationVersion = try bundle.requireVersion(named: destination, code: .invalidMapping)
        return infer(from: sourceVersion, to: destinationVersion, modelName: bundle.name)
    }

    /// Infers the mapping between two model versions.
    public static func infer(from source: ModelVersion, to destination: ModelVersion, modelName: String) -> MappingModel
    {
        var memo = InferenceMemo()
        return infer(from: source, to: destination, modelName: modelName, memo: &memo)
    }

    /// Infers the mapping between two model versions, reusing the copies `memo` kept from inferring the step
    /// that ends at `source` (a chain infers its steps in order), and keeping this step's for the next.
    static func infer(
        from source: ModelVersion, to destination: ModelVersion, modelName: String, memo: inout InferenceMemo
    ) -> MappingModel {
        var inference = EntityInference(source: source, destination: destination)
        if memo.destination == source.name { inference.previousCopies = memo.copies }
        let entities = inference.entityMappings()
        memo = InferenceMemo(destination: destination.name, copies: inference.madeCopies)
        return MappingModel(
            modelName: modelName, sourceVersion: source.name, destinationVersion: destination.name,
            entities: entities)
    }
}

/// The copies inference worked out for entities a step leaves as they were (``EntityInference``), kept for the
/// step after it: an entity unchanged in that step too is copied exactly as it was, since the copy depends only
/// on the entity's definition (and its ancestors'), which the two steps share, and on where its relationships
/// lead, which is checked again.
struct InferenceMemo {
    /// The version the copies were inferred for: the next step's source.
    var destination: String?
    /// The copies, by entity name.
    var copies: [String: EntityMapping] = [:]
}

/// The work of one inference: entity by entity, property by property.
struct EntityInference {
    let source: ModelVersion
    let destination: ModelVersion
    /// Problems of the entity mapping being built.
    private var problems: [MappingProblem] = []
    /// Destination entity name for each matched source entity name.
    var destinationForSource: [String: String] = [:]
    /// The copies of the step before, which ended at this step's source version (``InferenceMemo``).
    var previousCopies: [String: EntityMapping] = [:]
    /// The copies this inference made without matching properties, by entity name.
    private(set) var madeCopies: [String: EntityMapping] = [:]

    init(source: ModelVersion, destination: ModelVersion) {
        self.source = source
        self.destination = destination
    }

    /// Every entity mapping: carried-over and removed source entities in source order, then added ones.
    mutating func entityMappings() -> [EntityMapping] {
        let matcher = ElementMatcher<Entity, Entity>(sources: source.entities, name: \.name, elementID: \.elementID)
        let matches = matcher.match(destination.entities, name: \.name, elementID: \.elementID)
        for (index, match) in matches.enumerated() {
            if let match { destinationForSource[match.source.name] = destination.entities[index].name }
        }
        var carried: [String: EntityMapping] = [:]
        carried.reserveCapacity(matches.count)
        var added: [EntityMapping] = []
        for (index, match) in matches.enumerated() {
            let entity = destination.entities[index]
            if let match {
                carried[match.source.name] = mapping(from: match.source, to: entity, provenance: match.provenance)
            } else {
                added.append(newEntityMapping(entity))
            }
        }
        // Made at its size: a chain's plan keeps every step's mappings, and a grown array keeps its spare room.
        var result: [EntityMapping] = []
        result.reserveCapacity(source.entities.count + added.count)
        for entity in source.entities {
            if let mapping = carried[entity.name] {
                result.append(mapping)
            } else {
                result.append(EntityMapping(kind: .remove, source: entity.name, destination: nil, provenance: .removed))
            }
        }
        result.append(contentsOf: added)
        return result
    }

    /// The mapping for a destination entity that has no source.
    /// An added entity starts with no objects, so nothing about its attributes can be missing.
    mutating func newEntityMapping(_ entity: Entity) -> EntityMapping {
        problems = []
        let attributes = destination.attributes(of: entity).filter(\.isStored).map { attribute in
            AttributeMapping(
                destination: attribute.name, value: nil,
                provenance: attribute.defaultValue.map(Provenance.modelDefault) ?? .newAndEmpty)
        }
        let relationships = destination.relationships(of: entity).filter { !$0.isTransient }.map { relationship in
            RelationshipMapping(destination: relationship.name, source: nil, provenance: .newAndEmpty)
        }
        return EntityMapping(
            kind: .add, source: nil, destination: entity.name, attributes: attributes, relationships: relationships,
            provenance: .newAndEmpty, problems: problems)
    }

    /// The mapping that carries `sourceEntity` objects over as `destinationEntity` objects.
    mutating func mapping(from sourceEntity: Entity, to destinationEntity: Entity, provenance: Provenance)
        -> EntityMapping
    {
        // An entity a step leaves as it was (most of them, in a long history) is copied without matching its
        // properties one by one: what matching would give, worked out directly.
        if provenance == .sameName, let copy = unchangedCopy(from: sourceEntity, to: destinationEntity) {
            madeCopies[destinationEntity.name] = copy
            #if DEBUG
                let matched = matchedMapping(from: sourceEntity, to: destinationEntity, provenance: provenance)
                assert(copy == matched, "\(destinationEntity.name) is not copied as matching copies it")
            #endif
            return copy
        }
        return matchedMapping(from: sourceEntity, to: destinationEntity, provenance: provenance)
    }

    /// The mapping of an entity whose definition, and its ancestors', is the same in both versions, when matching
    /// its properties would pair each with itself (no renaming identifier names another property) and each
    /// relationship's destination keeps its name: every stored property from itself. Nil otherwise.
    private func unchangedCopy(from sourceEntity: Entity, to destinationEntity: Entity) -> EntityMapping? {
        guard source.hasSameDefinition(of: sourceEntity, as: destinationEntity, in: destination) else { return nil }
        let before = source.ancestors(of: sourceEntity)
        let after = destination.ancestors(of: destinationEntity)
        guard before.count == after.count,
            zip(before, after).allSatisfy({ source.hasSameDefinition(of: $0, as: $1, in: destination) })
        else {
            return nil
        }
        if let known = previousCopies[destinationEntity.name] {
            // The same definitions, so the same properties as the step before, which copied it: only where its
            // relationships lead may differ.
            let line = after + [destinationEntity]
            for declaring in line {
                for relationship in declaring.relationships where !relationship.isTransient {
                    guard let target = relationship.destinationEntity, let carried = destinationForSource[target]
                    else { continue }
                    guard carried == target else { return nil }
                }
            }
            return known
        }
        let attributes = destination.attributes(of: destinationEntity).filter(\.isStored)
        let relationships = destination.relationships(of: destinationEntity).filter { !$0.isTransient }
        guard Self.matchesItself(attributes.map { ($0.name, $0.elementID) }),
            Self.matchesItself(relationships.map { ($0.name, $0.elementID) }),
            relationships.allSatisfy({ relationship in
                guard let target = relationship.destinationEntity, let carried = destinationForSource[target] else {
                    return true
                }
                return carried == target
            })
        else { return nil }
        return EntityMapping(
            kind: .copy, source: sourceEntity.name, destination: destinationEntity.name,
            attributes: attributes.map {
                AttributeMapping(
                    destination: $0.name, value: ValueExpression("$source.\($0.name)"), sourceAttribute: $0.name,
                    provenance: .sameName)
            },
            relationships: relationships.map {
                RelationshipMapping(destination: $0.name, source: $0.name, provenance: .sameName)
            },
            provenance: .sameName)
    }

    /// Whether ``ElementMatcher`` pairs each of these properties (the same list on both sides) with itself: the
    /// names are distinct and no renaming identifier is another property's name or identifier.
    private static func matchesItself(_ properties: [(name: String, elementID: String?)]) -> Bool {
        var names: Set<String> = []
        var identifiers: [String: Int] = [:]
        for property in properties {
            guard names.insert(property.name).inserted else { return false }
            if let identifier = property.elementID, !identifier.isEmpty { identifiers[identifier, default: 0] += 1 }
        }
        for property in properties {
            guard let identifier = property.elementID, !identifier.isEmpty else { continue }
            if identifiers[identifier] != 1 || (identifier != property.name && names.contains(identifier)) {
                return false
            }
        }
        return true
    }

    /// The mapping made by matching the two entities' properties one by one.
    private mutating func matchedMapping(
        from sourceEntity: Entity, to destinationEntity: Entity, provenance: Provenance
    )
        -> EntityMapping
    {
        problems = []
        if destinationEntity.isAbstract && !sourceEntity.isAbstract {
            problems.append(
                MappingProblem(
                    entity: destinationEntity.name, property: nil,
                    message:
                        "\(sourceEntity.name) objects would become objects of the abstract entity \(destinationEntity.name), which can have none; map them to a concrete entity with <entity source=\"\(sourceEntity.name)\" destination=\"…\"/>"
                ))
        }
        let attributes = attributeMappings(from: sourceEntity, to: destinationEntity)
        let relationships = relationshipMappings(from: sourceEntity, to: destinationEntity)
        let unchanged =
            provenance == .sameName
            && attributes.allSatisfy { $0.provenance == .sameName && $0.value?.text == "$source.\($0.destination)" }
            && keepsCompositeShapes(from: sourceEntity, to: destinationEntity)
            && relationships.allSatisfy { $0.provenance == .sameName }
            && source.attributes(of: sourceEntity).filter(\.isStored).count == attributes.count
        return EntityMapping(
            kind: unchanged ? .copy : .transform, source: sourceEntity.name, destination: destinationEntity.name,
            attributes: attributes, relationships: relationships, provenance: provenance, problems: problems)
    }

    /// Whether every composite attribute of the destination entity stores its values as the source attribute of
    /// the same name does (a copy then carries them as they are).
    private func keepsCompositeShapes(from sourceEntity: Entity, to destinationEntity: Entity) -> Bool {
        destination.attributes(of: destinationEntity).allSatisfy { attribute in
            guard attribute.type == .composite, let before = source.attribute(named: attribute.name, in: sourceEntity)
            else { return true }
            return destination.hasSameCompositeShape(attribute, as: before, in: source)
        }
    }

    // MARK: - Attributes

    private mutating func attributeMappings(from sourceEntity: Entity, to destinationEntity: Entity)
        -> [AttributeMapping]
    {
        let sourceAttributes = source.attributes(of: sourceEntity).filter(\.isStored)
        let destinationAttributes = destination.attributes(of: destinationEntity).filter(\.isStored)
        let matcher = ElementMatcher<Attribute, Attribute>(
            sources: sourceAttributes, name: \.name, elementID: \.elementID)
        let matches = matcher.match(destinationAttributes, name: \.name, elementID: \.elementID)
        return zip(destinationAttributes, matches).map { attribute, match in
            if let derivation = attribute.derivation {
                return derivedAttribute(attribute, derivation, from: match, in: destinationEntity)
            }
            guard let match else { return newAttribute(attribute, in: destinationEntity) }
            return carriedAttribute(attribute, from: match.source, provenance: match.provenance, in: destinationEntity)
        }
    }

    /// A derived attribute needs no value from the source: the store computes it. One that was derived the same
    /// way under the same name maps from itself (an entity left as it was is copied whole); a `now()` carries the
    /// time of a matched Date attribute.
    private mutating func derivedAttribute(
        _ attribute: Attribute, _ derivation: Derivation,
        from match: ElementMatcher<Attribute, Attribute>.Match?, in entity: Entity
    ) -> AttributeMapping {
        if let match, match.provenance == .sameName, match.source.derivation == derivation,
            match.source.type == attribute.type
        {
            return AttributeMapping(
                destination: attribute.name, value: ValueExpression("$source.\(attribute.name)"),
                sourceAttribute: attribute.name, provenance: .sameName)
        }
        if derivation.form == .now, let match, match.source.type == .date {
            return AttributeMapping(
                destination: attribute.name, value: ValueExpression("$source.\(match.source.name)"),
                sourceAttribute: match.source.name, provenance: match.provenance)
        }
        return AttributeMapping(destination: attribute.name, value: nil, provenance: .derived(derivation.text))
    }

    private mutating func newAttribute(_ attribute: Attribute, in entity: Entity) -> AttributeMapping {
        if let defaultValue = attribute.defaultValue {
            return AttributeMapping(destination: attribute.name, value: nil, provenance: .modelDefault(defaultValue))
        }
        if !attribute.isOptional {
            problems.append(
                MappingProblem(
                    entity: entity.name, property: attribute.name,
                    message: "\(attribute.type.rawValue) attribute is new and required, with no default value",
                    suggestion: "<attribute name=\"\(attribute.name)\" value=\"…\"/>", condition: .ifSourceObjectsExist)
            )
        }
        return AttributeMapping(destination: attribute.name, value: nil, provenance: .newAndEmpty)
    }

    private mutating func carriedAttribute(
        _ attribute: Attribute, from sourceAttribute: Attribute, provenance: Provenance, in entity: Entity
    ) -> AttributeMapping {
        let operand = "$source.\(sourceAttribute.name)"
        guard let expression = TypeConversion.lossless(from: sourceAttribute.type, to: attribute.type, operand: operand)
        else {
            let reason = TypeConversion.refusalReason(from: sourceAttribute.type, to: attribute.type)
            problems.append(
                MappingProblem(
                    entity: entity.name, property: attribute.name,
                    message:
                        "\(sourceAttribute.type.rawValue) → \(attribute.type.rawValue) cannot be inferred (\(reason))",
                    suggestion:
                        "<attribute name=\"\(attribute.name)\" value=\"\(TypeConversion.suggestedConversion(to: attribute.type, operand: operand))\"/>"
                ))
            return AttributeMapping(
                destination: attribute.name, value: nil, sourceAttribute: sourceAttribute.name, provenance: provenance)
        }
        if sourceAttribute.isOptional && !attribute.isOptional && attribute.defaultValue == nil {
            problems.append(
                MappingProblem(
                    entity: entity.name, property: attribute.name,
                    message:
                        "was optional and is now required with no default value, so objects where it is nil cannot be carried over",
                    suggestion: "<attribute name=\"\(attribute.name)\" value=\"\(operand) ?? …\"/>",
                    condition: .ifNil(sourceAttribute: sourceAttribute.name)))
        }
        if attribute.type == .composite, sourceAttribute.type == .composite,
            !destination.hasSameCompositeShape(attribute, as: sourceAttribute, in: source)
        {
            // The members change: each value is reshaped (CompositeReshape); what cannot be inferred for a member
            // is a problem of the attribute, naming the member.
            let (_, messages) = CompositeReshape.plan(from: sourceAttribute, in: source, to: attribute, in: destination)
            for message in messages {
                problems.append(
                    MappingProblem(
                        entity: entity.name, property: attribute.name, message: message,
                        condition: .ifSourceObjectsExist))
            }
        }
        var finalProvenance = provenance
        if sourceAttribute.type != attribute.type {
            finalProvenance = .widening(from: sourceAttribute.type, to: attribute.type)
        }
        return AttributeMapping(
            destination: attribute.name, value: ValueExpression(expression), sourceAttribute: sourceAttribute.name,
            provenance: finalProvenance)
    }

    // MARK: - Relationships

    private mutating func relationshipMappings(from sourceEntity: Entity, to destinationEntity: Entity)
        -> [RelationshipMapping]
    {
        let sourceRelationships = source.relationships(of: sourceEntity).filter { !$0.isTransient }
        let destinationRelationships = destination.relationships(of: destinationEntity).filter { !$0.isTransient }
        let matcher = ElementMatcher<Relationship, Relationship>(
            sources: sourceRelationships, name: \.name, elementID: \.elementID)
        let matches = matcher.match(destinationRelationships, name: \.name, elementID: \.elementID)
        return zip(destinationRelationships, matches).map { relationship, match in
            guard let match else {
                if relationship.requiresObjects {
                    problems.append(
                        MappingProblem(
                            entity: destinationEntity.name, property: relationship.name,
                            message:
                                "relationship is new and required, but there is nothing to fill it from; make it optional, or map it from an existing relationship with <relationship name=\"\(relationship.name)\" source=\"…\"/>",
                            condition: .ifSourceObjectsExist))
                }
                return RelationshipMapping(destination: relationship.name, source: nil, provenance: .newAndEmpty)
            }
            checkCompatibility(of: match.source, with: relationship, in: destinationEntity)
            return RelationshipMapping(
                destination: relationship.name, source: match.source.name, provenance: match.provenance)
        }
    }

    private mutating func checkCompatibility(
        of sourceRelationship: Relationship, with relationship: Relationship, in entity: Entity
    ) {
        if sourceRelationship.isToMany && !relationship.isToMany {
            problems.append(
                MappingProblem(
                    entity: entity.name, property: relationship.name,
                    message:
                        "was to-many and is now to-one; an object related to several objects cannot keep them all, so this cannot be inferred; keep it to-many, or rename it and add a new to-one relationship"
                ))
            return
        }
        guard let sourceDestination = sourceRelationship.destinationEntity,
            let carriedTo = destinationForSource[sourceDestination],
            let wanted = relationship.destinationEntity,
            let carriedEntity = destination.entity(named: carriedTo)
        else { return }
        if !destination.entity(carriedEntity, isKindOf: wanted) {
            problems.append(
                MappingProblem(
                    entity: entity.name, property: relationship.name,
                    message:
                        "pointed to \(sourceDestination), whose objects become \(carriedTo), but now points to \(wanted); the related objects cannot follow"
                ))
        }
    }
}
