import Foundation

extension Entity {
    /// Whether `other` defines the same entity: equal in everything but where each element is written
    /// (the same model file's entity, moved to other lines by edits elsewhere, is the same entity). A
    /// migration step leaves such an entity as it was when it also maps it to itself.
    func hasSameDefinition(as other: Entity) -> Bool {
        guard name == other.name, attributes.count == other.attributes.count,
            relationships.count == other.relationships.count
        else { return false }
        return withoutPositions == other.withoutPositions
    }

    /// The entity with every element's position blanked out, what ``hasSameDefinition(as:)`` compares.
    private var withoutPositions: Entity {
        var entity = self
        entity.source = .synthetic
        entity.attributes = attributes.map { attribute in
            var blank = attribute
            blank.source = .synthetic
            return blank
        }
        entity.relationships = relationships.map { relationship in
            var blank = relationship
            blank.source = .synthetic
            return blank
        }
        entity.fetchedProperties = fetchedProperties.map { FetchedProperty(name: $0.name, source: .synthetic) }
        entity.uniquenessConstraints = uniquenessConstraints.map { UniquenessConstraint(properties: $0.properties) }
        entity.fetchIndexes = fetchIndexes.map { index in
            FetchIndex(
                name: index.name,
                elements: index.elements.map { FetchIndex.Element(property: $0.property, ascending: $0.ascending) })
        }
        return entity
    }
}

extension ModelVersion {
    /// Whether `entity` of this version and `other` of `version` define the same entity
    /// (``Entity/hasSameDefinition(as:)``), answered without comparing them field by field when both were read
    /// from files and their texts there are the same: the same text reads as the same entity.
    func hasSameDefinition(of entity: Entity, as other: Entity, in version: ModelVersion) -> Bool {
        if let mine = entityTexts[entity.name], let theirs = version.entityTexts[other.name], Self.same(mine, theirs) {
            return true
        }
        return entity.hasSameDefinition(as: other)
    }

    /// Whether two texts are the same bytes.
    private static func same(_ first: ArraySlice<UInt8>, _ second: ArraySlice<UInt8>) -> Bool {
        guard first.count == second.count else { return false }
        return first.withUnsafeBytes { a in
            second.withUnsafeBytes { b in
                guard let left = a.baseAddress, let right = b.baseAddress else { return a.count == b.count }
                return memcmp(left, right, a.count) == 0
            }
        }
    }
}
