/// What happens to the destination when the source object is deleted.
public enum DeletionRule: String, Sendable, Hashable, CaseIterable, Codable {
    case nullify = "Nullify"
    case cascade = "Cascade"
    case deny = "Deny"
    case noAction = "No Action"
}

/// A relationship from one entity to another.
public struct Relationship: Sendable, Hashable {
    /// The relationship's name, which is also its column or join-table name.
    public var name: String
    /// The entity the relationship points to, as written.
    public var destinationEntity: String?
    /// The inverse relationship's name, if any.
    public var inverseName: String?
    /// The entity the inverse belongs to, as written.
    public var inverseEntity: String?
    /// Whether an empty relationship is allowed.
    public var isOptional: Bool
    /// Whether the relationship holds many objects.
    public var isToMany: Bool
    /// Whether a to-many relationship keeps its order.
    public var isOrdered: Bool
    /// The deletion rule as written, `nil` when absent.
    public var deletionRuleName: String?
    /// The smallest number of objects, when set.
    public var minCount: Int?
    /// The largest number of objects, when set (to-one relationships have 1).
    public var maxCount: Int?
    /// A transient relationship has no storage.
    public var isTransient: Bool
    /// The renaming identifier.
    public var elementID: String?
    /// Changes the version hash without changing anything else.
    public var versionHashModifier: String?
    /// Entries of `<userInfo>`.
    public var userInfo: [String: String]
    /// Where the relationship is written.
    public var source: ElementSource

    /// Creates a relationship.
    public init(
        name: String, destinationEntity: String?, inverseName: String? = nil,
        inverseEntity: String? = nil, isOptional: Bool = true, isToMany: Bool = false,
        isOrdered: Bool = false, deletionRuleName: String? = "Nullify", minCount: Int? = nil,
        maxCount: Int? = nil, isTransient: Bool = false, elementID: String? = nil,
        versionHashModifier: String? = nil, userInfo: [String: String] = [:],
        source: ElementSource = .synthetic
    ) {
        self.name = name
        self.destinationEntity = destinationEntity
        self.inverseName = inverseName
        self.inverseEntity = inverseEntity
        self.isOptional = isOptional
        self.isToMany = isToMany
        self.isOrdered = isOrdered
        self.deletionRuleName = deletionRuleName
        self.minCount = minCount
        self.maxCount = maxCount
        self.isTransient = isTransient
        self.elementID = elementID
        self.versionHashModifier = versionHashModifier
        self.userInfo = userInfo
        self.source = source
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
