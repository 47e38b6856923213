/// What happens to the destination when the source object is deleted.
public enum DeletionRule: String, Sendable, Hashable, CaseIterable, Codable {
    case nullify = "Nullify"
    case cascade = "Cascade"
    case deny = "Deny"
    case noAction = "No Action"
}

/// A relationship from one entity to another.
public struct Relationship: Sendable, Hashable {
    /// What the value is made of, in one `CopyOnWrite` box.
    private struct Fields: Hashable, Sendable {
        var name: String
        var destinationEntity: String?
        var inverseName: String?
        var inverseEntity: String?
        var isOptional: Bool
        var isToMany: Bool
        var isOrdered: Bool
        var deletionRuleName: String?
        var minCount: Int?
        var maxCount: Int?
        var isTransient: Bool
        var elementID: String?
        var versionHashModifier: String?
        var userInfo: [String: String]
        var source: ElementSource
    }

    private var fields: CopyOnWrite<Fields>

    /// The relationship's name, which is also its column or join-table name.
    public var name: String {
        get { fields.value.name }
        _modify { yield &fields.value.name }
    }
    /// The entity the relationship points to, as written.
    public var destinationEntity: String? {
        get { fields.value.destinationEntity }
        _modify { yield &fields.value.destinationEntity }
    }
    /// The inverse relationship's name, if any.
    public var inverseName: String? {
        get { fields.value.inverseName }
        _modify { yield &fields.value.inverseName }
    }
    /// The entity the inverse belongs to, as written.
    public var inverseEntity: String? {
        get { fields.value.inverseEntity }
        _modify { yield &fields.value.inverseEntity }
    }
    /// Whether an empty relationship is allowed.
    public var isOptional: Bool {
        get { fields.value.isOptional }
        _modify { yield &fields.value.isOptional }
    }
    /// Whether the relationship holds many objects.
    public var isToMany: Bool {
        get { fields.value.isToMany }
        _modify { yield &fields.value.isToMany }
    }
    /// Whether a to-many relationship keeps its order.
    public var isOrdered: Bool {
        get { fields.value.isOrdered }
        _modify { yield &fields.value.isOrdered }
    }
    /// The deletion rule as written, `nil` when absent.
    public var deletionRuleName: String? {
        get { fields.value.deletionRuleName }
        _modify { yield &fields.value.deletionRuleName }
    }
    /// The smallest number of objects, when set.
    public var minCount: Int? {
        get { fields.value.minCount }
        _modify { yield &fields.value.minCount }
    }
    /// The largest number of objects, when set (to-one relationships have 1).
    public var maxCount: Int? {
        get { fields.value.maxCount }
        _modify { yield &fields.value.maxCount }
    }
    /// A transient relationship has no storage.
    public var isTransient: Bool {
        get { fields.value.isTransient }
        _modify { yield &fields.value.isTransient }
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
    /// Entries of `<userInfo>`.
    public var userInfo: [String: String] {
        get { fields.value.userInfo }
        _modify { yield &fields.value.userInfo }
    }
    /// Where the relationship is written.
    public var source: ElementSource {
        get { fields.value.source }
        _modify { yield &fields.value.source }
    }

    /// Creates a relationship.
    public init(
        name: String, destinationEntity: String?, inverseName: String? = nil,
        inverseEntity: String? = nil, isOptional: Bool = true, isToMany: Bool = false,
        isOrdered: Bool = false, deletionRuleName: String? = "Nullify", minCount: Int? = nil,
        maxCount: Int? = nil, isTransient: Bool = false, elementID: String? = nil,
        versionHashModifier: String? = nil, userInfo: [String: String] = [:],
        source: ElementSource = .synthetic
    ) {
        fields = CopyOnWrite(
            Fields(
                name: name,
                destinationEntity: destinationEntity,
                inverseName: inverseName,
                inverseEntity: inverseEntity,
                isOptional: isOptional,
                isToMany: isToMany,
                isOrdered: isOrdered,
                deletionRuleName: deletionRuleName,
                minCount: minCount,
                maxCount: maxCount,
                isTransient: isTransient,
                elementID: elementID,
                versionHashModifier: versionHashModifier,
                userInfo: userInfo,
                source: source))
    }

    /// Whether an object must be related to at least one object: a required
    /// to-one, or a to-many with a minimum count. (A required to-many with no
    /// minimum may be empty, as in Core Data.)
    public var requiresObjects: Bool {
        isToMany ? (minCount ?? 0) > 0 : !isOptional
    }

    /// The deletion rule, `nil` when absent or unknown.
    public var deletionRule: DeletionRule? { deletionRuleName.flatMap(DeletionRule.init(rawValue:)) }
}
