/// Turns an Xcode mapping model, matched to two versions of a bundle, into the
/// rules of a Remodel mapping file.
///
/// An Xcode entity mapping becomes an `<entity>` rule when it says something
/// inference does not: a source or destination of another name, an added or
/// removed entity, a filter, a policy class, or an explicit value expression.
/// An attribute or relationship mapping without an expression means Xcode's
/// default (`$source.name`), which is what inference does, so it is left to
/// inference; one with an expression becomes an `<attribute>` or
/// `<relationship>` rule.
struct XcodeMappingConverter {
    let model: XcodeMappingModel
    let match: XcodeVersionMatcher.Match
    let bundle: ModelBundle
    var diagnostics: [Diagnostic] = []

    init(model: XcodeMappingModel, match: XcodeVersionMatcher.Match, bundle: ModelBundle) {
        self.model = model
        self.match = match
        self.bundle = bundle
    }

    mutating func convert() -> XcodeMappingTranslation {
        var rules: [XcodeMappingTranslation.Rule] = []
        for entity in kept() {
            let sourceEntity = entity.source.flatMap { match.source.entity(named: $0.value) }
            let destinationEntity = entity.destination.flatMap { match.destination.entity(named: $0.value) }
            let needsRule =
                entity.isExplicit || entity.source?.value != entity.destination?.value
                || (entity.source != nil && sourceEntity == nil)
                || (entity.destination != nil && destinationEntity == nil)
            if let destinationEntity {
                checkNames(of: entity, in: destinationEntity)
            }
            guard needsRule else { continue }
            rules.append(rule(for: entity, source: sourceEntity, destination: destinationEntity))
        }
        warnAboutUnmappedEntities()
        let file = MappingFile(
            path: model.path, modelName: bundle.name, sourceVersion: match.source.name,
            destinationVersion: match.destination.name,
            entities: rules.map(\.rule),
            source: ElementSource(
                location: model.location,
                attributeLocations: [
                    "sourceVersion": model.source.path?.start ?? model.location,
                    "destinationVersion": model.destination.path?.start ?? model.location,
                ]))
        return XcodeMappingTranslation(model: model, match: match, file: file, rules: rules, diagnostics: diagnostics)
    }

    /// The entity mappings to carry: of two with the same source and destination (one name for Core Data), the one
    /// that says more, else the first; the other gets a warning.
    private mutating func kept() -> [XcodeMappingModel.EntityMapping] {
        var result: [XcodeMappingModel.EntityMapping] = []
        for entity in model.entities {
            guard
                let index = result.firstIndex(where: {
                    $0.source?.value == entity.source?.value && $0.destination?.value == entity.destination?.value
                })
            else {
                result.append(entity)
                continue
            }
            let (keep, drop) =
                !result[index].isExplicit && entity.isExplicit ? (entity, result[index]) : (result[index], entity)
            result[index] = keep
            diagnostics.append(
                Diagnostic(
                    .warning, rule: .xcodeMappingDuplicate,
                    message:
                        "a second entity mapping named \(drop.name); Core Data knows entity mappings by name, so Remodel uses the one at line \(keep.location.line) and ignores this one",
                    at: drop.location))
        }
        return result
    }

    private mutating func rule(
        for entity: XcodeMappingModel.EntityMapping, source: Entity?, destination: Entity?
    ) -> XcodeMappingTranslation.Rule {
        var locations: [String: SourceLocation] = [:]
        locations["source"] = entity.source?.start
        locations["destination"] = entity.destination?.start
        locations["filter"] = entity.filter?.start
        var translated = XcodeMappingTranslation.Rule(
            rule: MappingFile.EntityRule(
                sourceEntity: entity.source?.value, destinationEntity: entity.destination?.value, filter: nil,
                attributes: [],
                relationships: [], source: ElementSource(location: entity.location, attributeLocations: locations)),
            name: entity.name, policy: nil, problems: [], originals: [:], todos: [])
        if let policyClass = entity.policyClass {
            let requirement = PolicyRequirement(
                className: policyClass.value, entityMapping: entity.name, location: policyClass.start)
            translated.policy = requirement
            diagnostics.append(
                Diagnostic(
                    .warning, rule: .xcodeMappingPolicy,
                    message:
                        "the entity mapping \(entity.name) needs a Swift policy named '\(policyClass.value)' (Core Data runs that class here); register an EntityPolicy under that name (MigrationOptions.register(_:forClass:)) before migrating, or write this step as a Remodel mapping file",
                    at: policyClass.start))
            translated.todos.append(
                "Core Data runs the migration policy class \(policyClass.value) for this entity mapping: write what it does as values here, or give Swift code for it (an EntityPolicy for destination \"\(entity.destination?.value ?? "?")\" in MigrationOptions.policies)"
            )
        }
        let checker = source.map { ExpressionTypeChecker(model: match.source, entity: $0) }
        let translator = XcodeExpressionTranslator(checker: checker)
        if let filter = entity.filter {
            translate(filter: filter, of: entity, translator: translator, into: &translated)
        }
        for attribute in entity.attributes where attribute.expression != nil || attribute.expressionProblem != nil {
            translate(
                attribute: attribute, of: entity, destination: destination, translator: translator, into: &translated)
        }
        for relationship in entity.relationships
        where relationship.expression != nil || relationship.expressionProblem != nil {
            translate(relationship: relationship, of: entity, into: &translated)
        }
        return translated
    }

    /// Names that the destination entity does not have, in mappings that are left to inference (the merger checks the others).
    private mutating func checkNames(of entity: XcodeMappingModel.EntityMapping, in destination: Entity) {
        let attributes = match.destination.attributes(of: destination).map(\.name)
        let relationships = match.destination.relationships(of: destination).map(\.name)
        for (mappings, names, kind, rule) in [
            (entity.attributes, attributes, "attribute", "mapping-unknown-attribute"),
            (entity.relationships, relationships, "relationship", "mapping-unknown-relationship"),
        ] {
            for mapping in mappings
            where mapping.expression == nil && mapping.expressionProblem == nil && !names.contains(mapping.name.value) {
                diagnostics.append(
                    Diagnostic(
                        .error, rule: rule,
                        message:
                            "\(destination.name) in '\(match.destination.name)' has no \(kind) '\(mapping.name.value)'\(Suggestion.didYouMean(mapping.name.value, among: names))",
                        at: mapping.name.start))
            }
        }
    }

    /// Core Data drops the objects of a source entity no entity mapping reads; Remodel infers. Say so where they differ.
    private mutating func warnAboutUnmappedEntities() {
        let read = Set(model.entities.compactMap { $0.source?.value })
        for entity in match.source.entities where !entity.isAbstract && !read.contains(entity.name) {
            guard match.destination.entity(named: entity.name) != nil else { continue }
            diagnostics.append(
                Diagnostic(
                    .warning, rule: .xcodeMappingUnmappedEntity,
                    message:
                        "no entity mapping reads \(entity.name), so Core Data would drop its objects in this step; Remodel carries them over as inferred (to drop them, write this step as a Remodel mapping file with <entity source=\"\(entity.name)\"/>)",
                    at: model.location))
        }
    }
}
