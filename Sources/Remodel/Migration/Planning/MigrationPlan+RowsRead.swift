extension MigrationPlan {
    /// The hierarchy tables of the store (the first step's source) whose rows some step of the plan reads
    /// entity by entity, to rebuild a table from them: a table carried by every step keeps all its rows,
    /// whatever their `_entity`, and is not among them. Followed through the names carried tables take.
    var tablesRebuiltFrom: Set<String> {
        guard let first = stepPlans.first else { return [] }
        // Each table of the step's source → the store's table it is, carried so far.
        var original = Dictionary(uniqueKeysWithValues: first.sourceLayout.tables.map { ($0.name, $0.name) })
        var rebuiltFrom: Set<String> = []
        for step in stepPlans {
            var next: [String: String] = [:]
            for (destination, carried) in step.changes.carriedTables {
                if let table = original[carried.source] { next[destination] = table }
            }
            let carriedSources = Set(step.changes.carriedTables.values.map(\.source))
            for table in step.sourceLayout.tables where !carriedSources.contains(table.name) {
                if let stored = original[table.name] { rebuiltFrom.insert(stored) }
            }
            original = next
        }
        return rebuiltFrom
    }
}
