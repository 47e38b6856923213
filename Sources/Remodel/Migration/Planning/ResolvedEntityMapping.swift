/// One entity mapping of a step that carries objects, resolved once against both versions: its entities
/// and the tables they are stored in. Every phase of the step works through these instead of looking the
/// names up again.
struct ResolvedEntityMapping {
    /// The mapping's position in the step's mapping (what the key table records as `mapping`).
    let index: Int
    /// The step's mapping and versions, shared by its resolved mappings: a plan holds one resolved mapping per
    /// entity and step, and each holding its mapping and both entities inline took 3.9 MiB of a 95-step chain.
    private let step: Step
    private let sourcePosition: Int
    private let destinationPosition: Int
    var mapping: EntityMapping { step.mapping.entities[index] }
    var sourceEntity: Entity { step.source.entities[sourcePosition] }
    var destinationEntity: Entity { step.destination.entities[destinationPosition] }
    /// The tables of the two entities' hierarchies.
    let sourceTable: String
    let destinationTable: String
    /// The filter and the computed values, type-checked at planning (``MappingChecker``): phase 1 compiles them.
    /// Kept by reference: most mappings of a long history have none, and a plan holds one per entity and step.
    private var checked: CheckedExpressions?

    var checkedFilter: CheckedExpression? { checked?.expressions.filter }
    var checkedValues: [String: CheckedExpression] { checked?.expressions.values ?? [:] }

    /// The source column an attribute's value is copied from as it is, when its expression is the source attribute
    /// alone (`$source.name`): nothing to compute, and nothing a conversion could turn into nil.
    func copiedColumn(of attributeMapping: AttributeMapping, layout: StoreLayout) -> String? {
        guard let sourceName = attributeMapping.sourceAttribute, attributeMapping.value?.text == "$source.\(sourceName)"
        else { return nil }
        return layout.columnName(of: sourceName, in: sourceEntity.name)
    }

    /// Carries its expressions as planning checked them.
    mutating func carry(_ expressions: MappingChecker.CheckedEntityMapping) {
        checked = CheckedExpressions(expressions: expressions)
    }

    /// What a step's resolved mappings point into.
    private final class Step: Sendable {
        let mapping: MappingModel
        let source: ModelVersion
        let destination: ModelVersion

        init(mapping: MappingModel, source: ModelVersion, destination: ModelVersion) {
            self.mapping = mapping
            self.source = source
            self.destination = destination
        }
    }

    /// Checked expressions, shared by the copies of a resolved mapping.
    private final class CheckedExpressions: Sendable {
        let expressions: MappingChecker.CheckedEntityMapping
        init(expressions: MappingChecker.CheckedEntityMapping) { self.expressions = expressions }
    }

    /// The step's entity mappings that have a source and a destination entity, both with tables, in order.
    static func resolve(_ mapping: MappingModel, source: StoreLayout, destination: StoreLayout)
        -> [ResolvedEntityMapping]
    {
        let step = Step(mapping: mapping, source: source.version, destination: destination.version)
        return mapping.entities.enumerated().compactMap { index, entityMapping in
            guard let from = entityMapping.source, let to = entityMapping.destination,
                let sourcePosition = source.version.position(ofEntity: from),
                let destinationPosition = destination.version.position(ofEntity: to),
                let sourceTable = source.table(forEntity: from)?.name,
                let destinationTable = destination.table(forEntity: to)?.name
            else { return nil }
            return ResolvedEntityMapping(
                index: index, step: step, sourcePosition: sourcePosition, destinationPosition: destinationPosition,
                sourceTable: sourceTable, destinationTable: destinationTable)
        }
    }
}

/// A to-one column phase 1 filled with the source column's keys as they are: phase 2 removes its links to
/// objects that did not arrive.
struct CopiedToOneColumn {
    /// The entity mapping whose objects got the keys (``ResolvedEntityMapping/index``).
    var mappingIndex: Int
    var table: String
    var column: String
    var relationship: Relationship
}
