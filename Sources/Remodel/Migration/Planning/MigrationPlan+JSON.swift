extension MigrationPlan {
    /// The plan as JSON, what ``description`` says in words (docs/JSON.md, "A migration plan"): `model`, `from`,
    /// `to`, `downgrade`, `steps` (each with `from`, `to`, `mappingFiles`, `entities`, `problems`, `drops`), `passes`
    /// (the steps, 1-based, of each pass over the store) and `carried`.
    package func json(passes: [ClosedRange<Int>]) -> JSONDocument {
        .object([
            ("model", .string(modelName)),
            ("from", .string(sourceVersion)),
            ("to", .string(targetVersion)),
            ("downgrade", .bool(isDowngrade)),
            ("steps", .array(steps.map(stepJSON))),
            ("passes", .array(passes.map { .array($0.map(JSONDocument.int)) })),
            ("carried", .array(carried.map(JSONDocument.string))),
        ])
    }

    private func stepJSON(_ step: MigrationStep) -> JSONDocument {
        let drops = losses.filter {
            $0.sourceVersion == step.source.name && $0.destinationVersion == step.destination.name
        }
        return .object([
            ("from", .string(step.source.name)),
            ("to", .string(step.destination.name)),
            ("mappingFiles", .array(step.mapping.files.map(JSONDocument.string))),
            ("entities", .array(step.mapping.entities.map { entityJSON($0, step: step) })),
            ("problems", .array(step.mapping.problems.map { .string($0.description) })),
            (
                "drops",
                .array(
                    drops.map { loss in
                        .object([
                            ("entity", .string(loss.entity)),
                            ("property", loss.property.map(JSONDocument.string) ?? .null),
                            ("count", loss.count.map(JSONDocument.int) ?? .null),
                        ])
                    })
            ),
        ])
    }

    private func entityJSON(_ entity: EntityMapping, step: MigrationStep) -> JSONDocument {
        let attributes = entity.attributes.map { attribute -> JSONDocument in
            let value =
                attribute.value?.text
                ?? Self.writtenDefault(of: attribute, in: entity.destination, version: step.destination)
            return .object([
                ("name", .string(attribute.destination)),
                ("value", .string(value)),
                ("provenance", .string(attribute.provenance.description)),
            ])
        }
        let relationships = entity.relationships.map { relationship -> JSONDocument in
            .object([
                ("name", .string(relationship.destination)),
                ("source", relationship.source.map(JSONDocument.string) ?? .null),
                ("provenance", .string(relationship.provenance.description)),
            ])
        }
        return .object([
            ("source", entity.source.map(JSONDocument.string) ?? .null),
            ("destination", entity.destination.map(JSONDocument.string) ?? .null),
            ("kind", .string(entity.kind.rawValue)),
            ("filter", entity.filter.map { .string($0.text) } ?? .null),
            ("policy", entity.policy.map { .string($0.className) } ?? .null),
            ("provenance", .string(entity.provenance.description)),
            ("attributes", .array(attributes)),
            ("relationships", .array(relationships)),
        ])
    }
}
