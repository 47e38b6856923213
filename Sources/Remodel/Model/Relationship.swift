/// What happens to the destination when the source object is deleted.
public enum DeletionRule: String, Sendable, Hashable, CaseIterable, Codable {
    case nullify = "Nullify"
    case cascade = "Cascade"
    case deny = "Deny"
    case noAction = "No Action"
}

/// A relationship from one entity to another.
public struct Relationship: Sendable, Hashable {
    /// What a relationship is made of, kept in one shared box: a copy (planning a long history reads the model's
    /// properties out of every version, again and again) then retains one object instead of each field, and two
    /// copies of one value compare equal without comparing their fields.
    private struct Fields: Hashable {
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

    private final class Box: @unchecked Sendable {
        // Written only through a value that holds the only reference (`unique`): copy on write.
        var fields: Fields
        init(_ fields: Fields) { self.fields = fields }
    }

    private var box: Box

    /// The fields to change: the box, copied first when another value shares it.
    private var unique: Box {
        mutating get {
            if !isKnownUniquelyReferenced(&box) { box = Box(box.fields) }
            return box
        }
    }

    /// The relationship's name, which is also its column or join-table name.
    public var name: String {
        get { box.fields.name }
        _modify { yield &unique.fields.name }
    }
    /// The entity the relationship points to, as written.
    public var destinationEntity: String? {
        get { box.fields.destinationEntity }
        _modify { yield &unique.fields.destinationEntity }
    }
    /// The inverse relationship's name, if any.
    public var inverseName: String? {
        get { box.fields.inverseName }
        _modify { yield &unique.fields.inverseName }
    }
    /// The entity the inverse belongs to, as written.
    public var inverseEntity: String? {
        get { box.fields.inverseEntity }
        _modify { yield &unique.fields.inverseEntity }
    }
    /// Whether an empty relationship is allowed.
    public var isOptional: Bool {
        get { box.fields.isOptional }
        _modify { yield &unique.fields.isOptional }
    }
    /// Whether the relationship holds many objects.
    public var isToMany: Bool {
        get { box.fields.isToMany }
        _modify { yield &unique.fields.isToMany }
    }
    /// Whether a to-many relationship keeps its order.
    public var isOrdered: Bool {
        get { box.fields.isOrdered }
        _modify { yield &unique.fields.isOrdered }
    }
    /// The deletion rule as written, `nil` when absent.
    public var deletionRuleName: String? {
        get { box.fields.deletionRuleName }
        _modify { yield &unique.fields.deletionRuleName }
    }
    /// The smallest number of objects, when set.
    public var minCount: Int? {
        get { box.fields.minCount }
        _modify { yield &unique.fields.minCount }
    }
    /// The largest number of objects, when set (to-one relationships have 1).
    public var maxCount: Int? {
        get { box.fields.maxCount }
        _modify { yield &unique.fields.maxCount }
    }
    /// A transient relationship has no storage.
    public var isTransient: Bool {
        get { box.fields.isTransient }
        _modify { yield &unique.fields.isTransient }
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
    /// Entries of `<userInfo>`.
    public var userInfo: [String: String] {
        get { box.fields.userInfo }
        _modify { yield &unique.fields.userInfo }
    }
    /// Where the relationship is written.
    public var source: ElementSource {
        get { box.fields.source }
        _modify { yield &unique.fields.source }
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
        box = Box(
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

    public static func == (lhs: Relationship, rhs: Relationship) -> Bool {
        lhs.box === rhs.box || lhs.box.fields == rhs.box.fields
    }

    public func hash(into hasher: inout Hasher) { box.fields.hash(into: &hasher) }

    /// Whether an object must be related to at least one object: a required
    /// to-one, or a to-many with a minimum count. (A required to-many with no
    /// minimum may be empty, as in Core Data.)
    public var requiresObjects: Bool {
        isToMany ? (minCount ?? 0) > 0 : !isOptional
    }

    /// The deletion rule, `nil` when absent or unknown.
    public var deletionRule: DeletionRule? { deletionRuleName.flatMap(DeletionRule.init(rawValue:)) }
}
