import Remodel

/// What a migration plan says happens to a store's objects, traced from the
/// store's version to the plan's target: for each concrete entity of the
/// source version, the entity its objects become (or the step that drops
/// them), whether all of them arrive (no filter, no Swift policy on the way),
/// whether they keep their `_pk`, and which attributes and relationships are
/// carried as they are.
///
/// An attribute is *carried* when every step on the way computes it as
/// exactly `$source.name`, between attributes of the same type (or a wider
/// integer), so its stored value arrives unchanged, except that a nil becomes
/// the default of a required attribute that has one. A relationship is
/// carried when every step rebuilds it from the one before.
struct MigrationLineage {
    /// An attribute carried from the source version to the head.
    struct CarriedAttribute {
        var head: String
        var source: String
        /// The value a nil becomes on the way (the default of a required attribute).
        var nilBecomes: SQLiteValue?
    }

    /// A relationship carried from the source version to the head.
    struct CarriedRelationship {
        var head: String
        var source: String
        /// Ordered in every version on the way, so its order is kept too.
        var ordered: Bool
    }

    /// The objects of one concrete source entity, followed through the plan.
    struct Stream {
        var sourceEntity: String
        var headEntity: String?
        /// The step that drops the objects, when one does.
        var droppedBy: String?
        /// Some objects may be left out on the way (a filter).
        var filtered = false
        /// A Swift policy makes the objects on the way (any number per source object).
        var policy = false
        /// Objects keep their `_pk` from the source store to the head.
        var keysKept = true
        var attributes: [CarriedAttribute] = []
        var relationships: [CarriedRelationship] = []
    }

    let source: ModelVersion
    let head: ModelVersion
    private(set) var streams: [Stream] = []
    /// For each head table, the source table whose `_pk` its objects keep (absent where keys change).
    private(set) var tableOrigins: [String: String] = [:]

    /// The layouts of the source and head versions.
    let sourceLayout: StoreLayout
    private(set) var headLayout: StoreLayout

    init(plan: MigrationPlan, source: ModelVersion, head: ModelVersion, policies: Set<String>) {
        self.source = source
        self.head = head
        let sourceLayout = StoreLayout(version: source)
        self.sourceLayout = sourceLayout
        headLayout = sourceLayout
        for table in sourceLayout.tables { tableOrigins[table.name] = table.name }
        for entity in source.entities where !entity.isAbstract {
            var stream = Stream(sourceEntity: entity.name, headEntity: entity.name)
            // A derived attribute the store computes follows what it reads, not a value carried.
            stream.attributes = source.attributes(of: entity).filter { $0.isStored && !$0.isComputedByStore }.map {
                CarriedAttribute(head: $0.name, source: $0.name, nilBecomes: nil)
            }
            stream.relationships = sourceLayout.storedRelationships(of: entity).map {
                CarriedRelationship(head: $0.name, source: $0.name, ordered: $0.isOrdered)
            }
            streams.append(stream)
        }
        for step in plan.steps {
            let next = StoreLayout(version: step.destination)
            follow(step, from: headLayout, to: next, policies: policies)
            headLayout = next
        }
        for index in streams.indices {
            guard let entity = streams[index].headEntity, let table = headLayout.table(forEntity: entity)?.name,
                let origin = sourceLayout.table(forEntity: streams[index].sourceEntity)?.name
            else { continue }
            if tableOrigins[table] != origin { streams[index].keysKept = false }
        }
    }

    /// The source table whose keys a head table keeps, if any.
    func origin(ofHeadTable table: String) -> String? { tableOrigins[table] }

    private mutating func follow(
        _ step: MigrationStep, from sourceLayout: StoreLayout, to destinationLayout: StoreLayout, policies: Set<String>
    ) {
        let keys = KeyPlan(mapping: step.mapping, source: sourceLayout, destination: destinationLayout)
        var origins: [String: String] = [:]
        for table in destinationLayout.tables {
            if case .preserved(let feeder)? = keys.mode(ofDestinationTable: table.name),
                let origin = tableOrigins[feeder]
            {
                origins[table.name] = origin
            }
        }
        tableOrigins = origins
        let name = "\(step.source.name) → \(step.destination.name)"
        var next: [Stream] = []
        for stream in streams {
            guard let current = stream.headEntity else {
                next.append(stream)
                continue
            }
            let mappings = step.mapping.entities.filter { $0.source == current && $0.kind != .add }
            let carried = mappings.filter { $0.destination != nil && $0.kind != .remove }
            if carried.isEmpty {
                var dropped = stream
                dropped.headEntity = nil
                dropped.droppedBy = name
                next.append(dropped)
                continue
            }
            for mapping in carried {
                next.append(
                    follow(stream, through: mapping, step: step, policy: policies.contains(mapping.destination ?? "")))
            }
        }
        streams = next
    }

    private func follow(_ stream: Stream, through mapping: EntityMapping, step: MigrationStep, policy: Bool) -> Stream {
        var result = stream
        result.headEntity = mapping.destination
        result.filtered = stream.filtered || mapping.filter != nil
        result.policy = stream.policy || policy
        guard let sourceEntity = step.source.entity(named: stream.headEntity ?? ""),
            let destinationEntity = step.destination.entity(named: mapping.destination ?? "")
        else {
            result.attributes = []
            result.relationships = []
            return result
        }
        result.attributes = mapping.attributes.compactMap { attributeMapping in
            guard let text = attributeMapping.value?.text, let name = (try? ExpressionParser.parse(text))?.copiedName,
                let before = stream.attributes.first(where: { $0.head == name }),
                let from = step.source.attribute(named: name, in: sourceEntity),
                let to = step.destination.attribute(named: attributeMapping.destination, in: destinationEntity),
                !to.isComputedByStore, Self.keepsValues(from: from.type, to: to.type)
            else { return nil }
            let fallback = to.isOptional ? nil : ModelDefaultValue.stored(for: to)
            return CarriedAttribute(head: to.name, source: before.source, nilBecomes: before.nilBecomes ?? fallback)
        }
        result.relationships = mapping.relationships.compactMap { relationshipMapping in
            guard let name = relationshipMapping.source,
                let before = stream.relationships.first(where: { $0.head == name }),
                let to = step.destination.relationship(named: relationshipMapping.destination, in: destinationEntity)
            else { return nil }
            return CarriedRelationship(head: to.name, source: before.source, ordered: before.ordered && to.isOrdered)
        }
        return result
    }

    /// Whether a stored value of `from` arrives unchanged as `to`: the same type (but a composite, whose
    /// members may differ), or a wider integer.
    static func keepsValues(from: AttributeType, to: AttributeType) -> Bool {
        if from == to { return from != .composite && from != .undefined }
        guard let narrow = from.integerRange, let wide = to.integerRange else { return false }
        return wide.lowerBound <= narrow.lowerBound && wide.upperBound >= narrow.upperBound
    }
}
