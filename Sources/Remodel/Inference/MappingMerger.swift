/// Applies one mapping file's rules to the inferred mapping of its step.
struct MappingMerger {
    let file: MappingFile
    let source: ModelVersion
    let destination: ModelVersion
    let modelName: String
    private(set) var diagnostics: [Diagnostic] = []

    init(file: MappingFile, source: ModelVersion, destination: ModelVersion, modelName: String) {
        self.file = file
        self.source = source
        self.destination = destination
        self.modelName = modelName
    }

    mutating func merge() -> MappingModel {
        var inference = EntityInference(source: source, destination: destination)
        var entities = inference.entityMappings()
        for rule in file.entities {
            apply(rule, to: &entities, inference: &inference)
        }
        for entity in entities {
            var location = file.source.location
            if case .explicit(let written) = entity.provenance { location = written }
            for problem in entity.problems {
                diagnostics.append(
                    Diagnostic(.error, rule: .mappingIncomplete, message: problem.description, at: location))
            }
        }
        return MappingModel(
            modelName: modelName, sourceVersion: source.name, destinationVersion: destination.name,
            entities: entities, files: [file.path])
    }

    private mutating func apply(
        _ rule: MappingFile.EntityRule, to entities: inout [EntityMapping], inference: inout EntityInference
    ) {
        let explicit = Provenance.explicit(rule.source.location)
        let sourceEntity = rule.sourceEntity.flatMap { name in
            lookUp(name, in: source, rule: rule, attribute: "source", side: "source")
        }
        let destinationEntity = rule.destinationEntity.flatMap { name in
            lookUp(name, in: destination, rule: rule, attribute: "destination", side: "destination")
        }
        if (rule.sourceEntity != nil && sourceEntity == nil)
            || (rule.destinationEntity != nil && destinationEntity == nil)
        {
            return
        }
        // Inferred mappings give way to the file's; the file's own mappings all stay (several may fill one
        // destination entity: Cat and Dog into Pet, or Task into Task twice under complementary filters).
        switch (sourceEntity, destinationEntity) {
        case (let from?, nil):
            reportConflicts(
                rule, with: entities.filter { $0.provenance.isExplicit && $0.source == from.name && $0.kind != .remove }
            ) {
                "\(from.name) is removed here but mapped to \($0.destination ?? "?")"
            }
            entities.removeAll { !$0.provenance.isExplicit && $0.source == from.name }
            entities.append(EntityMapping(kind: .remove, source: from.name, destination: nil, provenance: explicit))
        case (nil, let to?):
            reportConflicts(rule, with: entities.filter { $0.provenance.isExplicit && $0.destination == to.name }) {
                "\(to.name) is added empty here but filled from \($0.source ?? "?")"
            }
            entities.removeAll { !$0.provenance.isExplicit && $0.destination == to.name }
            var mapping = inference.newEntityMapping(to)
            mapping.provenance = explicit
            entities.append(applyProperties(rule, to: mapping, destinationEntity: to, sourceEntity: nil))
        case (let from?, let to?):
            var mapping = inference.mapping(from: from, to: to, provenance: explicit)
            mapping.kind = .transform
            mapping.filter = rule.filter
            mapping = applyProperties(rule, to: mapping, destinationEntity: to, sourceEntity: from)
            let twins = entities.filter {
                $0.provenance.isExplicit && $0.source == from.name && $0.destination == to.name
                    && $0.filter?.text == rule.filter?.text
            }
            reportConflicts(rule, with: twins) { _ in
                let filter = rule.filter == nil ? "no filter" : "the same filter"
                return
                    "\(from.name) → \(to.name) is mapped twice with \(filter), so every object would arrive twice; give each a filter that tells them apart, or remove one"
            }
            reportConflicts(
                rule, with: entities.filter { $0.provenance.isExplicit && $0.kind == .remove && $0.source == from.name }
            ) {
                _ in "\(from.name) is mapped to \(to.name) here but removed"
            }
            entities.removeAll {
                !$0.provenance.isExplicit
                    && (($0.destination == to.name && $0.source != from.name)
                        || ($0.source == from.name && $0.kind == .remove))
            }
            if let index = entities.firstIndex(where: {
                !$0.provenance.isExplicit && $0.source == from.name && $0.destination == to.name
            }) {
                entities[index] = mapping
            } else {
                entities.append(mapping)
            }
        case (nil, nil):
            return
        }
    }

    /// One `mapping-conflict` error per earlier entity mapping of the file that `rule` contradicts, naming both places.
    private mutating func reportConflicts(
        _ rule: MappingFile.EntityRule, with earlier: [EntityMapping], _ message: (EntityMapping) -> String
    ) {
        for mapping in earlier {
            guard case .explicit(let first) = mapping.provenance else { continue }
            diagnostics.append(
                Diagnostic(
                    .error, rule: .mappingConflict,
                    message:
                        "\(message(mapping)) (the other entity mapping is at line \(first.line), column \(first.column))",
                    at: rule.source.location))
        }
    }

    private mutating func lookUp(
        _ name: String, in version: ModelVersion, rule: MappingFile.EntityRule, attribute: String, side: String
    ) -> Entity? {
        if let entity = version.entity(named: name) { return entity }
        let hint = Suggestion.didYouMean(name, among: version.entities.map(\.name))
        diagnostics.append(
            Diagnostic(
                .error, rule: .mappingUnknownEntity,
                message: "the \(side) version '\(version.name)' has no entity '\(name)'\(hint)",
                at: rule.source.location(of: attribute)))
        return nil
    }

    private mutating func applyProperties(
        _ rule: MappingFile.EntityRule, to mapping: EntityMapping, destinationEntity: Entity, sourceEntity: Entity?
    ) -> EntityMapping {
        var mapping = mapping
        var seen: [String: SourceLocation] = [:]
        for attributeRule in rule.attributes {
            let name = attributeRule.name
            if let first = seen[name] {
                diagnostics.append(
                    Diagnostic(
                        .error, rule: .mappingDuplicateAttribute,
                        message:
                            "\(destinationEntity.name).\(name) is given twice; the first value is at line \(first.line), column \(first.column): keep one",
                        at: attributeRule.source.location(of: "name")))
                continue
            }
            seen[name] = attributeRule.source.location
            guard let attribute = destination.attribute(named: name, in: destinationEntity), attribute.isStored else {
                let names = destination.attributes(of: destinationEntity).filter(\.isStored).map(\.name)
                diagnostics.append(
                    Diagnostic(
                        .error, rule: .mappingUnknownAttribute,
                        message:
                            "\(destinationEntity.name) in '\(destination.name)' has no stored attribute '\(name)'\(Suggestion.didYouMean(name, among: names))",
                        at: attributeRule.source.location(of: "name")))
                continue
            }
            if attribute.isComputedByStore {
                diagnostics.append(
                    Diagnostic(
                        .error, rule: .mappingDerivedAttribute,
                        message:
                            "\(destinationEntity.name).\(name) is derived (\(attribute.derivation?.text ?? "")): the store computes it, so a mapping gives it no value; remove this line",
                        at: attributeRule.source.location(of: "name")))
                continue
            }
            let replacement = AttributeMapping(
                destination: name, value: attributeRule.value, provenance: .explicit(attributeRule.source.location))
            if let index = mapping.attributes.firstIndex(where: { $0.destination == name }) {
                mapping.attributes[index] = replacement
            } else {
                mapping.attributes.append(replacement)
            }
            mapping.problems.removeAll { $0.property == name }
        }
        for relationshipRule in rule.relationships {
            let name = relationshipRule.name
            guard destination.relationship(named: name, in: destinationEntity) != nil else {
                let names = destination.relationships(of: destinationEntity).map(\.name)
                diagnostics.append(
                    Diagnostic(
                        .error, rule: .mappingUnknownRelationship,
                        message:
                            "\(destinationEntity.name) in '\(destination.name)' has no relationship '\(name)'\(Suggestion.didYouMean(name, among: names))",
                        at: relationshipRule.source.location(of: "name")))
                continue
            }
            if let sourceName = relationshipRule.sourceRelationship, let sourceEntity,
                sourceName != RelationshipMapping.sourceObject,
                source.relationship(named: sourceName, in: sourceEntity) == nil
            {
                let names = source.relationships(of: sourceEntity).map(\.name)
                diagnostics.append(
                    Diagnostic(
                        .error, rule: .mappingUnknownRelationship,
                        message:
                            "\(sourceEntity.name) in '\(source.name)' has no relationship '\(sourceName)'\(Suggestion.didYouMean(sourceName, among: names))",
                        at: relationshipRule.source.location(of: "source")))
                continue
            }
            let replacement = RelationshipMapping(
                destination: name, source: relationshipRule.sourceRelationship,
                provenance: .explicit(relationshipRule.source.location))
            if let index = mapping.relationships.firstIndex(where: { $0.destination == name }) {
                mapping.relationships[index] = replacement
            }
            mapping.problems.removeAll { $0.property == name }
        }
        return mapping
    }
}
