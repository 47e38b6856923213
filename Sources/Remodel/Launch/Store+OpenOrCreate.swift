extension Store {
    /// Opens the store an app needs at launch: creates it at the current version when there is none,
    /// opens it when it is current, and reports when it needs a migration.
    ///
    /// For example:
    /// ```swift
    /// let (store, outcome) = try Store.openOrCreate(at: userStorePath, bundle: bundle)
    /// if case .needsMigration(let inspection) = outcome { print(inspection.message) }
    /// ```
    /// - Parameters:
    ///   - path: The store file.
    ///   - bundle: The model; its current version is the one the app uses.
    /// - Returns: The store (nil when it needs a migration first) and what was found:
    ///   ``StoreLaunchOutcome/created``, ``StoreLaunchOutcome/opened`` or ``StoreLaunchOutcome/needsMigration(_:)``.
    /// - Throws: ``/RemodelModel/RemodelError`` with ``StoreInspection/refusal``'s code
    ///   (``/RemodelModel/RemodelError/Code/newerStore``, ``/RemodelModel/RemodelError/Code/otherModel``,
    ///   ``/RemodelModel/RemodelError/Code/notAStore``, ``/RemodelModel/RemodelError/Code/editedVersion``) when the
    ///   store cannot be opened; the file is left untouched.
    public static func openOrCreate(at path: String, bundle: ModelBundle) throws(RemodelError) -> (
        store: Store?, outcome: StoreLaunchOutcome
    ) {
        let inspection = try StoreInspector.inspect(path: path, bundle: bundle)
        switch inspection.state {
        case .missing:
            return (try create(at: path, bundle: bundle), .created)
        case .current:
            return (try open(at: path, bundle: bundle), .opened)
        case .older:
            return (nil, .needsMigration(inspection))
        default:
            throw inspection.refusal(or: .incompatibleStore, path: path)
        }
    }
}
