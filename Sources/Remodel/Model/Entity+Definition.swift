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
