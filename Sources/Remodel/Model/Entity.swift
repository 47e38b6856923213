/// An index an entity asks for: Xcode's `<fetchIndex>` or older `<compoundIndex>`.
public struct FetchIndex: Sendable, Hashable {
    /// One property of the index.
    public struct Element: Sendable, Hashable {
        /// The property the index covers.
        public var property: String
        /// Whether the index sorts ascending.
        public var ascending: Bool
        /// Where the element is written.
        public var source: ElementSource

        /// Creates an index element.
        public init(property: String, ascending: Bool = true, source: ElementSource = .synthetic) {
            self.property = property
            self.ascending = ascending
            self.source = source
        }
    }

    /// The index's name (generated for `<compoundIndex>`, which has none).
    public var name: String
    /// The properties, in order.
    public var elements: [Element]
    /// Where the index is written.
    public var source: ElementSource

    /// Creates an index.
    public init(name: String, elements: [Element], source: ElementSource = .synthetic) {
        self.name = name
        self.elements = elements
        self.source = source
    }
}

/// A set of properties whose values together must be unique.
public struct UniquenessConstraint: Sendable, Hashable {
    /// The property names.
    public var properties: [String]
    /// Where each property name is written, in the same order.
    public var sources: [ElementSource]
    /// Where the constraint is written.
    public var source: ElementSource

    /// Creates a constraint.
    public init(properties: [String], sources: [ElementSource]? = nil, source: ElementSource = .synthetic) {
        self.properties = properties
        self.sources = sources ?? properties.map { _ in source }
        self.source = source
    }
}

/// A fetched property: read and kept, never stored.
public struct FetchedProperty: Sendable, Hashable {
    /// The property's name.
    public var name: String
    /// Where it is written.
    public var source: ElementSource
}

/// An entity of a model version, with only the properties it declares itself.
///
/// Inherited properties are resolved through ``ModelVersion``, which knows the parents.
public struct Entity: Sendable, Hashable {
    /// What an entity is made of, kept in one shared box: a copy of an entity (planning a long history reads
    /// entities out of every version, again and again) then retains one object instead of each of a dozen
    /// fields, and two copies of one entity compare equal without comparing their fields.
    private struct Fields: Hashable {
        var name: String
        var className: String?
        var parentName: String?
        var isAbstract: Bool
        var elementID: String?
        var versionHashModifier: String?
        var attributes: [Attribute]
        var relationships: [Relationship]
        var fetchedProperties: [FetchedProperty]
        var uniquenessConstraints: [UniquenessConstraint]
        var fetchIndexes: [FetchIndex]
        var userInfo: [String: String]
        var source: ElementSource
    }

    private final class Box: @unchecked Sendable {
        // Written only through an entity that holds the only reference (`unique`): copy on write.
        var fields: Fields
        init(_ fields: Fields) { self.fields = fields }
    }

    private var box: Box

    /// The fields to change: the box, copied first when another entity shares it.
    private var unique: Box {
        mutating get {
            if !isKnownUniquelyReferenced(&box) { box = Box(box.fields) }
            return box
        }
    }

    /// The entity's name; the table of a hierarchy is named after its root entity.
    public var name: String {
        get { box.fields.name }
        _modify { yield &unique.fields.name }
    }
    /// The class Xcode generates, kept but not used for storage.
    public var className: String? {
        get { box.fields.className }
        _modify { yield &unique.fields.className }
    }
    /// The parent entity's name, if any.
    public var parentName: String? {
        get { box.fields.parentName }
        _modify { yield &unique.fields.parentName }
    }
    /// Whether the entity has no instances of its own.
    public var isAbstract: Bool {
        get { box.fields.isAbstract }
        _modify { yield &unique.fields.isAbstract }
    }
    /// The renaming identifier.
    public var elementID: String? {
        get { box.fields.elementID }
        _modify { yield &unique.fields.elementID }
    }
    /// Changes the version hash without changing anything else.
    public var versionHashModifier: String? {
        get { box.fields.versionHashModifier }
        _modify { yield &unique.fields.versionHashModifier }
    }
    /// Attributes this entity declares itself, in file order.
    public var attributes: [Attribute] {
        get { box.fields.attributes }
        _modify { yield &unique.fields.attributes }
    }
    /// Relationships this entity declares itself, in file order.
    public var relationships: [Relationship] {
        get { box.fields.relationships }
        _modify { yield &unique.fields.relationships }
    }
    /// Fetched properties this entity declares (kept, not stored).
    public var fetchedProperties: [FetchedProperty] {
        get { box.fields.fetchedProperties }
        _modify { yield &unique.fields.fetchedProperties }
    }
    /// Uniqueness constraints.
    public var uniquenessConstraints: [UniquenessConstraint] {
        get { box.fields.uniquenessConstraints }
        _modify { yield &unique.fields.uniquenessConstraints }
    }
    /// Fetch indexes.
    public var fetchIndexes: [FetchIndex] {
        get { box.fields.fetchIndexes }
        _modify { yield &unique.fields.fetchIndexes }
    }
    /// Entries of `<userInfo>`.
    public var userInfo: [String: String] {
        get { box.fields.userInfo }
        _modify { yield &unique.fields.userInfo }
    }
    /// Where the entity is written.
    public var source: ElementSource {
        get { box.fields.source }
        _modify { yield &unique.fields.source }
    }

    /// Creates an entity.
    public init(
        name: String, className: String? = nil, parentName: String? = nil, isAbstract: Bool = false,
        elementID: String? = nil, versionHashModifier: String? = nil, attributes: [Attribute] = [],
        relationships: [Relationship] = [], fetchedProperties: [FetchedProperty] = [],
        uniquenessConstraints: [UniquenessConstraint] = [], fetchIndexes: [FetchIndex] = [],
        userInfo: [String: String] = [:], source: ElementSource = .synthetic
    ) {
        box = Box(
            Fields(
                name: name, className: className, parentName: parentName, isAbstract: isAbstract, elementID: elementID,
                versionHashModifier: versionHashModifier, attributes: attributes, relationships: relationships,
                fetchedProperties: fetchedProperties, uniquenessConstraints: uniquenessConstraints,
                fetchIndexes: fetchIndexes, userInfo: userInfo, source: source))
    }

    public static func == (lhs: Entity, rhs: Entity) -> Bool {
        lhs.box === rhs.box || lhs.box.fields == rhs.box.fields
    }

    public func hash(into hasher: inout Hasher) { box.fields.hash(into: &hasher) }

    /// The attribute this entity declares with that name.
    public func attribute(named name: String) -> Attribute? { attributes.first { $0.name == name } }

    /// The relationship this entity declares with that name.
    public func relationship(named name: String) -> Relationship? { relationships.first { $0.name == name } }
}
