/// The checks of a version a composed pass goes through that the next
/// version's checks already make: a value the next step copies as it is,
/// under the same rule, fails there exactly when it fails here, so the check
/// runs once, on the later version. A check is implied only where that holds
/// row for row; everything else is checked on the views.
struct ImpliedChecks {
    /// The version passed through.
    let version: ModelVersion
    /// The step from it to the next version, whose checks run (on views, or on the store written).
    let next: MigrationStep
    /// Whether the next step is passed through too (it then keeps every object and every link).
    let nextIsPassedThrough: Bool

    /// Whether the check `rule` on `property` of `entity` is implied by the next version's.
    func contains(entity entityName: String, property: String?, rule: String) -> Bool {
        // Links are the source's links between objects that all arrive; the pass's written
        // step checks the links it keeps, and a link it drops cannot dangle.
        if rule == "dangling" { return true }
        guard let property, let entity = version.entity(named: entityName),
            let mapping = next.mapping.entities.first(where: { $0.source == entityName }), mapping.filter == nil,
            let destinationName = mapping.destination, let destination = next.destination.entity(named: destinationName)
        else { return false }
        if let attribute = version.attribute(named: property, in: entity) {
            guard
                let copy = mapping.attributes.first(where: {
                    $0.sourceAttribute == property && $0.value?.text == "$source.\(property)"
                }),
                let copied = next.destination.attribute(named: copy.destination, in: destination),
                copied.isStored, copied.type == attribute.type
            else { return false }
            switch rule {
            case "required": return !copied.isOptional && ModelDefaultValue.stored(for: copied) == nil
            case "type": return true
            case "minimum": return copied.minValue == attribute.minValue
            case "maximum": return copied.maxValue == attribute.maxValue
            case "regular-expression": return copied.regularExpression == attribute.regularExpression
            default: return false
            }
        }
        guard let relationship = version.relationship(named: property, in: entity),
            let carried = mapping.relationships.first(where: { $0.source == property }),
            let kept = next.destination.relationship(named: carried.destination, in: destination),
            kept.isToMany == relationship.isToMany
        else { return false }
        // The next step can only lose links (to objects it does not keep), never add any.
        switch rule {
        case "required": return !kept.isOptional
        case "minimum-count": return (kept.minCount ?? 0) >= (relationship.minCount ?? 0)
        case "maximum-count":
            guard nextIsPassedThrough, let maximum = kept.maxCount, maximum > 0, let own = relationship.maxCount else { return false }
            return maximum <= own
        default: return false
        }
    }
}
