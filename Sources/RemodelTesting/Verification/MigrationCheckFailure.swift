import Remodel

/// Something a migration did that its plan does not say — an object lost, a
/// value changed, a link dropped, a mapping file discarding data the next
/// version still has room for — or an assertion of the caller that failed.
/// The `RemodelTesting` library reports these.
///
/// For example:
/// ```swift
/// for failure in result.failures {
///     print(failure) // Person _pk 3 "age": was 36, is NULL; the plan carries it unchanged
/// }
/// ```
public struct MigrationCheckFailure: Sendable, Hashable, CustomStringConvertible {
    /// The step, for what the plan's mapping files do (`Library → Library 2`).
    public var step: String?
    /// The entity (at the head version for data, at the step's destination for a mapping file).
    public var entity: String?
    /// The attribute or relationship.
    public var property: String?
    /// The object.
    public var primaryKey: Int64?
    /// What differs, and what the plan says.
    public var message: String

    /// Creates a failure.
    public init(
        step: String? = nil, entity: String? = nil, property: String? = nil, primaryKey: Int64? = nil, message: String
    ) {
        self.step = step
        self.entity = entity
        self.property = property
        self.primaryKey = primaryKey
        self.message = message
    }

    /// `Person _pk 3 "age": message`, after the step when there is one.
    public var description: String {
        var subject = entity ?? ""
        if let primaryKey { subject += " _pk \(primaryKey)" }
        if let property { subject += " \"\(property)\"" }
        let head = [step, subject.isEmpty ? nil : subject].compactMap { $0 }.joined(separator: ": ")
        return head.isEmpty ? message : "\(head): \(message)"
    }
}
