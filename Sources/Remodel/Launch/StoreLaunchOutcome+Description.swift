extension StoreLaunchOutcome: CustomStringConvertible {
    /// What the launch did, in a sentence: `The store was created at the current version.`, the migration's
    /// sentence, or why the store must be migrated first.
    public var description: String {
        switch self {
        case .created: return "There was no store: it was created at the current version."
        case .opened: return "The store was at the current version: it was opened as it was."
        case .migrated(let report): return report.description
        case .needsMigration(let inspection): return inspection.description
        }
    }
}
