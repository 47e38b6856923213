/// Why a mapping decision was made: inferred from the two model versions, or
/// written in a mapping file.
public enum Provenance: Sendable, Hashable, CustomStringConvertible {
    /// Matched by the same name in both versions.
    case sameName
    /// Matched through a renaming identifier: the destination's `elementID` names the source element.
    case renamingIdentifier(from: String)
    /// Matched (by name or renaming identifier) and converted losslessly.
    case widening(from: AttributeType, to: AttributeType)
    /// A new or newly required attribute filled from the destination model's default value.
    case modelDefault(String)
    /// A new element that starts empty (`nil`, or no related objects).
    case newAndEmpty
    /// A source element with no destination: its data is dropped.
    case removed
    /// Written in a mapping file.
    case explicit(SourceLocation)
    /// A derived attribute: the store computes it (the derivation as Remodel writes it, such as `books.@count`);
    /// for `now()`, the time of the migration where no time is carried.
    case derived(String)

    /// A short phrase for listings, such as `inferred: renamed from yearsSinceBirth`.
    public var description: String {
        switch self {
        case .sameName: return "inferred: same name"
        case .renamingIdentifier(let name): return "inferred: renamed from \(name) (renaming identifier)"
        case .widening(let from, let to): return "inferred: widened \(from.rawValue) → \(to.rawValue)"
        case .modelDefault(let value): return "inferred: model default \"\(value)\""
        case .newAndEmpty: return "inferred: new, starts empty"
        case .removed: return "inferred: removed, data dropped"
        case .explicit(let location): return "mapping file \(location)"
        case .derived(let derivation): return "derived: computed by the store (\(derivation))"
        }
    }

    /// Whether the decision came from a mapping file.
    public var isExplicit: Bool {
        if case .explicit = self { return true }
        return false
    }
}
