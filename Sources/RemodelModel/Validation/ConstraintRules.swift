/// Rules about uniqueness constraints and fetch indexes: every property they name must exist.
enum ConstraintRules {
    static func check(_ version: ModelVersion, into list: inout DiagnosticList, scope: inout EntityScope) {
        for (position, entity) in version.entities.enumerated() {
            scope.check(position, &list) { check(entity, in: version, into: &$0) }
        }
    }

    private static func check(_ entity: Entity, in version: ModelVersion, into list: inout DiagnosticList) {
        for constraint in entity.uniquenessConstraints {
            for (property, source) in zip(constraint.properties, constraint.sources)
            where !version.hasStorableProperty(named: property, in: entity) {
                list.report(
                    .unknownConstraintProperty,
                    "a uniqueness constraint of entity '\(entity.name)' names '\(property)', which is not an attribute or relationship of '\(entity.name)'; correct the name or remove it from the constraint",
                    at: source.location(of: "value"))
            }
        }
        for index in entity.fetchIndexes {
            for element in index.elements where element.source.attribute("expression") == nil {
                guard !version.hasStorableProperty(named: element.property, in: entity) else { continue }
                let key = element.source.attribute("property") != nil ? "property" : "value"
                list.report(
                    .unknownIndexProperty,
                    "fetch index '\(index.name)' of entity '\(entity.name)' names '\(element.property)', which is not an attribute or relationship of '\(entity.name)'; correct the name or remove it from the index",
                    at: element.source.location(of: key))
            }
        }
    }
}
