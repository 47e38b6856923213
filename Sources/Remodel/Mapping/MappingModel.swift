/// An expression that computes a destination value from the source object,
/// as text in the value-expression language, with where it was written.
public struct ValueExpression: Sendable, Hashable, CustomStringConvertible {
    /// The expression, such as `$source.firstName + ' ' + $source.lastName`.
    public var text: String
    /// Where the expression text starts in a mapping file; `nil` when inferred.
    public var location: SourceLocation?
    /// The XML text as written (with entity references), to map offsets back to columns.
    var rawText: String?
    /// Where the parts came from, when the expression was translated from an Xcode mapping model.
    var origin: ExpressionOrigin?

    /// Creates an expression.
    public init(_ text: String, location: SourceLocation? = nil) {
        self.text = text
        self.location = location
        self.rawText = nil
        self.origin = nil
    }

    public var description: String { text }
}

/// Where one destination attribute's value comes from.
public struct AttributeMapping: Sendable, Hashable {
    /// The destination attribute's name.
    public var destination: String
    /// The expression computing it; `nil` means the attribute starts empty (`nil`).
    public var value: ValueExpression?
    /// The source attribute it is taken from, when it is a plain copy or conversion of one.
    public var sourceAttribute: String?
    /// Why.
    public var provenance: Provenance

    /// Creates an attribute mapping.
    public init(destination: String, value: ValueExpression?, sourceAttribute: String? = nil, provenance: Provenance) {
        self.destination = destination
        self.value = value
        self.sourceAttribute = sourceAttribute
        self.provenance = provenance
    }
}

/// Where one destination relationship's objects come from.
public struct RelationshipMapping: Sendable, Hashable {
    /// The destination relationship's name.
    public var destination: String
    /// The source relationship it is rebuilt from; `nil` means it starts empty; ``sourceObject``
    /// (`$source`) links each destination object to the object made from its own source object.
    public var source: String?

    /// The `source` that reads the source object itself, not one of its relationships: an entity split in
    /// two (Blog into Blog and BlogSettings) links each new BlogSettings to the Blog made from the same
    /// source object, as Xcode's `FUNCTION($manager, "destinationInstancesForEntityMappingNamed:sourceInstances:", "BlogToBlog", $source)`.
    ///
    /// For example:
    /// ```swift
    /// let link = RelationshipMapping(destination: "blog", source: RelationshipMapping.sourceObject, provenance: .newAndEmpty)
    /// ```
    public static let sourceObject = "$source"

    /// Whether the relationship links to the objects made from the source object itself (``sourceObject``).
    public var readsSourceObject: Bool { source == Self.sourceObject }
    /// Why.
    public var provenance: Provenance

    /// Creates a relationship mapping.
    public init(destination: String, source: String?, provenance: Provenance) {
        self.destination = destination
        self.source = source
        self.provenance = provenance
    }
}

/// How the objects of one source entity become objects of one destination entity.
public struct EntityMapping: Sendable, Hashable {
    /// What the mapping does.
    public enum Kind: String, Sendable, Hashable {
        /// Same entity, every value copied as it is.
        case copy
        /// Objects carried over with at least one value computed, renamed or converted.
        case transform
        /// A destination entity with no source: it starts empty.
        case add
        /// A source entity with no destination: its objects are dropped.
        case remove
    }

    /// What the mapping does.
    public var kind: Kind
    /// The source entity's name (nil for `add`).
    public var source: String?
    /// The destination entity's name (nil for `remove`).
    public var destination: String?
    /// Only source objects for which this is true are carried over.
    public var filter: ValueExpression?
    /// One mapping per stored destination attribute, in destination order.
    public var attributes: [AttributeMapping]
    /// One mapping per stored destination relationship, in destination order.
    public var relationships: [RelationshipMapping]
    /// Why the entities were matched.
    public var provenance: Provenance
    /// What this mapping cannot do by itself; a mapping with problems cannot run.
    public var problems: [MappingProblem]
    /// The Swift code it needs, when an Xcode mapping model names a migration policy class for it.
    public var policy: PolicyRequirement?

    /// Creates an entity mapping.
    public init(
        kind: Kind, source: String?, destination: String?, filter: ValueExpression? = nil,
        attributes: [AttributeMapping] = [], relationships: [RelationshipMapping] = [], provenance: Provenance,
        problems: [MappingProblem] = []
    ) {
        self.problems = problems
        self.kind = kind
        self.source = source
        self.destination = destination
        self.filter = filter
        self.attributes = attributes
        self.relationships = relationships
        self.provenance = provenance
    }

    /// The attribute mapping for a destination attribute.
    public func attribute(_ name: String) -> AttributeMapping? { attributes.first { $0.destination == name } }

    /// The relationship mapping for a destination relationship.
    public func relationship(_ name: String) -> RelationshipMapping? { relationships.first { $0.destination == name } }
}

/// Something a mapping cannot do by itself, with what to write to fix it.
public struct MappingProblem: Sendable, Hashable, CustomStringConvertible {
    /// The destination (or, for removals, source) entity.
    public var entity: String
    /// The property, if the problem is about one.
    public var property: String?
    /// What is wrong.
    public var message: String
    /// What to add to a mapping file, if there is an obvious line to write.
    public var suggestion: String?
    /// When the problem matters for a given store.
    public var condition: Condition

    /// When a problem stops the migration of a store.
    public enum Condition: Sendable, Hashable {
        /// Whatever the store holds.
        case always
        /// Only when the store has objects of the mapping's source entity.
        case ifSourceObjectsExist
        /// Only when an object of the source entity has no value for this source attribute.
        case ifNil(sourceAttribute: String)
    }

    /// Creates a problem.
    public init(
        entity: String, property: String?, message: String, suggestion: String? = nil, condition: Condition = .always
    ) {
        self.entity = entity
        self.property = property
        self.message = message
        self.suggestion = suggestion
        self.condition = condition
    }

    /// The problem in one sentence, with the suggestion.
    public var description: String {
        let subject = property.map { "\(entity).\($0)" } ?? entity
        let fix = suggestion.map { "; add to a mapping file: \($0)" } ?? ""
        return "\(subject): \(message)\(fix)"
    }
}

/// The mapping for one migration step between two versions of a model.
///
/// For example:
/// ```swift
/// let mapping = try MappingInference.infer(bundle: bundle, from: "Library 2", to: "Library 3")
/// for entity in mapping.entities { print(entity.kind, entity.source ?? "-", "→", entity.destination ?? "-") }
/// ```
public struct MappingModel: Sendable, Hashable {
    /// The model's name.
    public var modelName: String
    /// The version migrated from.
    public var sourceVersion: String
    /// The version migrated to.
    public var destinationVersion: String
    /// Entity mappings: carried-over and removed source entities in source order, then added ones.
    public var entities: [EntityMapping]
    /// The mapping files merged into this mapping.
    public var files: [String]

    /// Creates a mapping model.
    public init(
        modelName: String, sourceVersion: String, destinationVersion: String, entities: [EntityMapping],
        files: [String] = []
    ) {
        self.modelName = modelName
        self.sourceVersion = sourceVersion
        self.destinationVersion = destinationVersion
        self.entities = entities
        self.files = files
    }

    /// What cannot be inferred and has no explicit value, entity by entity. A mapping with problems cannot run.
    public var problems: [MappingProblem] { entities.flatMap(\.problems) }

    /// The mapping whose destination is that entity.
    public func mapping(toDestination name: String) -> EntityMapping? {
        entities.first { $0.destination == name }
    }

    /// The mapping whose source is that entity.
    public func mapping(fromSource name: String) -> EntityMapping? {
        entities.first { $0.source == name }
    }
}
