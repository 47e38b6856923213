extension ModelVersion {
    /// The names of the concrete entities among an entity and those that inherit from it: the `_entity`
    /// values an object of that kind may have in a store.
    package func concreteKinds(of entityName: String) -> [String] {
        guard let entity = entity(named: entityName) else { return [] }
        return hierarchy(of: entity).filter { !$0.isAbstract }.map(\.name)
    }
}

extension ModelVersion {
    /// The positions in ``entities`` of ``hierarchy(of:)`` of the entity at `position`, in the same order: what
    /// the layout reads, by position.
    func hierarchyPositions(of position: Int) -> [Int] {
        [position] + descendantPositions(of: entities[position].name)
    }

    /// The positions in ``entities`` of ``rootEntities``, in the same order.
    var rootPositions: [Int] {
        var seen: Set<String> = []
        var result: [Int] = []
        for position in entities.indices {
            let root = rootPosition(of: position)
            if seen.insert(entities[root].name).inserted { result.append(root) }
        }
        return result
    }

    /// The position of ``root(of:)`` of the entity at `position`: its furthest ancestor, stopping at a missing
    /// parent or a cycle.
    private func rootPosition(of position: Int) -> Int {
        guard entities[position].parentName != nil else { return position }
        var root = position
        var seen: Set<String> = [entities[position].name]
        var current = entities[position].parentName.flatMap { self.position(ofEntity: $0) }
        while let next = current, seen.insert(entities[next].name).inserted {
            root = next
            current = entities[next].parentName.flatMap { self.position(ofEntity: $0) }
        }
        return root
    }
}
