import Remodel

/// One stored link structure of a model version, independent of object
/// counts: a relationship and, when the two name each other, its inverse,
/// with the number of objects each side allows per object.
struct LinkRule {
    /// One direction: the relationship as its entity declares it, and its counts as the importer checks them.
    struct Side {
        var entity: String
        var relationship: Relationship
        var minimum: Int
        var maximum: Int?

        init(entity: String, relationship: Relationship) {
            self.entity = entity
            self.relationship = relationship
            if relationship.isToMany {
                minimum = max(relationship.minCount ?? 0, relationship.isOptional ? 0 : 1)
                maximum = relationship.maxCount.flatMap { $0 > 0 ? $0 : nil }
            } else {
                minimum = relationship.isOptional ? 0 : 1
                maximum = 1
            }
        }

        /// `Entity.relationship`.
        var name: String { "\(entity).\(relationship.name)" }
    }

    /// The side whose objects choose their links.
    var forward: Side
    /// The inverse side, whose links follow; nil when there is none (or it is the forward relationship itself).
    var inverse: Side?
    /// Whether the relationship is its own inverse (`Person.friends` ↔ `Person.friends`).
    var isReflexive: Bool
    /// The concrete entities whose objects own forward links.
    var sourceKinds: [String]
    /// The concrete entities forward links may point to.
    var targetKinds: [String]
    /// Whether a uniqueness constraint makes the forward (or inverse) to-one point to different objects.
    var forwardIsUnique: Bool
    var inverseIsUnique: Bool

    /// Links each target needs, by the inverse.
    var targetMinimum: Int { inverse?.minimum ?? 0 }

    /// Links each target allows, by the inverse (or a uniqueness constraint on the forward to-one).
    var targetMaximum: Int? {
        let unique: Int? = forwardIsUnique && !forward.relationship.isToMany ? 1 : nil
        guard let maximum = inverse?.maximum else { return unique }
        return min(maximum, unique ?? maximum)
    }

    /// The same links chosen from the other side.
    var swapped: LinkRule? {
        guard let inverse, !isReflexive else { return nil }
        return LinkRule(
            forward: inverse, inverse: forward, isReflexive: false, sourceKinds: targetKinds, targetKinds: sourceKinds,
            forwardIsUnique: inverseIsUnique, inverseIsUnique: forwardIsUnique)
    }

    /// A stable number naming the rule, for its random choices.
    var hash: UInt64 { SeedRandom.hash(forward.name + "|" + (inverse?.name ?? "")) }

    /// Every link rule of a version, with what cannot be generated as the model says: an inverse that does
    /// not name its relationship back is left out of the objects (`omitted`, `Entity.relationship` names),
    /// and the importer fills it from the relationship. `uniqueToOnes` are `Entity.relationship` names of
    /// to-one relationships a uniqueness constraint makes one-to-one.
    static func rules(
        of layout: StoreLayout, uniqueToOnes: Set<String>
    ) -> (rules: [LinkRule], omitted: Set<String>, problems: [SeedProblem]) {
        let version = layout.version
        var rules: [LinkRule] = []
        var problems: [SeedProblem] = []
        var covered: Set<String> = []
        var omitted: Set<String> = []
        func concreteKinds(_ name: String) -> [String] {
            layout.kinds(of: name).filter { version.entity(named: $0)?.isAbstract == false }
        }
        for entity in version.entities {
            for relationship in entity.relationships where layout.isStored(relationship) {
                var forward = Side(entity: entity.name, relationship: relationship)
                guard covered.insert(forward.name).inserted, let destination = relationship.destinationEntity else {
                    continue
                }
                var inverse: Side?
                var reflexive = false
                if let found = layout.storedInverse(of: relationship, in: entity.name),
                    let destinationEntity = version.entity(named: destination)
                {
                    let owner = version.declaringEntity(of: found, in: destinationEntity).name
                    let side = Side(entity: owner, relationship: found)
                    let namesBack =
                        version.inverse(of: found) == relationship && owner == destination
                        && found.destinationEntity == entity.name
                    if namesBack && owner == entity.name && found.name == relationship.name {
                        reflexive = true
                    } else if namesBack {
                        covered.insert(side.name)
                        inverse = side
                    } else if covered.insert(side.name).inserted {
                        omitted.insert(side.name)
                        problems.append(
                            SeedProblem(
                                entity: entity.name, property: relationship.name,
                                message:
                                    "its inverse \(side.name) does not name it back (or belongs to another entity), so only \(forward.name) is generated and \(side.name) is filled from it"
                            ))
                    }
                }
                if let other = inverse, Self.choosesLinks(other, over: forward) {
                    inverse = forward
                    forward = other
                }
                rules.append(
                    LinkRule(
                        forward: forward, inverse: inverse, isReflexive: reflexive,
                        sourceKinds: concreteKinds(forward.entity),
                        targetKinds: concreteKinds(forward.relationship.destinationEntity ?? ""),
                        forwardIsUnique: uniqueToOnes.contains(forward.name),
                        inverseIsUnique: inverse.map { uniqueToOnes.contains($0.name) } ?? false))
            }
        }
        return (rules, omitted, problems)
    }

    /// Whether `side` should choose the links rather than `other`: a to-one side does (its objects then get
    /// exactly their count), else the one whose name sorts first.
    private static func choosesLinks(_ side: Side, over other: Side) -> Bool {
        if side.relationship.isToMany != other.relationship.isToMany { return !side.relationship.isToMany }
        return Array(side.name.utf8).lexicographicallyPrecedes(Array(other.name.utf8))
    }
}
