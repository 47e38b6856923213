extension MappingChecker {
    /// Checks every step of a plan, throwing the first problem.
    static func check(_ plan: MigrationPlan) throws(RemodelError) {
        for step in plan.steps {
            let found = diagnostics(for: step.mapping, source: step.source, destination: step.destination)
            if let first = found.first {
                let more = found.count > 1 ? " (and \(found.count - 1) more; run `remodel validate`)" : ""
                throw RemodelError(.invalidMapping, first.message + more, location: first.location)
            }
        }
    }
}
