import Remodel

/// A rule of the model the seed generator could not satisfy, and what it did instead.
///
/// For example:
/// ```swift
/// for problem in SeedGenerator(version: version).plan(objects: 10).problems {
///     print(problem) // Item.owner: required to-one to Thing, … so no Item objects are generated
/// }
/// ```
public struct SeedProblem: Sendable, Hashable, CustomStringConvertible {
    /// The entity whose rule it is.
    public var entity: String
    /// The attribute or relationship, if the rule is about one.
    public var property: String?
    /// What could not be done and what the generator did instead.
    public var message: String

    /// Creates a problem.
    public init(entity: String, property: String?, message: String) {
        self.entity = entity
        self.property = property
        self.message = message
    }

    /// `Entity.property: message`.
    public var description: String {
        "\(property.map { "\(entity).\($0)" } ?? entity): \(message)"
    }
}

/// What the seed generator will write for a version: the number of objects of
/// each concrete entity, and the rules it could not satisfy.
public struct SeedPlan: Sendable, Hashable {
    /// Objects per concrete entity.
    public var counts: [String: Int]
    /// Rules the generator could not satisfy, in the order found.
    public var problems: [SeedProblem]

    /// Objects in all.
    public var objectCount: Int { counts.values.reduce(0, +) }
}
