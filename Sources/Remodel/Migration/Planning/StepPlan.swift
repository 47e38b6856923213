/// Everything one step of a plan needs that the two versions and the mapping decide, computed once when
/// the migration is planned: the dry run, `status` and the executor all read this value instead of
/// working it out again.
struct StepPlan: Sendable {
    /// The step: its versions and mapping.
    let step: MigrationStep
    /// The layouts of the step's source and destination versions.
    let sourceLayout: StoreLayout
    let destinationLayout: StoreLayout
    /// How destination objects get their keys.
    let keys: KeyPlan
    /// The entity mappings that carry objects, resolved against both layouts, with their expressions once checked.
    private(set) var resolvedMappings: [ResolvedEntityMapping]
    /// Which tables the step carries and which it rebuilds.
    let changes: StorageChanges
    /// Destination entities whose objects Swift code makes.
    let policies: Set<String>
    /// What the step drops on purpose, not yet counted.
    let losses: [DataLoss]
    /// The checks phase 3 runs when it checks what the step wrote.
    let checks: CheckScope
    /// The destination tables the step leaves as they were (``UnchangedTables``).
    let unchangedTables: Set<String>
    /// All that ``UnchangedTables`` found, for the next step of a chain to start from; ``chain(_:policies:)`` lets
    /// it go once that step is planned.
    private(set) var unchangedFound: UnchangedTables?

    /// Plans one step whose layouts are known already (a chain shares each version's layout between the
    /// step that writes it and the step that reads it).
    /// `before` is the plan of the step before in a chain, whose destination is this step's source.
    init(
        step: MigrationStep, sourceLayout: StoreLayout, destinationLayout: StoreLayout, policies: Set<String>,
        before: StepPlan? = nil
    ) {
        self.step = step
        self.sourceLayout = sourceLayout
        self.destinationLayout = destinationLayout
        self.policies = policies
        keys = KeyPlan(mapping: step.mapping, source: sourceLayout, destination: destinationLayout)
        resolvedMappings = ResolvedEntityMapping.resolve(
            step.mapping, source: sourceLayout, destination: destinationLayout)
        // What the step leaves as it was is not analysed: the analyses cost what the step changes.
        let unchanged = UnchangedTables(
            mapping: step.mapping, source: sourceLayout, destination: destinationLayout, keys: keys, policies: policies,
            previous: before?.unchangedFound)
        unchangedFound = unchanged
        changes = StorageChanges(
            analysis: StepStorageAnalysis(
                step: step, source: sourceLayout, destination: destinationLayout, keys: keys, policies: policies,
                unchanged: unchanged.tables),
            unchanged: unchanged, before: before.map { ($0.destinationLayout, $0.changes, $0.unchangedTables) })
        unchangedTables = unchanged.tables
        losses = DataLoss.planned(by: step, layout: sourceLayout, policies: policies, copied: unchanged.entities)
        checks = CheckScope(
            version: step.destination, layout: destinationLayout, source: step.source, sourceLayout: sourceLayout,
            changes: changes, unchanged: unchanged)
        #if DEBUG
            // Every test that plans a step also plans it analysing every table, and the two must agree.
            let analysed = StorageChanges(
                analysis: StepStorageAnalysis(
                    step: step, source: sourceLayout, destination: destinationLayout, keys: keys, policies: policies))
            assert(changes == analysed, "\(name): the unchanged tables are not carried as the analysis carries them")
            assert(
                losses == DataLoss.planned(by: step, layout: sourceLayout, policies: policies),
                "\(name): an entity copied as it is drops something")
            let checked = CheckScope(
                version: step.destination, layout: destinationLayout, source: step.source,
                sourceLayout: sourceLayout, changes: analysed)
            assert(checks.asksTheSameChecks(as: checked), "\(name): an unchanged entity has something to check")
        #endif
    }

    /// Plans every step of a chain, each version laid out once. `policies` gives the destination entities
    /// Swift code makes in a step.
    static func chain(_ steps: [MigrationStep], policies: (MigrationStep) -> Set<String>) -> [StepPlan] {
        var plans: [StepPlan] = []
        for step in steps {
            let before = plans.last.flatMap { $0.step.destination.name == step.source.name ? $0 : nil }
            let sourceLayout = before?.destinationLayout ?? StoreLayout(version: step.source)
            var destinationLayout = StoreLayout(version: step.destination, following: sourceLayout)
            destinationLayout.share(with: sourceLayout)
            plans.append(
                StepPlan(
                    step: step, sourceLayout: sourceLayout, destinationLayout: destinationLayout,
                    policies: policies(step), before: before))
            if plans.count > 1 { plans[plans.count - 2].unchangedFound = nil }
        }
        if !plans.isEmpty { plans[plans.count - 1].unchangedFound = nil }
        return plans
    }

    /// The same plan with the step's mapping screened against a store (``ProblemScreen`` drops problems that
    /// cannot bite it; nothing else of the mapping changes).
    func screened(_ mapping: MappingModel) -> StepPlan {
        var step = self.step
        step.mapping = mapping
        return StepPlan(copying: self, step: step)
    }

    private init(copying other: StepPlan, step: MigrationStep) {
        self.step = step
        sourceLayout = other.sourceLayout
        destinationLayout = other.destinationLayout
        keys = other.keys
        resolvedMappings = other.resolvedMappings
        changes = other.changes
        policies = other.policies
        losses = other.losses
        checks = other.checks
        unchangedTables = other.unchangedTables
        unchangedFound = other.unchangedFound
    }

    /// Carries the step's expressions as ``MappingChecker`` checked them, by entity mapping. In place: a chain's
    /// plans changed by a `map` held every step's resolved mappings twice at planning's peak (3 MiB of 96 versions).
    mutating func carry(_ checked: [Int: MappingChecker.CheckedEntityMapping]) {
        guard !checked.isEmpty else { return }
        for index in resolvedMappings.indices {
            guard let expressions = checked[resolvedMappings[index].index] else { continue }
            resolvedMappings[index].carry(expressions)
        }
    }

    /// `Library → Library 2`, for messages.
    var name: String { "\(step.source.name) → \(step.destination.name)" }
}
