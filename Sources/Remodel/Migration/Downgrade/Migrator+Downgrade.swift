extension Migrator {
    /// The plan for a store so inspected, read on `store`: a downgrade from the model it carries when it is
    /// newer and ``MigrationOptions/downgrade`` allows one, else the plan from its version along the bundle.
    func plan(for inspection: StoreInspection, store: SQLiteConnection, countsLosses: Bool = true) throws(RemodelError)
        -> MigrationPlan
    {
        if case .newer = inspection.state, options.downgrade != .refuse {
            return try DowngradePlanner(bundle: bundle, options: options).plan(store: store, path: inspection.path)
        }
        return try makePlan(from: try Self.migratableVersion(inspection), store: store, countsLosses: countsLosses)
    }

    /// Throws unless a store so inspected can be migrated with these options (a newer store can, when a
    /// downgrade is allowed: whether it goes down is decided by its plan, under the lock).
    func checkMigratable(_ inspection: StoreInspection) throws(RemodelError) {
        if case .newer = inspection.state, options.downgrade != .refuse { return }
        _ = try Self.migratableVersion(inspection)
    }

    /// Whether the migration keeps the original as `<store>.remodel-backup`: when asked to, and always for a
    /// downgrade that may drop data (``DowngradePolicy/allowLoss``).
    func keepsBackup(_ plan: MigrationPlan) -> Bool {
        options.keepBackup || (plan.isDowngrade && options.downgrade == .allowLoss)
    }
}
