import Remodel

/// Works out what the generator writes for a version: how each attribute's
/// values are made and checked against the model, which attributes take
/// distinct values for uniqueness constraints, how many objects of each
/// concrete entity fit every rule, and the links of every relationship.
struct SeedPlanner {
    /// How one attribute of one concrete entity gets its values.
    enum Role {
        /// Random values (nil now and then when optional).
        case free
        /// The `n`-th of distinct values, `n` the object's position among the objects of `owner`'s kinds (`set`).
        case distinct(owner: String, salt: UInt64, set: ObjectSet)
        /// The `n`-th value of the pool drawn for `Owner.attribute` (`key`), `n` as for ``distinct(owner:salt:set:)``.
        case pooled(key: String, owner: String, set: ObjectSet)
    }

    let layout: StoreLayout
    let seedNumber: UInt64
    var counts: [String: Int] = [:]
    /// Objects of each entity asked for.
    let requested: Int
    /// Entities whose count is not raised: given their own count, or left empty for a reason.
    var fixedCounts: Set<String> = []
    /// Objects of these kinds, together, cannot be more than this (the distinct values of a uniqueness constraint).
    var capacityLimits: [(kinds: [String], capacity: UInt64)] = []
    var problems: [SeedProblem] = []
    /// Values of each attribute, by `Declaring.attribute`.
    var values: [String: AttributeValues] = [:]
    var roles: [String: [String: Role]] = [:]
    var pools: [String: [SQLiteValue]] = [:]
    var objects: SeedObjects
    private(set) var units: [LinkUnit] = []
    /// `Declaring.relationship` → the unit and whether it is that unit's forward side.
    private(set) var sides: [String: (unit: Int, forward: Bool)] = [:]
    private(set) var omitted: Set<String> = []

    /// Plans `objects` objects of each concrete entity (or `overrides[entity]`), for `seedNumber`.
    init(version: ModelVersion, objects: Int, overrides: [String: Int], seedNumber: UInt64) {
        layout = StoreLayout(version: version)
        self.seedNumber = seedNumber
        requested = max(0, objects)
        fixedCounts = Set(overrides.keys)
        for entity in version.entities where !entity.isAbstract {
            counts[entity.name] = max(0, overrides[entity.name] ?? objects)
        }
        self.objects = SeedObjects(layout: layout, counts: counts)
        planAttributes()
        let uniqueToOnes = planUniqueness()
        let (rules, omitted, ruleProblems) = LinkRule.rules(of: layout, uniqueToOnes: uniqueToOnes)
        self.omitted = omitted
        problems += ruleProblems
        let fitted = fitCounts(rules)
        self.objects = SeedObjects(layout: layout, counts: counts)
        finishRoles()
        for (rule, shape) in fitted {
            let unit = LinkUnit(
                rule: rule, sources: self.objects.kinds(of: rule.forward.entity),
                targets: self.objects.kinds(of: rule.forward.relationship.destinationEntity ?? ""), shape: shape,
                seedNumber: seedNumber)
            sides[rule.forward.name] = (units.count, true)
            if let inverse = rule.inverse { sides[inverse.name] = (units.count, false) }
            units.append(unit)
        }
    }

    var version: ModelVersion { layout.version }

    /// The concrete entities, in the order the JSON lists them.
    var concreteEntities: [Entity] { layout.concreteEntitiesByName }

    /// The entity among `entity` and its ancestors that declares `attribute`.
    func declaring(attribute name: String, in entity: Entity) -> Entity {
        ([entity] + version.ancestors(of: entity)).first { $0.attribute(named: name) != nil } ?? entity
    }

    /// Stored attributes of an entity, each name once (as the importer reads them), but derived ones: the store
    /// computes those (and stamps `now()`), so a seed gives them no value.
    func storedAttributes(of entity: Entity) -> [Attribute] {
        var seen: Set<String> = []
        return layout.storedAttributes(of: entity).filter { !$0.isDerived && seen.insert($0.name).inserted }
    }

    // MARK: - Attributes

    private mutating func planAttributes() {
        for entity in version.entities {
            for attribute in entity.attributes where attribute.isStored && !attribute.isDerived {
                let key = "\(entity.name).\(attribute.name)"
                guard values[key] == nil else { continue }
                values[key] = checked(AttributeValues(attribute: attribute, version: version), entity: entity.name)
            }
        }
        for entity in version.entities where !entity.isAbstract {
            var entityRoles: [String: Role] = [:]
            for attribute in storedAttributes(of: entity) {
                entityRoles[attribute.name] = .free
                let key = "\(declaring(attribute: attribute.name, in: entity).name).\(attribute.name)"
                guard let made = values[key], case .none = made.kind, !attribute.isOptional, made.defaultValue == nil,
                    counts[entity.name, default: 0] > 0
                else { continue }
                counts[entity.name] = 0
                fixedCounts.insert(entity.name)
                problems.append(
                    SeedProblem(
                        entity: entity.name, property: attribute.name,
                        message:
                            "the attribute is required, has no default that fits, and no value can be made for it, so no \(entity.name) objects are generated"
                    ))
            }
            roles[entity.name] = entityRoles
        }
    }

    /// The attribute's values, after checking a sample of them (and its default) with the importer's own checks;
    /// a problem says what is given up.
    private mutating func checked(_ made: AttributeValues, entity: String) -> AttributeValues {
        let attribute = made.attribute
        let consequence =
            attribute.isOptional
            ? "; the attribute is optional, so it is left empty"
            : made.defaultValue != nil ? "; every object takes its default" : ""
        func giveUp(_ reason: String) -> AttributeValues {
            problems.append(SeedProblem(entity: entity, property: attribute.name, message: reason + consequence))
            return made.withoutValues(reason)
        }
        if let reason = made.problem {
            problems.append(SeedProblem(entity: entity, property: attribute.name, message: reason + consequence))
            return made
        }
        let check: SeedValueCheck
        do {
            check = try SeedValueCheck(attribute: attribute, entity: entity, version: version)
        } catch {
            return giveUp(error.message)
        }
        var result = made
        if let value = made.defaultValue, let failure = check.failure(value) {
            problems.append(
                SeedProblem(
                    entity: entity, property: attribute.name,
                    message: "its default value does not satisfy its own rules (\(failure)), so it is not used"))
            result = made.withoutDefault()
        }
        var random = SeedRandom(0x5EED, SeedRandom.hash("\(entity).\(attribute.name)"))
        // Values of a regular expression or a composite depend on more choices: they get a larger sample.
        let samples: Int
        switch made.kind {
        case .pattern, .composite: samples = 32
        default: samples = 4
        }
        for _ in 0..<samples {
            let value = result.random(&random, usesDefault: false)
            if case .pattern(let regex, _, let minimum, let maximum) = made.kind, value.isNull {
                return giveUp(
                    "no string matching its regular expression \(regex.pattern) with \(minimum)–\(maximum == Int.max ? "any number of" : String(maximum)) characters was found"
                )
            }
            if !value.isNull, let failure = check.failure(value) {
                return giveUp("the values the generator makes for it fail the model's own check (\(failure))")
            }
        }
        return result
    }
}
