/// Rules about relationships: deletion rules, destinations, inverses and counts.
enum RelationshipRules {
    static func check(_ version: ModelVersion, into list: inout DiagnosticList) {
        for entity in version.entities {
            for relationship in entity.relationships {
                check(relationship, of: entity, in: version, into: &list)
            }
        }
    }

    private static func check(
        _ relationship: Relationship, of entity: Entity, in version: ModelVersion, into list: inout DiagnosticList
    ) {
        // The relationship's name for a message, worked out only for one.
        let owner = entity.name
        let member = relationship.name
        func name() -> String { "\(owner).\(member)" }
        let source = relationship.source
        if let rule = relationship.deletionRuleName, DeletionRule(rawValue: rule) == nil {
            let known = DeletionRule.allCases.map(\.rawValue).joined(separator: ", ")
            list.report(
                .unknownDeletionRule,
                "relationship '\(name())' has deletion rule '\(rule)', which is not one of \(known); choose one of them",
                at: source.location(of: "deletionRule"))
        }
        checkCounts(relationship, named: name(), into: &list)
        guard let destinationName = relationship.destinationEntity, !destinationName.isEmpty else {
            list.report(
                .missingDestination, "relationship '\(name())' has no destination entity; choose one",
                at: source.location
            )
            return
        }
        guard let destination = version.entity(named: destinationName) else {
            list.report(
                .missingDestination,
                "relationship '\(name())' has destination entity '\(destinationName)', which does not exist; add it or choose another destination",
                at: source.location(of: "destinationEntity"))
            return
        }
        if let inverseEntity = relationship.inverseEntity, inverseEntity != destinationName {
            list.report(
                .inverseEntityMismatch,
                "relationship '\(name())' has inverse entity '\(inverseEntity)' but destination '\(destinationName)'; the inverse belongs to the destination, so set inverseEntity to '\(destinationName)'",
                at: source.location(of: "inverseEntity"))
        }
        guard let inverseName = relationship.inverseName, !inverseName.isEmpty else {
            checkNoInverse(relationship, named: name(), into: &list)
            return
        }
        guard let inverse = version.relationship(named: inverseName, in: destination) else {
            list.report(
                .missingInverse,
                "relationship '\(name())' has inverse '\(inverseName)', but entity '\(destinationName)' has no relationship '\(inverseName)'; add it or choose another inverse",
                at: source.location(of: "inverseName"))
            return
        }
        if reportsItsOwnProblem(inverse, in: version) { return }
        if inverse.inverseName != relationship.name || !pointsBack(inverse, to: entity, in: version) {
            let back = inverse.inverseName.map { "'\($0)'" } ?? "no relationship"
            let target = inverse.destinationEntity.map { "'\($0)'" } ?? "no entity"
            list.report(
                .inverseMismatch,
                "relationship '\(name())' has inverse '\(destinationName).\(inverseName)', but that relationship points to \(target) with inverse \(back); Remodel stores '\(name())' as a relationship without an inverse; make each the other's inverse",
                at: source.location(of: "inverseName"))
        }
    }

    /// Whether the inverse has a missing destination or inverse of its own, reported on it:
    /// one mistake is reported once, not again from the other side.
    private static func reportsItsOwnProblem(_ inverse: Relationship, in version: ModelVersion) -> Bool {
        guard let destination = inverse.destinationEntity.flatMap(version.entity(named:)) else { return true }
        guard let back = inverse.inverseName, !back.isEmpty else { return false }
        return version.relationship(named: back, in: destination) == nil
    }

    /// Whether the inverse's destination is the declaring entity, one of its ancestors or one of its sub-entities.
    private static func pointsBack(_ inverse: Relationship, to entity: Entity, in version: ModelVersion) -> Bool {
        guard let target = inverse.destinationEntity.flatMap(version.entity(named:)) else { return false }
        return version.entity(entity, isKindOf: target.name) || version.entity(target, isKindOf: entity.name)
    }

    private static func checkNoInverse(
        _ relationship: Relationship, named name: @autoclosure () -> String, into list: inout DiagnosticList
    ) {
        guard !relationship.isTransient, list.keepsWarnings else { return }
        list.report(
            .noInverse,
            "relationship '\(name())' has no inverse, so the store cannot keep both sides consistent; add an inverse relationship to '\(relationship.destinationEntity ?? "")'",
            at: relationship.source.location)
        if relationship.isToMany, relationship.deletionRule == .deny {
            list.report(
                .denyWithoutInverse,
                "to-many relationship '\(name())' uses the Deny rule but has no inverse, so the rule cannot be checked from the other side; add an inverse or use another rule",
                at: relationship.source.location(of: "deletionRule"))
        }
    }

    private static func checkCounts(
        _ relationship: Relationship, named name: @autoclosure () -> String, into list: inout DiagnosticList
    ) {
        let source = relationship.source
        var counts: (minCount: Int?, maxCount: Int?)
        for key in ["minCount", "maxCount"] {
            guard let text = source.attribute(key) else { continue }
            guard let count = Int(text), count >= 0 else {
                list.report(
                    .invalidCount,
                    "relationship '\(name())' has \(key) '\(text)', which is not a whole number of zero or more; correct it",
                    at: source.location(of: key))
                continue
            }
            if key == "minCount" { counts.minCount = count } else { counts.maxCount = count }
        }
        // A maxCount of 0 means "no limit" in Core Data.
        if let minimum = counts.minCount, let maximum = counts.maxCount, maximum > 0, minimum > maximum {
            list.report(
                .minCountGreaterThanMaxCount,
                "relationship '\(name())' has minCount \(minimum), greater than its maxCount \(maximum), so no object can be valid; lower minCount or raise maxCount",
                at: source.location(of: "minCount"))
        }
    }
}
