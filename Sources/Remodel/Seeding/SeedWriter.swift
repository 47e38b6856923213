/// Writes a planned seed as JSON in the export format, byte for byte as
/// `remodel export` would write the same objects: concrete entities sorted by
/// name, objects by `_pk`, one object a line, keys in model order. Each
/// object's values come from a generator seeded by the seed number, its
/// entity and its `_pk`, and its links from formulas, so one object is in
/// memory at a time.
struct SeedWriter {
    let planner: SeedPlanner

    func write(to output: inout JSONOutput) throws(RemodelError) {
        output.write("{")
        for (offset, entity) in planner.concreteEntities.enumerated() {
            output.write(offset == 0 ? "\n  " : ",\n  ")
            output.writeString(entity.name)
            output.write(": [")
            let count = try writeObjects(of: entity, to: &output)
            output.write(count == 0 ? "]" : "\n  ]")
        }
        output.write("\n}\n")
        try output.flush()
    }

    private struct Field {
        var key: [UInt8]
        var attribute: Attribute?
        var values: AttributeValues?
        var role: SeedPlanner.Role = .free
        var relationship: Relationship?
        var unit: LinkUnit?
        var isForward = true
    }

    private func fields(of entity: Entity) -> [Field] {
        var fields: [Field] = []
        for attribute in planner.storedAttributes(of: entity) {
            let owner = planner.declaring(attribute: attribute.name, in: entity)
            fields.append(
                Field(
                    key: key(attribute.name), attribute: attribute, values: planner.values["\(owner.name).\(attribute.name)"],
                    role: planner.roles[entity.name]?[attribute.name] ?? .free))
        }
        for relationship in planner.layout.storedRelationships(of: entity) {
            let name = "\(planner.version.declaringEntity(of: relationship, in: entity).name).\(relationship.name)"
            guard !planner.omitted.contains(name) else { continue }
            let side = planner.sides[name]
            fields.append(
                Field(
                    key: key(relationship.name), relationship: relationship, unit: side.map { planner.units[$0.unit] },
                    isForward: side?.forward ?? true))
        }
        return fields
    }

    private func writeObjects(of entity: Entity, to output: inout JSONOutput) throws(RemodelError) -> Int {
        guard let run = planner.objects.runs[entity.name], run.count > 0 else { return 0 }
        let fields = fields(of: entity)
        let entityHash = SeedRandom.hash(entity.name)
        for primaryKey in run.first..<(run.first + Int64(run.count)) {
            output.write(primaryKey == run.first ? "\n    {\"_pk\": " : ",\n    {\"_pk\": ")
            output.write(primaryKey)
            var random = SeedRandom(planner.seedNumber, entityHash, UInt64(primaryKey))
            for field in fields {
                output.write(bytes: field.key)
                if let attribute = field.attribute {
                    AttributeCodec.writeJSON(value(field, primaryKey: primaryKey, random: &random), type: attribute.type, to: &output)
                } else if let relationship = field.relationship {
                    writeLinks(field, relationship: relationship, primaryKey: primaryKey, to: &output)
                }
            }
            output.write("}")
            try output.flushIfNeeded()
        }
        return run.count
    }

    private func value(_ field: Field, primaryKey: Int64, random: inout SeedRandom) -> SQLiteValue {
        guard let values = field.values, let attribute = field.attribute else { return .null }
        switch field.role {
        case .free:
            if attribute.isOptional && random.chance(1, in: 5) { return .null }
            return values.random(&random)
        case .distinct(_, let salt, let set):
            guard let index = set.index(of: primaryKey) else { return .null }
            return values.distinct(UInt64(index), of: UInt64(set.count), salt: salt)
        case .pooled(let key, _, let set):
            guard let pool = planner.pools[key], let index = set.index(of: primaryKey), index < pool.count else { return .null }
            return pool[index]
        }
    }

    private func writeLinks(_ field: Field, relationship: Relationship, primaryKey: Int64, to output: inout JSONOutput) {
        var keys: [Int64] = []
        if let unit = field.unit {
            if field.isForward, let index = unit.sources.index(of: primaryKey) {
                keys = unit.targets(ofSource: index).map(unit.targets.primaryKey(at:))
            } else if !field.isForward, let index = unit.targets.index(of: primaryKey) {
                keys = unit.sources(ofTarget: index).map(unit.sources.primaryKey(at:))
            }
        }
        guard relationship.isToMany else {
            if let first = keys.first { output.write(first) } else { output.write("null") }
            return
        }
        if !relationship.isOrdered { keys.sort() }
        output.write("[")
        for (offset, key) in keys.enumerated() {
            if offset > 0 { output.write(", ") }
            output.write(key)
        }
        output.write("]")
    }

    /// `, "name": ` as bytes.
    private func key(_ name: String) -> [UInt8] {
        var output = JSONOutput()
        output.write(", ")
        output.writeString(name)
        output.write(": ")
        return output.bytes
    }
}
