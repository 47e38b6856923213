/// An attribute, relationship or fetched property seen by name, kind and
/// position, so that rules can compare properties of different kinds.
struct PropertyReference {
    enum Kind: String {
        case attribute
        case relationship
        case fetchedProperty = "fetched property"
    }

    var name: String
    var kind: Kind
    var source: ElementSource

    /// Where the property's name is written.
    var nameLocation: SourceLocation { source.location(of: "name") }

    /// The properties an entity declares itself, in file order.
    static func declared(by entity: Entity) -> [PropertyReference] {
        let all =
            entity.attributes.map { PropertyReference(name: $0.name, kind: .attribute, source: $0.source) }
            + entity.relationships.map { PropertyReference(name: $0.name, kind: .relationship, source: $0.source) }
            + entity.fetchedProperties.map {
                PropertyReference(name: $0.name, kind: .fetchedProperty, source: $0.source)
            }
        return all.sorted { $0.source.location < $1.source.location }
    }
}

extension ModelVersion {
    /// Whether the entity declares or inherits an attribute or relationship with that name, or a composite
    /// attribute with that member (`place.city`).
    func hasStorableProperty(named name: String, in entity: Entity) -> Bool {
        attribute(named: name, in: entity) != nil || relationship(named: name, in: entity) != nil
            || compositeMember(named: name, in: entity) != nil
    }
}
