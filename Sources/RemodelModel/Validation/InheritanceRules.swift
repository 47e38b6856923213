/// Rules about parent entities: the parent must exist and inheritance must not loop.
enum InheritanceRules {
    static func check(_ version: ModelVersion, into list: inout DiagnosticList) {
        var reportedCycles: Set<String> = []
        for entity in version.entities {
            guard let parentName = entity.parentName else { continue }
            let location = entity.source.location(of: "parentEntity")
            guard version.entity(named: parentName) != nil else {
                list.report(
                    .missingParentEntity,
                    "entity '\(entity.name)' has parent entity '\(parentName)', which does not exist; add an entity '\(parentName)' or choose another parent",
                    at: location)
                continue
            }
            guard let cycle = cycle(through: entity, in: version), reportedCycles.isDisjoint(with: cycle) else {
                continue
            }
            reportedCycles.formUnion(cycle)
            let path = (cycle + [entity.name]).map { "'\($0)'" }.joined(separator: " -> ")
            list.report(
                .inheritanceCycle,
                "entity '\(entity.name)' inherits from itself: \(path); remove one of these parent entities",
                at: location)
        }
    }

    /// The entities of the inheritance cycle starting at `entity`, in order, or `nil` when it is not in one.
    private static func cycle(through entity: Entity, in version: ModelVersion) -> [String]? {
        var path = [entity.name]
        var current = entity
        while let parentName = current.parentName, let parent = version.entity(named: parentName) {
            if parent.name == entity.name { return path }
            if path.contains(parent.name) { return nil }
            path.append(parent.name)
            current = parent
        }
        return nil
    }
}
