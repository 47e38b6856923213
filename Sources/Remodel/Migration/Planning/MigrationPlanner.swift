/// Plans a migration along a bundle's version order, before any write.
public enum MigrationPlanner {
    /// Plans the steps from `source` to `target` (default: the current version).
    ///
    /// Each step uses the mapping file for its pair when there is one (merged
    /// over inference), else inference; a mapping file that spans several
    /// versions replaces those steps. Steps are never skipped otherwise, so a
    /// property removed in one version and added again in a later one arrives
    /// empty. The plan's ``MigrationPlan/losses`` name what each step drops, not
    /// counted (no store is read).
    ///
    /// For example:
    /// ```swift
    /// let plan = try MigrationPlanner.plan(bundle: bundle, from: "Library", mappingsDirectory: "Mappings")
    /// ```
    /// - Throws: ``/RemodelModel/RemodelError`` with code ``/RemodelModel/RemodelError/Code/migrationNotPlannable``
    ///   listing every entity and property that cannot be migrated and what to write,
    ///   or ``/RemodelModel/RemodelError/Code/invalidMapping`` when a mapping file is wrong.
    public static func plan(
        bundle: ModelBundle, from source: String, to target: String? = nil, mappingsDirectory: String? = nil
    ) throws(RemodelError) -> MigrationPlan {
        // The one planning route: the migrator's, with every mapping type-checked, for no store in particular.
        let options = MigrationOptions(mappingsDirectory: mappingsDirectory, targetVersion: target)
        var plan = try MigrationPlanCache(bundle: bundle, options: options).plan(from: source, screen: nil)
        // What each step drops, counted on no store.
        plan.losses = plan.stepPlans.flatMap(\.losses)
        return plan
    }

    /// The steps from `source` to `target`, their mappings' problems not yet screened against a store
    /// nor refused: what every store at `source` shares.
    static func draft(
        bundle: ModelBundle, from source: String, to target: String?, catalog: MappingCatalog
    ) throws(RemodelError) -> MigrationPlan {
        if let error = catalog.diagnostics.first(where: { $0.severity == .error }) {
            let count = catalog.diagnostics.filter { $0.severity == .error }.count
            let more = count > 1 ? " (and \(count - 1) more; run `remodel validate`)" : ""
            throw RemodelError(.invalidMapping, error.message + more, location: error.location)
        }
        let targetName = target ?? bundle.currentVersion.name
        guard let start = bundle.index(ofVersion: source) else {
            throw bundle.unknownVersion(source, code: .migrationNotPlannable)
        }
        guard let end = bundle.index(ofVersion: targetName) else {
            throw bundle.unknownVersion(targetName, code: .migrationNotPlannable)
        }
        guard start <= end else {
            throw RemodelError(
                .migrationNotPlannable,
                "the store is at \(source), which comes after \(targetName) in the version order, so it was left untouched; to migrate it down, allow a downgrade (`--downgrade lossless`, which refuses to lose a stored value, or `allow-loss`, which keeps the original as a backup; MigrationOptions.downgrade)",
                path: bundle.path)
        }
        // Only the versions on the path are read: a bundle of many versions costs what the path costs.
        var steps: [MigrationStep] = []
        var index = start
        var copies: [String: EntityMapping] = [:]
        var memo = InferenceMemo()
        while index < end {
            var (next, mapping) = try nextStep(from: index, limit: end, bundle: bundle, catalog: catalog, memo: &memo)
            share(&mapping, with: &copies)
            steps.append(
                MigrationStep(
                    source: try bundle.loadVersion(named: bundle.versionNames[index]),
                    destination: try bundle.loadVersion(named: bundle.versionNames[next]), mapping: mapping))
            index = next
        }
        return MigrationPlan(modelName: bundle.name, sourceVersion: source, targetVersion: targetName, steps: steps)
    }

    /// Throws ``/RemodelModel/RemodelError/Code/migrationNotPlannable`` listing every problem left in the plan's
    /// mappings. When the first step was `screened` against a store, a later step's problems that depend on the data
    /// (a nil, an object to fill) are left to be screened when the step runs, on the data as it will see it
    /// then (earlier steps may fill those nils); only the others stop here.
    static func refuseProblems(of plan: MigrationPlan, bundle: ModelBundle, screened: Bool = false) throws(RemodelError)
    {
        let problems = plan.steps.enumerated().flatMap { offset, step in
            step.mapping.problems.filter { offset == 0 || !screened || $0.condition == .always }.map { (step, $0) }
        }
        guard !problems.isEmpty else { return }
        let lines = problems.map { step, problem in "\(step.source.name) → \(step.destination.name): \(problem)" }
        var error = RemodelError(
            .migrationNotPlannable,
            "cannot migrate \(bundle.name) from \(plan.sourceVersion) to \(plan.targetVersion):\n"
                + lines.joined(separator: "\n"),
            path: bundle.path)
        error.entity = problems.first?.1.entity
        error.property = problems.first?.1.property
        throw error
    }

    /// Gives each entity mapping of `mapping` that copies an entity as the step before copied it that step's
    /// value, whose storage (its property mappings and their names) the two then share: a long history copies
    /// most entities unchanged step after step, and a plan holds every step's mapping. `copies` holds the step
    /// before's copies by destination entity, and then this step's.
    private static func share(_ mapping: inout MappingModel, with copies: inout [String: EntityMapping]) {
        var next: [String: EntityMapping] = [:]
        for index in mapping.entities.indices where mapping.entities[index].kind == .copy {
            guard let name = mapping.entities[index].destination else { continue }
            if let known = copies[name], known == mapping.entities[index] { mapping.entities[index] = known }
            next[name] = mapping.entities[index]
        }
        copies = next
    }

    /// The furthest version a mapping file reaches from `index` (within `limit`), else the next version inferred.
    private static func nextStep(
        from index: Int, limit: Int, bundle: ModelBundle, catalog: MappingCatalog, memo: inout InferenceMemo
    ) throws(RemodelError) -> (Int, MappingModel) {
        let source = bundle.versionNames[index]
        for next in stride(from: limit, to: index, by: -1) {
            let pair = MappingCatalog.VersionPair(source: source, destination: bundle.versionNames[next])
            if let mapping = catalog.mappings[pair] { return (next, mapping) }
        }
        let mapping = MappingInference.infer(
            from: try bundle.loadVersion(named: source),
            to: try bundle.loadVersion(named: bundle.versionNames[index + 1]),
            modelName: bundle.name, memo: &memo)
        return (index + 1, mapping)
    }
}
