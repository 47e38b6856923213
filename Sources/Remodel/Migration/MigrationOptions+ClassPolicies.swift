extension MigrationOptions {
    /// Registers Swift code for a migration policy class that Xcode mapping models name
    /// (`migrationpolicyclassname`, a subclass of `NSEntityMigrationPolicy`): the policy makes the
    /// destination objects of every entity mapping that names the class, in place of that entity
    /// mapping's expressions. Its ``EntityPolicy/destination`` is not used: each entity mapping's
    /// own destination is. ``SourceObject/entity`` says which source entity an object is of, for a
    /// class shared by several entity mappings.
    ///
    /// For example, a class that deletes objects and one that fills a new attribute:
    /// ```swift
    /// var options = MigrationOptions(mappingsDirectory: "Mappings")
    /// options.register(EntityPolicy(destination: "") { _ in [] }, forClass: "DSDeleteEntityMigrationPolicy")
    /// options.register(EntityPolicy(destination: "Organism") { organism in
    ///     [DestinationObject(["dna": organism["dna"], "hasVertebrae": .integer(1)])]
    /// }, forClass: "CoreStoreDemo.OrganismV2ToV3MigrationPolicy")
    /// ```
    /// - Parameters:
    ///   - policy: The Swift code.
    ///   - className: The class name exactly as the mapping model writes it, module prefix included.
    public mutating func register(_ policy: EntityPolicy, forClass className: String) {
        classPolicies[className] = policy
    }

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

    /// The options one step runs with: the class policies its entity mappings need join ``policies``,
    /// each for its entity mapping's destination.
    func forStep(_ step: MigrationStep) -> MigrationOptions {
        var options = self
        for entity in step.mapping.entities {
            guard let requirement = entity.policy, let destination = entity.destination,
                let registered = classPolicies[requirement.className]
            else { continue }
            options.policies.append(EntityPolicy(destination: destination, transform: registered.transform))
        }
        return options
    }
}
