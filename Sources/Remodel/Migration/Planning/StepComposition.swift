/// Which steps of a plan run together as one pass over the store.
///
/// A pass copies the store once and runs its steps one after the other on that copy, each changing what
/// its mapping changes (see ``PassExecutor``): a run of steps costs one copy, one flush and one rename,
/// whatever the number of versions it spans, and gives what writing every version to a file of its own
/// gives. Swift code sees a store of its own step's version only, so a step that runs a policy, or any
/// step when there are hooks, is a pass by itself; so is every step when the caller asks for step by step.
enum StepComposition {
    /// The plan's steps (1-based) of each pass, in order.
    static func passes(of steps: [MigrationStep], options: MigrationOptions) -> [ClosedRange<Int>] {
        let hooks = options.hooks.beforeStep != nil || options.hooks.afterStep != nil
        var passes: [ClosedRange<Int>] = []
        var start: Int?
        for (offset, step) in steps.enumerated() {
            let number = offset + 1
            let alone = !options.composesSteps || hooks || runsPolicy(step, options: options)
            if alone {
                if let first = start { passes.append(first...(number - 1)) }
                passes.append(number...number)
                start = nil
            } else if start == nil {
                start = number
            }
        }
        if let first = start { passes.append(first...steps.count) }
        return passes
    }

    /// Whether Swift code makes some of the step's destination objects.
    static func runsPolicy(_ step: MigrationStep, options: MigrationOptions) -> Bool {
        if step.mapping.entities.contains(where: { $0.policy != nil }) { return true }
        let destinations = Set(step.mapping.entities.compactMap(\.destination))
        return options.policies.contains { destinations.contains($0.destination) }
    }
}
