import Remodel

/// Data a mapping file discards that the next version still has room for:
/// where inference alone would carry a source entity's objects, an
/// attribute's values or a relationship's links, and the file's mapping
/// drops the objects, computes the attribute without reading that source
/// attribute, or rebuilds the relationship from nothing (or from another one).
///
/// What the model itself removes is dropped on purpose and not reported, nor
/// are names the caller lists as intended (`Entity` or `Entity.property`, at
/// either version of the step), nor destinations made by a Swift policy.
enum MappingDrops {
    static func findings(in plan: MigrationPlan, intended: Set<String>, policies: Set<String>)
        -> [MigrationCheckFailure]
    {
        var findings: [MigrationCheckFailure] = []
        for step in plan.steps where !step.mapping.files.isEmpty {
            let inferred = MappingInference.infer(from: step.source, to: step.destination, modelName: plan.modelName)
            let name = "\(step.source.name) → \(step.destination.name)"
            func isIntended(_ entities: [String?], _ property: String? = nil) -> Bool {
                entities.compactMap { $0 }.contains { entity in
                    intended.contains(entity) || property.map { intended.contains("\(entity).\($0)") } == true
                }
            }
            for expected in inferred.entities where expected.kind == .copy || expected.kind == .transform {
                guard let source = expected.source, let destination = expected.destination else { continue }
                let actual = step.mapping.entities.filter {
                    $0.source == source && $0.destination != nil && $0.kind != .remove
                }
                if actual.isEmpty {
                    if !isIntended([source, destination]) {
                        findings.append(
                            MigrationCheckFailure(
                                step: name, entity: source,
                                message:
                                    "the mapping file drops its objects, though \(step.destination.name) still has \(destination) for them (list \"\(source)\" as an intended change if that is the plan)"
                            ))
                    }
                    continue
                }
                guard let mapping = actual.first(where: { $0.destination == destination }),
                    !policies.contains(destination)
                else { continue }
                findings += attributeDrops(expected, mapping, step: name) { isIntended([source, destination], $0) }
                findings += relationshipDrops(expected, mapping, step: name) { isIntended([source, destination], $0) }
            }
        }
        return findings
    }

    private static func attributeDrops(
        _ expected: EntityMapping, _ actual: EntityMapping, step: String, intended: (String) -> Bool
    ) -> [MigrationCheckFailure] {
        expected.attributes.compactMap { inferred in
            guard let sourceName = inferred.sourceAttribute, let inferredValue = inferred.value,
                let mapping = actual.attribute(inferred.destination), !intended(inferred.destination)
            else { return nil }
            let reads = mapping.value.flatMap { try? ExpressionParser.parse($0.text) }?.sourceNames ?? []
            guard !reads.contains(sourceName) else { return nil }
            let instead = mapping.value.map { "computes it as \($0.text)" } ?? "leaves it empty"
            return MigrationCheckFailure(
                step: step, entity: actual.destination ?? "", property: inferred.destination,
                message:
                    "the mapping file drops the values of \(expected.source ?? "").\(sourceName): inference would carry them (\(inferredValue.text)), the file \(instead) (list \"\(actual.destination ?? "").\(inferred.destination)\" as an intended change if that is the plan)"
            )
        }
    }

    private static func relationshipDrops(
        _ expected: EntityMapping, _ actual: EntityMapping, step: String, intended: (String) -> Bool
    ) -> [MigrationCheckFailure] {
        expected.relationships.compactMap { inferred in
            guard let sourceName = inferred.source, let mapping = actual.relationship(inferred.destination),
                mapping.source != sourceName, !intended(inferred.destination)
            else { return nil }
            let instead = mapping.source.map { "rebuilds it from \($0)" } ?? "leaves it empty"
            return MigrationCheckFailure(
                step: step, entity: actual.destination ?? "", property: inferred.destination,
                message:
                    "the mapping file loses the links of \(expected.source ?? "").\(sourceName): inference would carry them, the file \(instead) (list \"\(actual.destination ?? "").\(inferred.destination)\" as an intended change if that is the plan)"
            )
        }
    }
}
