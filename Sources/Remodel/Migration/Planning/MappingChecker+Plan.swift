extension MappingChecker {
    /// Checks every step of a plan, throwing the first problem.
    /// - Returns: Each step's checked expressions, by entity mapping: the plan carries them to phase 1.
    @discardableResult
    static func check(_ plan: MigrationPlan) throws(RemodelError) -> [[Int: CheckedEntityMapping]] {
        var checked: [[Int: CheckedEntityMapping]] = []
        for step in plan.steps {
            let (diagnostics, expressions) = check(step.mapping, source: step.source, destination: step.destination)
            // Warnings (an optional value for a required attribute) are `validate`'s to print; the data decides.
            let found = diagnostics.filter { $0.severity == .error }
            if let first = found.first {
                let more = found.count > 1 ? " (and \(found.count - 1) more; run `remodel validate`)" : ""
                throw RemodelError(.invalidMapping, first.message + more, location: first.location)
            }
            checked.append(expressions)
        }
        return checked
    }
}
