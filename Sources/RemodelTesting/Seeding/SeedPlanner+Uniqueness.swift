import Remodel

/// Uniqueness constraints: one member of each constraint takes distinct
/// values, so the tuples differ. Where no member can be enumerated (a regular
/// expression, a Boolean, a range smaller than the objects), a pool of
/// distinct values is drawn up front and the objects are limited to its size;
/// a constraint with only a to-one relationship makes that relationship one-to-one.
extension SeedPlanner {
    /// Plans every constraint; returns the `Entity.relationship` names of to-one relationships that must
    /// point to different objects.
    mutating func planUniqueness() -> Set<String> {
        var uniqueToOnes: Set<String> = []
        // Parents first: a constraint over a whole hierarchy takes its attribute before a sub-entity's does.
        let owners = version.entities.sorted { version.ancestors(of: $0).count < version.ancestors(of: $1).count }
        for owner in owners {
            for constraint in owner.uniquenessConstraints {
                let kinds = layout.kinds(of: owner.name).filter { version.entity(named: $0)?.isAbstract == false }
                guard kinds.contains(where: { counts[$0, default: 0] > 0 }) else { continue }
                let attributes = constraint.properties.compactMap { name in
                    version.attribute(named: name, in: owner).flatMap { $0.isStored ? $0 : nil }
                }
                let toOnes = constraint.properties.compactMap { name in
                    version.relationship(named: name, in: owner).flatMap {
                        !$0.isToMany && layout.isStored($0) ? $0 : nil
                    }
                }
                if let (member, capacity) = distinctMember(attributes, owner: owner, kinds: kinds) {
                    let role = Role.distinct(
                        owner: owner.name, salt: distinctSalt(member, in: owner), set: ObjectSet(runs: []))
                    for kind in kinds where !hasOwnRole(kind, member.name) { roles[kind]?[member.name] = role }
                    capacityLimits.append((kinds, capacity))
                } else if let relationship = toOnes.first {
                    uniqueToOnes.insert(
                        "\(version.declaringEntity(of: relationship, in: owner).name).\(relationship.name)")
                } else if let member = attributes.first {
                    pool(member, of: owner, kinds: kinds, constraint: constraint.properties)
                }
            }
        }
        return uniqueToOnes
    }

    private func valuesOf(_ attribute: Attribute, in entity: Entity) -> AttributeValues? {
        values["\(declaring(attribute: attribute.name, in: entity).name).\(attribute.name)"]
    }

    private func hasOwnRole(_ kind: String, _ attribute: String) -> Bool {
        switch roles[kind]?[attribute] {
        case .distinct?, .pooled?: return true
        default: return false
        }
    }

    /// The first member whose distinct values cover every object of `kinds` and pass the model's checks, with
    /// how many distinct values it has.
    private func distinctMember(_ attributes: [Attribute], owner: Entity, kinds: [String]) -> (Attribute, UInt64)? {
        let total = UInt64(max(1, kinds.reduce(0) { $0 + counts[$1, default: 0] }))
        for attribute in attributes {
            guard let made = valuesOf(attribute, in: owner), case let capacity = made.distinctCapacity(total: total),
                capacity >= total,
                let check = try? SeedValueCheck(attribute: attribute, entity: owner.name, version: version)
            else { continue }
            let salt = distinctSalt(attribute, in: owner)
            if Set([0, total / 2, total - 1]).allSatisfy({
                check.failure(made.distinct($0, of: total, salt: salt)) == nil
            }) {
                return (attribute, capacity)
            }
        }
        return nil
    }

    private func distinctSalt(_ attribute: Attribute, in entity: Entity) -> UInt64 {
        SeedRandom.mix([
            seedNumber, SeedRandom.hash("\(declaring(attribute: attribute.name, in: entity).name).\(attribute.name)"),
        ])
    }

    /// Draws distinct values for `attribute` over the objects of `kinds`; fewer than there are objects limits them.
    private mutating func pool(_ attribute: Attribute, of owner: Entity, kinds: [String], constraint: [String]) {
        let key = "\(owner.name).\(attribute.name)"
        guard pools[key] == nil, let made = valuesOf(attribute, in: owner) else { return }
        let wanted = kinds.reduce(0) { $0 + counts[$1, default: 0] }
        var random = SeedRandom(seedNumber, SeedRandom.hash(key), 5)
        var seen: Set<SQLiteValue> = []
        var pool: [SQLiteValue] = []
        var attempts = 0
        while pool.count < wanted && attempts < wanted * 4 + 64 {
            attempts += 1
            let value = made.random(&random, usesDefault: false)
            if !value.isNull && seen.insert(value).inserted { pool.append(value) }
        }
        pools[key] = pool
        for kind in kinds where !hasOwnRole(kind, attribute.name) {
            roles[kind]?[attribute.name] = .pooled(key: key, owner: owner.name, set: ObjectSet(runs: []))
        }
        capacityLimits.append((kinds, UInt64(pool.count)))
        guard pool.count < wanted else { return }
        problems.append(
            SeedProblem(
                entity: owner.name, property: attribute.name,
                message:
                    "the uniqueness constraint on (\(constraint.joined(separator: ", "))) needs \(wanted) different values, and only \(pool.count) were found for \(attribute.name); \(pool.count) \(owner.name) objects are generated"
            ))
        reduce(kinds, to: pool.count)
    }

    /// Gives distinct and pooled attributes their final sets of objects, once counts are settled.
    mutating func finishRoles() {
        for (entity, entityRoles) in roles {
            for (name, role) in entityRoles {
                switch role {
                case .distinct(let owner, let salt, _):
                    roles[entity]?[name] = .distinct(owner: owner, salt: salt, set: objects.kinds(of: owner))
                case .pooled(let key, let owner, _):
                    roles[entity]?[name] = .pooled(key: key, owner: owner, set: objects.kinds(of: owner))
                case .free:
                    continue
                }
            }
        }
    }

    /// Limits the objects of `kinds` to `total` in all, sharing them out one by one so that every kind keeps
    /// some where it can; true when something changed.
    @discardableResult
    mutating func reduce(_ kinds: [String], to total: Int) -> Bool {
        let current = kinds.map { counts[$0, default: 0] }
        guard current.reduce(0, +) > max(0, total) else { return false }
        var kept = [Int](repeating: 0, count: kinds.count)
        var remaining = max(0, total)
        while remaining > 0 {
            for index in kinds.indices where remaining > 0 && kept[index] < current[index] {
                kept[index] += 1
                remaining -= 1
            }
        }
        for (index, kind) in kinds.enumerated() { counts[kind] = kept[index] }
        return true
    }

    /// Raises the objects of `kinds` towards `total` in all, one by one, within sixteen times the number asked for
    /// and never for entities given their own count or left empty for a reason; true when something changed.
    mutating func raise(_ kinds: [String], to total: Int) -> Bool {
        var missing = total - kinds.reduce(0) { $0 + counts[$1, default: 0] }
        var changed = false
        while missing > 0 {
            var added = false
            for kind in kinds where missing > 0 && canRaise(kind) {
                counts[kind, default: 0] += 1
                missing -= 1
                added = true
            }
            guard added else { break }
            changed = true
        }
        return changed
    }

    private func canRaise(_ kind: String) -> Bool {
        guard !fixedCounts.contains(kind), counts[kind, default: 0] < requested * 16 else { return false }
        return capacityLimits.allSatisfy { limit in
            !limit.kinds.contains(kind)
                || UInt64(limit.kinds.reduce(0) { $0 + counts[$1, default: 0] }) < limit.capacity
        }
    }
}
