import Foundation

extension Entity {
    /// Whether `other` defines the same entity: equal in everything but where each element is written
    /// (the same model file's entity, moved to other lines by edits elsewhere, is the same entity). A
    /// migration step leaves such an entity as it was when it also maps it to itself.
    func hasSameDefinition(as other: Entity) -> Bool {
        guard name == other.name, attributes.count == other.attributes.count,
            relationships.count == other.relationships.count
        else { return false }
        return withoutPositions == other.withoutPositions && namesAreSpelledAlike(as: other)
    }

    /// Whether the names that make tables and columns (the entity's, its parent's, its properties', its links'
    /// destinations and inverses) are the same scalars: Swift's `==` above takes `Café` and `Cafe`+U+0301 for one,
    /// a store's SQLite and Core Data take them for two (``SQLName/identical(_:_:)``).
    private func namesAreSpelledAlike(as other: Entity) -> Bool {
        return SQLName.identical(name, other.name) && spelledAlike(parentName, other.parentName)
            && zip(attributes, other.attributes).allSatisfy { SQLName.identical($0.name, $1.name) }
            && zip(relationships, other.relationships).allSatisfy { $0.namesAreSpelledAlike(as: $1) }
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
    /// A Composite attribute's members are defined outside the entity: they are compared too.
    package func hasSameDefinition(of entity: Entity, as other: Entity, in version: ModelVersion) -> Bool {
        if let mine = entityTexts[entity.name], mine == version.entityTexts[other.name] {
            return hasSameComposites(of: entity, as: other, in: version)
        }
        return entity.hasSameDefinition(as: other) && hasSameComposites(of: entity, as: other, in: version)
    }
}

/// What stands for an entity's text in its file: its length and two 64-bit hashes of it. A long history keeps
/// every version it plans, and keeping each file's text for this comparison alone held as many bytes as the
/// XML (6 MiB for 96 versions); two texts that differ and agree on all three by chance (about one in 2^128 for
/// texts of the same length) are not a risk a model's author runs.
struct EntityTextDigest: Sendable, Hashable {
    private let count: Int
    private let first: UInt64
    private let second: UInt64

    init(_ text: UnsafeRawBufferPointer) {
        count = text.count
        var plain = XXHash64()
        plain.update(text)
        first = plain.finish()
        // The second hash is of other bytes (one more in front), so the two do not fail together.
        var salted = XXHash64()
        withUnsafeBytes(of: UInt8(0x5A)) { salted.update($0) }
        salted.update(text)
        second = salted.finish()
    }
}

extension Relationship {
    /// Whether `other` defines the same relationship: equal in everything but where it is written.
    func hasSameDefinition(as other: Relationship) -> Bool {
        guard namesAreSpelledAlike(as: other) else { return false }
        var (mine, theirs) = (self, other)
        mine.source = .synthetic
        theirs.source = .synthetic
        return mine == theirs
    }

    /// Whether its name, destination and inverse are the same scalars (Swift's `==` takes canonically equivalent
    /// spellings for one; see ``SQLName/identical(_:_:)``).
    func namesAreSpelledAlike(as other: Relationship) -> Bool {
        return SQLName.identical(name, other.name) && spelledAlike(destinationEntity, other.destinationEntity)
            && spelledAlike(inverseName, other.inverseName) && spelledAlike(inverseEntity, other.inverseEntity)
    }
}

/// Whether two optional names are both absent or the same scalars (``SQLName/identical(_:_:)``).
private func spelledAlike(_ a: String?, _ b: String?) -> Bool {
    switch (a, b) {
    case (nil, nil): true
    case (let a?, let b?): SQLName.identical(a, b)
    default: false
    }
}
