import Remodel

/// Checks a migration against its plan, for the `RemodelTesting` library:
/// before the migration, data a mapping file discards that the next version
/// could keep (``planFindings()``); after it, the migrated store against a copy
/// of the original (``compare(before:after:)``).
struct MigrationVerifier {
    private let plan: MigrationPlan
    private let lineage: MigrationLineage?
    private let policies: Set<String>
    private let hasHooks: Bool
    private let intended: Set<String>

    /// - Parameters:
    ///   - plan: The migration's plan (``Migrator/plan(storeAt:)``).
    ///   - options: The options it runs with: policies and hooks change what can be compared.
    ///   - intended: Changes on purpose, as `Entity` or `Entity.property` (at any version): not reported.
    init(bundle: ModelBundle, plan: MigrationPlan, options: MigrationOptions, intended: Set<String>) {
        self.plan = plan
        policies = Set(options.policies.map(\.destination))
        hasHooks = options.hooks.beforeStep != nil || options.hooks.afterStep != nil
        self.intended = intended
        if let source = bundle.version(named: plan.sourceVersion), let head = bundle.version(named: plan.targetVersion)
        {
            lineage = MigrationLineage(plan: plan, source: source, head: head, policies: policies)
        } else {
            lineage = nil
        }
    }

    /// Data the plan's mapping files discard though the next version still has room for it.
    func planFindings() -> [MigrationCheckFailure] {
        MappingDrops.findings(in: plan, intended: intended, policies: policies)
    }

    /// What the migrated store at `after` holds that the plan does not say, compared with `before`, a copy
    /// of the store as it was.
    /// - Throws: ``RemodelError`` when a store cannot be read.
    func compare(before: String, after: String) throws(RemodelError) -> [MigrationCheckFailure] {
        guard let lineage else { return [] }
        let connection = try SQLiteConnection(path: after, mode: .readOnly)
        try connection.attach(path: before, as: "before", readOnly: true)
        return try StoreComparison(
            lineage: lineage, connection: connection, objectsMayBeAdded: hasHooks, intended: intended
        ).findings()
    }

    /// Entities whose objects the plan drops on purpose (the model removes them), with the step that does.
    var droppedEntities: [(entity: String, step: String)] {
        lineage?.streams.compactMap { stream in stream.droppedBy.map { (stream.sourceEntity, $0) } } ?? []
    }
}
