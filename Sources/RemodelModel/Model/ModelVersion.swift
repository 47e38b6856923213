/// A composite type (Xcode 15): a named group of attributes that a
/// `Composite` attribute stores together.
public struct Composite: Sendable, Hashable {
    /// The composite's name.
    public var name: String
    /// Its member attributes.
    public var attributes: [Attribute]
    /// Where it is written.
    public var source: ElementSource
}

/// A named configuration listing member entities (read and kept).
public struct Configuration: Sendable, Hashable {
    /// The configuration's name.
    public var name: String
    /// Names of its member entities.
    public var memberEntities: [String]
    /// Where it is written.
    public var source: ElementSource
    /// Where each `<memberEntity>` is written, in the order of ``memberEntities`` (empty for one made in code).
    public var memberSources: [ElementSource] = []

    /// `Default`: the configuration Xcode gives every model, holding every entity, which the model file never
    /// declares (a Core Data app that adds a store with it, or with no configuration, gets a store of every
    /// entity). ``ModelVersion/restricted(toConfiguration:)`` with this name is the whole version, unless the
    /// model declares a configuration of that name itself.
    public static let defaultName = "Default"
}

/// One version of a data model: the entities of one `.xcdatamodel/contents` file.
///
/// For example:
/// ```swift
/// let bundle = try ModelBundle(contentsOf: "Models/Library.xcdatamodeld")
/// let current = bundle.currentVersion
/// for entity in current.entities {
///     print(entity.name, current.attributes(of: entity).map(\.name))
/// }
/// ```
public struct ModelVersion: Sendable, Hashable {
    /// The version's name: the folder name without `.xcdatamodel`.
    public var name: String
    /// The `contents` file it was read from.
    public var path: String
    /// Entities in file order.
    public private(set) var entities: [Entity]
    /// Composite types.
    public var composites: [Composite]
    /// Configurations (kept, not interpreted).
    public var configurations: [Configuration]
    /// The `<model>` element.
    public var source: ElementSource
    /// The configuration this version holds the entities of (``restricted(toConfiguration:)``), `nil` for every
    /// entity.
    public internal(set) var configurationName: String?

    private var indexByName: [String: Int]
    /// The positions of each entity's direct sub-entities, in file order, by parent name.
    private var childrenByName: [String: [Int]]
    /// The version hash of every entity, by entity name (the recipe is in `VersionHash.swift`). Computed
    /// when first asked, then kept: recognising a store asks it of the store's version (of every version,
    /// for a store that records no version name), writing a store's metadata of its version; the versions
    /// a migration passes through never need it.
    public var entityHashes: [String: String] { hashes.get { computeEntityHashes() } }
    private let hashes = OnceValue<[String: String]>()
    /// What stands for each entity's text in the file it was read from, by name (none for a version made in
    /// code, or one that names two entities alike).
    var entityTexts: [String: EntityTextDigest] = [:]
    /// The elements of the file the reader does not interpret (``OtherElement``), for validate to name.
    package var otherElements: [OtherElement] = []

    /// Whether ``entityHashes`` was computed (tests).
    var hashesAreComputed: Bool { hashes.isComputed }

    /// Creates a version from its entities.
    public init(
        name: String, path: String = "<memory>", entities: [Entity], composites: [Composite] = [],
        configurations: [Configuration] = [], source: ElementSource = .synthetic
    ) {
        self.name = name
        self.path = path
        self.entities = entities
        self.composites = composites
        self.configurations = configurations
        self.source = source
        var index: [String: Int] = [:]
        for (position, entity) in entities.enumerated() where index[entity.name] == nil {
            index[entity.name] = position
        }
        self.indexByName = index
        var children: [String: [Int]] = [:]
        for (position, entity) in entities.enumerated() {
            // Under the parent's name only when an entity has it, byte for byte (SQLName.identical): the parent
            // `parent(of:)` finds.
            guard let parent = entity.parentName, !SQLName.identical(parent, entity.name),
                let found = index[parent], SQLName.identical(entities[found].name, parent)
            else { continue }
            children[parent, default: []].append(position)
        }
        self.childrenByName = children
    }

    /// Versions are equal when what they were made of is: the indexes and hashes follow from it.
    public static func == (lhs: ModelVersion, rhs: ModelVersion) -> Bool {
        lhs.name == rhs.name && lhs.path == rhs.path && lhs.entities == rhs.entities
            && lhs.composites == rhs.composites && lhs.configurations == rhs.configurations && lhs.source == rhs.source
            && lhs.configurationName == rhs.configurationName
    }

    public func hash(into hasher: inout Hasher) {
        hasher.combine(name)
        hasher.combine(path)
        hasher.combine(entities)
        hasher.combine(composites)
        hasher.combine(configurations)
        hasher.combine(source)
        hasher.combine(configurationName)
    }

    /// The entity with that name (the first, if the file repeats it). A name is its scalars, byte for byte
    /// (DESIGN.md, "Names"): `Cafe` with a combining acute accent does not find `Café` written with U+00E9, which
    /// Swift's `String` takes for the same text.
    public func entity(named name: String) -> Entity? {
        position(ofEntity: name).map { entities[$0] }
    }

    /// The position in ``entities`` of the entity with that name (the first, if the file repeats it).
    package func position(ofEntity name: String) -> Int? {
        guard let position = indexByName[name], SQLName.identical(entities[position].name, name) else { return nil }
        return position
    }

    /// The entity's parent, if it has one that exists.
    public func parent(of entity: Entity) -> Entity? {
        entity.parentName.flatMap { self.entity(named: $0) }
    }

    /// The entity's ancestors, nearest first; stops at a missing parent or a cycle.
    public func ancestors(of entity: Entity) -> [Entity] {
        guard entity.parentName != nil else { return [] }
        var result: [Entity] = []
        var seen: Set<String> = [entity.name]
        var current = parent(of: entity)
        while let next = current, seen.insert(next.name).inserted {
            result.append(next)
            current = parent(of: next)
        }
        return result
    }

    /// The root of the entity's hierarchy, whose name the store table carries.
    public func root(of entity: Entity) -> Entity {
        ancestors(of: entity).last ?? entity
    }

    /// Whether `entity` is `ancestor` or inherits from it.
    public func entity(_ entity: Entity, isKindOf ancestor: String) -> Bool {
        SQLName.identical(entity.name, ancestor)
            || (entity.parentName != nil && ancestors(of: entity).contains { SQLName.identical($0.name, ancestor) })
    }

    /// Direct sub-entities, in file order.
    public func subentities(of entity: Entity) -> [Entity] {
        (childrenByName[entity.name] ?? []).map { entities[$0] }
    }

    /// The entity and every entity that inherits from it, parents before children.
    public func hierarchy(of entity: Entity) -> [Entity] {
        guard childrenByName[entity.name] != nil else { return [entity] }
        return [entity] + descendantPositions(of: entity.name).map { entities[$0] }
    }

    /// The positions of every entity inheriting from the one named `name`, parents before children, each once
    /// (a cycle stops where it comes back).
    func descendantPositions(of name: String) -> [Int] {
        guard childrenByName[name] != nil else { return [] }
        var result: [Int] = []
        var parents = [name]
        var seen: Set<String> = [name]
        var next = 0
        while next < parents.count {
            for child in childrenByName[parents[next]] ?? [] where seen.insert(entities[child].name).inserted {
                result.append(child)
                parents.append(entities[child].name)
            }
            next += 1
        }
        return result
    }

    /// Entities that have no parent (or whose parent is missing): one store table each.
    public var rootEntities: [Entity] { rootPositions.map { entities[$0] } }

    /// Every attribute of the entity, inherited ones first, as Core Data resolves them.
    public func attributes(of entity: Entity) -> [Attribute] {
        guard entity.parentName != nil else { return entity.attributes }
        return (ancestors(of: entity).reversed() + [entity]).flatMap(\.attributes)
    }

    /// Every relationship of the entity, inherited ones first.
    public func relationships(of entity: Entity) -> [Relationship] {
        guard entity.parentName != nil else { return entity.relationships }
        return (ancestors(of: entity).reversed() + [entity]).flatMap(\.relationships)
    }

    /// The attribute with that name, declared by the entity or inherited.
    public func attribute(named name: String, in entity: Entity) -> Attribute? {
        guard entity.parentName != nil else { return entity.attribute(named: name) }
        return attributes(of: entity).first { SQLName.identical($0.name, name) }
    }

    /// The relationship with that name, declared by the entity or inherited.
    public func relationship(named name: String, in entity: Entity) -> Relationship? {
        guard entity.parentName != nil else { return entity.relationship(named: name) }
        return relationships(of: entity).first { SQLName.identical($0.name, name) }
    }

    /// The inverse of a relationship, if it names one that exists.
    public func inverse(of relationship: Relationship) -> Relationship? {
        guard let inverseName = relationship.inverseName,
            let destinationName = relationship.destinationEntity,
            let destination = self.entity(named: destinationName)
        else { return nil }
        return self.relationship(named: inverseName, in: destination)
    }

    /// The inverse of a relationship of `entity`, when the two name each other: the inverse names this
    /// relationship back, and its destination is `entity` or an entity of the same line of inheritance.
    /// An inverse naming a third relationship (Xcode builds such models) does not pair up.
    public func pairedInverse(of relationship: Relationship, in entity: Entity) -> Relationship? {
        guard let inverse = inverse(of: relationship), inverse.inverseName == relationship.name,
            let target = inverse.destinationEntity.flatMap(self.entity(named:)),
            self.entity(entity, isKindOf: target.name) || self.entity(target, isKindOf: entity.name)
        else { return nil }
        return inverse
    }

    /// The entity that declares a relationship (itself or an ancestor of `entity`).
    public func declaringEntity(of relationship: Relationship, in entity: Entity) -> Entity {
        // An entity without a parent is the answer whether it declares the relationship or not: not searched.
        guard entity.parentName != nil else { return entity }
        return ([entity] + ancestors(of: entity)).first { $0.relationships.contains(relationship) } ?? entity
    }

    /// The composite with that name.
    public func composite(named name: String) -> Composite? { composites.first { $0.name == name } }
}

extension ModelVersion {
    /// Takes every element record's attributes from `pool` (see `ElementSourcePool`).
    mutating func shareSources(in pool: ElementSourcePool) {
        source = source.shared(in: pool)
        for index in entities.indices { entities[index].shareSources(in: pool) }
        for index in composites.indices {
            composites[index].source = composites[index].source.shared(in: pool)
            for member in composites[index].attributes.indices {
                composites[index].attributes[member].source = composites[index].attributes[member].source.shared(
                    in: pool)
            }
        }
        for index in configurations.indices {
            configurations[index].source = configurations[index].source.shared(in: pool)
            configurations[index].memberSources = configurations[index].memberSources.map { $0.shared(in: pool) }
        }
    }
}

extension Entity {
    fileprivate mutating func shareSources(in pool: ElementSourcePool) {
        source = source.shared(in: pool)
        for index in attributes.indices { attributes[index].source = attributes[index].source.shared(in: pool) }
        for index in relationships.indices {
            relationships[index].source = relationships[index].source.shared(in: pool)
        }
        for index in fetchedProperties.indices {
            fetchedProperties[index].source = fetchedProperties[index].source.shared(in: pool)
        }
        for index in uniquenessConstraints.indices {
            uniquenessConstraints[index].source = uniquenessConstraints[index].source.shared(in: pool)
            uniquenessConstraints[index].sources = uniquenessConstraints[index].sources.map { $0.shared(in: pool) }
        }
        for index in fetchIndexes.indices {
            fetchIndexes[index].source = fetchIndexes[index].source.shared(in: pool)
            for element in fetchIndexes[index].elements.indices {
                fetchIndexes[index].elements[element].source =
                    fetchIndexes[index].elements[element].source.shared(in: pool)
            }
        }
    }
}
