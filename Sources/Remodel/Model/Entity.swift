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
    /// What the value is made of, in one `CopyOnWrite` box.
    private struct Fields: Hashable, Sendable {
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

    private var fields: CopyOnWrite<Fields>

    /// The entity's name; the table of a hierarchy is named after its root entity.
    public var name: String {
        get { fields.value.name }
        _modify { yield &fields.value.name }
    }
    /// The class Xcode generates, kept but not used for storage.
    public var className: String? {
        get { fields.value.className }
        _modify { yield &fields.value.className }
    }
    /// The parent entity's name, if any.
    public var parentName: String? {
        get { fields.value.parentName }
        _modify { yield &fields.value.parentName }
    }
    /// Whether the entity has no instances of its own.
    public var isAbstract: Bool {
        get { fields.value.isAbstract }
        _modify { yield &fields.value.isAbstract }
    }
    /// The renaming identifier.
    public var elementID: String? {
        get { fields.value.elementID }
        _modify { yield &fields.value.elementID }
    }
    /// Changes the version hash without changing anything else.
    public var versionHashModifier: String? {
        get { fields.value.versionHashModifier }
        _modify { yield &fields.value.versionHashModifier }
    }
    /// Attributes this entity declares itself, in file order.
    public var attributes: [Attribute] {
        get { fields.value.attributes }
        _modify { yield &fields.value.attributes }
    }
    /// Relationships this entity declares itself, in file order.
    public var relationships: [Relationship] {
        get { fields.value.relationships }
        _modify { yield &fields.value.relationships }
    }
    /// Fetched properties this entity declares (kept, not stored).
    public var fetchedProperties: [FetchedProperty] {
        get { fields.value.fetchedProperties }
        _modify { yield &fields.value.fetchedProperties }
    }
    /// Uniqueness constraints.
    public var uniquenessConstraints: [UniquenessConstraint] {
        get { fields.value.uniquenessConstraints }
        _modify { yield &fields.value.uniquenessConstraints }
    }
    /// Fetch indexes.
    public var fetchIndexes: [FetchIndex] {
        get { fields.value.fetchIndexes }
        _modify { yield &fields.value.fetchIndexes }
    }
    /// Entries of `<userInfo>`.
    public var userInfo: [String: String] {
        get { fields.value.userInfo }
        _modify { yield &fields.value.userInfo }
    }
    /// Where the entity is written.
    public var source: ElementSource {
        get { fields.value.source }
        _modify { yield &fields.value.source }
    }

    /// Creates an entity.
    public init(
        name: String, className: String? = nil, parentName: String? = nil, isAbstract: Bool = false,
        elementID: String? = nil, versionHashModifier: String? = nil, attributes: [Attribute] = [],
        relationships: [Relationship] = [], fetchedProperties: [FetchedProperty] = [],
        uniquenessConstraints: [UniquenessConstraint] = [], fetchIndexes: [FetchIndex] = [],
        userInfo: [String: String] = [:], source: ElementSource = .synthetic
    ) {
        fields = CopyOnWrite(
            Fields(
                name: name, className: className, parentName: parentName, isAbstract: isAbstract, elementID: elementID,
                versionHashModifier: versionHashModifier, attributes: attributes, relationships: relationships,
                fetchedProperties: fetchedProperties, uniquenessConstraints: uniquenessConstraints,
                fetchIndexes: fetchIndexes, userInfo: userInfo, source: source))
    }

    /// The attribute this entity declares with that name.
    public func attribute(named name: String) -> Attribute? { attributes.first { SQLName.identical($0.name, name) } }

    /// The relationship this entity declares with that name.
    public func relationship(named name: String) -> Relationship? {
        relationships.first { SQLName.identical($0.name, name) }
    }
}
