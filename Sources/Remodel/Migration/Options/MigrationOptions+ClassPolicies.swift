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
