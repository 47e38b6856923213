/// The rules phase 3 checks, each with the id its failures carry (``ValidationFailure/rule``): one
/// definition, so that the validator, the check scope and the messages cannot disagree about a name.
enum MigrationRule: String, Sendable, CaseIterable {
    case required
    /// The value's storage class and, for integers, the attribute type's range.
    case type
    case minimum
    case maximum
    case regularExpression = "regular-expression"
    /// A link to an object that is not there, or not of the relationship's kind.
    case dangling
    case minimumCount = "minimum-count"
    case maximumCount = "maximum-count"
    case unique
    /// What SQLite's own check of the file found.
    case integrityCheck = "integrity-check"
    /// A foreign key the app declared whose parent row is missing.
    case foreignKeyCheck = "foreign-key-check"
    /// A caller's check that failed to run.
    case custom

    /// The rules of an attribute's value.
    static let attributeRules: Set<MigrationRule> = [.required, .type, .minimum, .maximum, .regularExpression]
    /// The rules of a relationship.
    static let relationshipRules: Set<MigrationRule> = [.required, .dangling, .minimumCount, .maximumCount]
}
