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
