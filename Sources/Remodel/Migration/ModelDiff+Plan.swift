extension ModelDiff {
    /// Compares the two versions a plan goes between, saying how the plan carries each change: for a plan of one
    /// step, through that step's mapping (a mapping file's merged over inference, as the migration runs it), a
    /// removed property the mapping reads being no loss; for several, through inference, every change a step needs
    /// a mapping file for being planned already.
    ///
    /// For example:
    /// ```swift
    /// let plan = try MigrationPlanner.plan(bundle: bundle, from: "Library", to: "Library 2", mappingsDirectory: "Mappings")
    /// let diff = try ModelDiff(bundle: bundle, plan: plan)
    /// print(diff.lints.filter { $0.severity == .error }) // [] : the mapping file gives what inference cannot
    /// ```
    /// - Throws: ``/RemodelModel/RemodelError`` when the versions have errors
    ///   (``/RemodelModel/ModelBundle/requireNoErrors(inVersions:)``).
    public init(bundle: ModelBundle, plan: MigrationPlan) throws(RemodelError) {
        try self.init(bundle: bundle, from: plan.sourceVersion, to: plan.targetVersion)
        guard plan.steps.count == 1, !plan.isDowngrade else {
            lints.removeAll { $0.rule == DiagnosticRule.needsMapping.rawValue }
            return
        }
        // One step walks no version in between: the comparison is the step's.
        let step = plan.steps[0]
        self = try ModelDiff(comparing: bundle, from: plan.sourceVersion, to: plan.targetVersion, mapping: step.mapping)
        let dropped = Set(plan.losses.map { Self.key($0.entity, $0.property) })
        var read: Set<String> = []
        for index in entities.indices {
            let source = entities[index].sourceName ?? entities[index].name
            for property in entities[index].properties.indices
            where entities[index].properties[property].change == .removed {
                let name = entities[index].properties[property].name
                guard !dropped.contains(Self.key(source, name)) else { continue }
                entities[index].properties[property].migration = "read by the mapping, not kept"
                read.insert(Self.key(entities[index].name, name))
            }
        }
        lints.removeAll { lint in
            switch lint.rule {
            case DiagnosticRule.dataDropped.rawValue:
                return lint.property.map { read.contains(Self.key(lint.entity, $0)) } ?? false
            case DiagnosticRule.likelyRename.rawValue:
                // The added property's value is the mapping's, written on purpose.
                let mapping = step.mapping.entities.first { $0.destination == lint.entity }
                return lint.property.flatMap { mapping?.attribute($0) }?.provenance.isExplicit == true
            default:
                return false
            }
        }
    }

    private static func key(_ entity: String, _ property: String?) -> String { entity + "\u{0}" + (property ?? "") }
}
