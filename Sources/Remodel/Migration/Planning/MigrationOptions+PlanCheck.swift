extension MigrationOptions {
    /// Refuses a plan with an entity mapping whose policy class has no Swift code registered,
    /// naming the class, the entity mapping and where the mapping model names it (every such
    /// entity mapping of the first step that has one).
    func checkClassPolicies(_ plan: MigrationPlan) throws(RemodelError) {
        for step in plan.steps {
            let missing = step.mapping.entities.filter { entity in
                entity.policy.map { classPolicies[$0.className] == nil } ?? false
            }
            guard let first = missing.first?.policy else { continue }
            let lines = missing.compactMap(\.policy).map { requirement in
                "the entity mapping \(requirement.entityMapping) needs a Swift policy named '\(requirement.className)' (line \(requirement.location.line))"
            }
            throw RemodelError(
                .migrationNotPlannable,
                "step \(step.source.name) → \(step.destination.name): \(lines.joined(separator: "; ")); Core Data runs those classes there: register Swift code for each with MigrationOptions.register(_:forClass:), or write the step as a Remodel mapping file",
                location: first.location, entity: missing.first?.destination ?? missing.first?.source)
        }
    }
}
