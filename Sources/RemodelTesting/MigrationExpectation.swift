/// What a test expects when one version's store is migrated to the head.
///
/// For example:
/// ```swift
/// var matrix = MigrationMatrix(model: "Models/Library.xcdatamodeld", mappings: "Mappings")
/// matrix.expectations["Library 2"] = .refused(containing: "unique")
/// ```
public enum MigrationExpectation: Sendable, Hashable, CustomStringConvertible {
    /// The migration succeeds, and the migrated store holds what the plan says.
    case migrates
    /// The migration is refused (a rule of a later version fails on the data); when `containing` is
    /// given, the reason must contain it.
    case refused(containing: String? = nil)
    /// The migration cannot be planned: a step needs a mapping file.
    case needsMapping

    public var description: String {
        switch self {
        case .migrates: return "migrates"
        case .refused(let text): return text.map { "is refused (\"\($0)\")" } ?? "is refused"
        case .needsMapping: return "needs a mapping"
        }
    }
}

/// One difference between a migrated store and its plan, or one assertion of the caller that failed.
public struct MigrationCheckFailure: Sendable, Hashable, CustomStringConvertible {
    /// The step, for differences the plan's mapping files make (`Library → Library 2`).
    public var step: String?
    /// The entity (at the head version, or at the step's destination).
    public var entity: String?
    /// The attribute or relationship.
    public var property: String?
    /// The object.
    public var primaryKey: Int64?
    /// What differs, and what the plan says.
    public var message: String

    /// Creates a failure.
    public init(step: String? = nil, entity: String? = nil, property: String? = nil, primaryKey: Int64? = nil, message: String) {
        self.step = step
        self.entity = entity
        self.property = property
        self.primaryKey = primaryKey
        self.message = message
    }

    /// `Person _pk 3 "age": was 36, is null; the plan carries it unchanged`.
    public var description: String {
        var subject = entity ?? ""
        if let primaryKey { subject += " _pk \(primaryKey)" }
        if let property { subject += " \"\(property)\"" }
        let head = [step, subject.isEmpty ? nil : subject].compactMap { $0 }.joined(separator: ": ")
        return head.isEmpty ? message : "\(head): \(message)"
    }
}
