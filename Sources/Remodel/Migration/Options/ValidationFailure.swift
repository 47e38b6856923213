/// One object that breaks a rule of the destination model after migration.
public struct ValidationFailure: Sendable, Hashable, CustomStringConvertible {
    /// The entity.
    public var entity: String
    /// The object's `_pk`, when the failure is about one object.
    public var primaryKey: Int64?
    /// The attribute or relationship, if any.
    public var property: String?
    /// The rule's id, such as `required` or `unique`.
    public var rule: String
    /// What is wrong.
    public var message: String

    /// Creates a failure.
    public init(entity: String, primaryKey: Int64?, property: String?, rule: String, message: String) {
        self.entity = entity
        self.primaryKey = primaryKey
        self.property = property
        self.rule = rule
        self.message = message
    }

    /// A failure of one of phase 3's own rules.
    init(entity: String, primaryKey: Int64?, property: String?, rule: MigrationRule, message: String) {
        self.init(entity: entity, primaryKey: primaryKey, property: property, rule: rule.rawValue, message: message)
    }

    /// `Person _pk 3 attribute "age": … [rule]`.
    public var description: String {
        var subject = entity
        if let primaryKey { subject += " _pk \(primaryKey)" }
        if let property { subject += " \"\(property)\"" }
        return "\(subject): \(message) [\(rule)]"
    }
}

/// Custom validation run in phase 3 on the migrated store (`main`, with the store it was built from as
/// `src`), before it replaces the original. Return the failures; an empty array means the data is fine.
///
/// For example:
/// ```swift
/// let noEmptyNames: CustomValidation = { store in
///     try store.rows("SELECT _pk FROM Person WHERE fullName = ''").map { row in
///         ValidationFailure(entity: "Person", primaryKey: row[0].integerValue, property: "fullName",
///                           rule: "non-empty", message: "the name is empty")
///     }
/// }
/// ```
public typealias CustomValidation = @Sendable (MigrationStepDatabase) throws -> [ValidationFailure]
