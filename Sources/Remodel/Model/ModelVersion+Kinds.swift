extension ModelVersion {
    /// The names of the concrete entities among an entity and those that inherit from it: the `_entity`
    /// values an object of that kind may have in a store.
    func concreteKinds(of entityName: String) -> [String] {
        guard let entity = entity(named: entityName) else { return [] }
        return hierarchy(of: entity).filter { !$0.isAbstract }.map(\.name)
    }
}
