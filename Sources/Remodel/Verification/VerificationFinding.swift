/// Something a migration did that its plan did not say: an object lost, a
/// value changed, a link dropped, or a mapping file discarding data that the
/// next version still has room for. Used by the `RemodelTesting` library.
package struct VerificationFinding: Sendable, Hashable, CustomStringConvertible {
    /// The step the finding is about (`Library → Library 2`), for findings about the plan.
    package var step: String?
    /// The entity (at the head version for data, at the step's destination for the plan).
    package var entity: String
    /// The attribute or relationship.
    package var property: String?
    /// The object.
    package var primaryKey: Int64?
    /// What happened and what the plan says.
    package var message: String

    package init(step: String? = nil, entity: String, property: String? = nil, primaryKey: Int64? = nil, message: String) {
        self.step = step
        self.entity = entity
        self.property = property
        self.primaryKey = primaryKey
        self.message = message
    }

    /// `Person _pk 3 "age": message`, after the step when there is one.
    package var description: String {
        var subject = entity
        if let primaryKey { subject += " _pk \(primaryKey)" }
        if let property { subject += " \"\(property)\"" }
        return (step.map { "\($0): " } ?? "") + subject + ": " + message
    }
}
