import Remodel

/// Writes a planned seed as JSON in the export format, byte for byte as
/// `remodel export` would write the same objects: concrete entities sorted by
/// name, objects by `_pk`, one object a line, keys in model order. Each
/// object's values come from a generator seeded by the seed number, its
/// entity and its `_pk`, and its links from formulas, so one object is in
/// memory at a time.
struct SeedWriter {
    let planner: SeedPlanner

    func write(to output: inout JSONOutput) throws(RemodelError) {
        try output.writeExport(entities: planner.concreteEntities) {
            (entity, output: inout JSONOutput) throws(RemodelError) in
            try writeObjects(of: entity, to: &output)
        }
    }

    /// One key of an entity's objects and how its value is made: a class, so writing an object retains
    /// nothing per key.
    private final class Field {
        enum Kind {
            case attribute(AttributeType, optional: Bool, values: AttributeValues?, role: SeedPlanner.Role)
            case relationship(toMany: Bool, ordered: Bool, unit: LinkUnit?, forward: Bool)
        }

        let key: [UInt8]
        let kind: Kind

        init(key: [UInt8], kind: Kind) {
            self.key = key
            self.kind = kind
        }
    }

    private func fields(of entity: Entity) -> [Field] {
        var fields: [Field] = []
        for attribute in planner.storedAttributes(of: entity) {
            let owner = planner.declaring(attribute: attribute.name, in: entity)
            let role = planner.roles[entity.name]?[attribute.name] ?? .free
            let values = planner.values["\(owner.name).\(attribute.name)"]
            fields.append(
                Field(
                    key: JSONOutput.keyBytes(attribute.name),
                    kind: .attribute(attribute.type, optional: attribute.isOptional, values: values, role: role)))
        }
        for relationship in planner.layout.storedRelationships(of: entity) {
            let name = "\(planner.version.declaringEntity(of: relationship, in: entity).name).\(relationship.name)"
            guard !planner.omitted.contains(name) else { continue }
            let side = planner.sides[name]
            let kind = Field.Kind.relationship(
                toMany: relationship.isToMany, ordered: relationship.isOrdered,
                unit: side.map { planner.units[$0.unit] },
                forward: side?.forward ?? true)
            fields.append(Field(key: JSONOutput.keyBytes(relationship.name), kind: kind))
        }
        return fields
    }

    private func writeObjects(of entity: Entity, to output: inout JSONOutput) throws(RemodelError) -> Int {
        guard let run = planner.objects.runs[entity.name], run.count > 0 else { return 0 }
        let fields = fields(of: entity)
        let entityHash = SeedRandom.hash(entity.name)
        for primaryKey in run.first..<(run.first + Int64(run.count)) {
            output.writeObjectStart(first: primaryKey == run.first, primaryKey: primaryKey)
            var random = SeedRandom(planner.seedNumber, entityHash, UInt64(primaryKey))
            for field in fields {
                output.write(bytes: field.key)
                switch field.kind {
                case .attribute(let type, let optional, let values, let role):
                    let value = value(values, optional: optional, role: role, primaryKey: primaryKey, random: &random)
                    AttributeCodec.writeJSON(value, type: type, to: &output)
                case .relationship(let toMany, let ordered, let unit, let forward):
                    writeLinks(
                        unit, forward: forward, toMany: toMany, ordered: ordered, primaryKey: primaryKey, to: &output)
                }
            }
            output.write("}")
            try output.flushIfNeeded()
        }
        return run.count
    }

    private func value(
        _ values: AttributeValues?, optional: Bool, role: SeedPlanner.Role, primaryKey: Int64, random: inout SeedRandom
    ) -> SQLiteValue {
        guard let values else { return .null }
        switch role {
        case .free:
            if optional && random.chance(1, in: 5) { return .null }
            return values.random(&random)
        case .distinct(_, let salt, let set):
            guard let index = set.index(of: primaryKey) else { return .null }
            return values.distinct(UInt64(index), of: UInt64(set.count), salt: salt)
        case .pooled(let key, _, let set):
            guard let pool = planner.pools[key], let index = set.index(of: primaryKey), index < pool.count else {
                return .null
            }
            return pool[index]
        }
    }

    private func writeLinks(
        _ unit: LinkUnit?, forward: Bool, toMany: Bool, ordered: Bool, primaryKey: Int64, to output: inout JSONOutput
    ) {
        var keys: [Int64] = []
        if let unit {
            if forward, let index = unit.sources.index(of: primaryKey) {
                keys = unit.targets(ofSource: index).map(unit.targets.primaryKey(at:))
            } else if !forward, let index = unit.targets.index(of: primaryKey) {
                keys = unit.sources(ofTarget: index).map(unit.sources.primaryKey(at:))
            }
        }
        guard toMany else {
            if let first = keys.first { output.write(first) } else { output.write("null") }
            return
        }
        if !ordered { keys.sort() }
        output.write("[")
        for (offset, key) in keys.enumerated() {
            if offset > 0 { output.write(", ") }
            output.write(key)
        }
        output.write("]")
    }
}
