extension XcodeMappingConverter {
    /// `sourcefilterpredicatestring` → the rule's `filter`, positions inside the predicate text kept.
    mutating func translate(
        filter: XcodeMappingModel.Text, of entity: XcodeMappingModel.EntityMapping,
        translator: XcodeExpressionTranslator,
        into rule: inout XcodeMappingTranslation.Rule
    ) {
        do {
            let predicate = try XcodePredicateParser.parse(filter.value)
            let text = try XcodePredicateTranslator(expressions: translator).translate(predicate)
            rule.rule.filter = Self.expression(text, original: filter.value) { range in
                filter.location(atOffset: range?.lowerBound ?? 0)
            }
            rule.originals[""] = filter.value
        } catch let failure as XcodePredicateLexer.Failure {
            refuseFilter(filter, of: entity, reason: failure.message, offset: failure.range.lowerBound, into: &rule)
        } catch let refusal as TranslationRefusal {
            refuseFilter(
                filter, of: entity, reason: refusal.message, offset: refusal.range?.lowerBound ?? 0, into: &rule)
        } catch {
            refuseFilter(filter, of: entity, reason: "\(error)", offset: 0, into: &rule)
        }
    }

    private mutating func refuseFilter(
        _ filter: XcodeMappingModel.Text, of entity: XcodeMappingModel.EntityMapping, reason: String, offset: Int,
        into rule: inout XcodeMappingTranslation.Rule
    ) {
        let message =
            "the filter \"\(filter.value)\" of the entity mapping \(entity.name) has no Remodel translation: \(reason)"
        diagnostics.append(
            Diagnostic(.error, rule: .xcodeMappingFilter, message: message, at: filter.location(atOffset: offset)))
        rule.problems.append(
            MappingProblem(
                entity: entity.destination?.value ?? entity.source?.value ?? entity.name, property: nil,
                message: message + "; write the step as a Remodel mapping file with a filter=\"…\""))
        rule.todos.append(
            "the Xcode filter \(filter.value) has no Remodel translation (\(reason)); write filter=\"…\" on the entity")
    }

    /// An attribute mapping's archived expression → an `<attribute>` rule, converted to the attribute's type as Core Data would store it.
    mutating func translate(
        attribute: XcodeMappingModel.PropertyMapping, of entity: XcodeMappingModel.EntityMapping, destination: Entity?,
        translator: XcodeExpressionTranslator, into rule: inout XcodeMappingTranslation.Rule
    ) {
        let name = attribute.name.value
        guard let expression = attribute.expression else {
            refuse(
                attribute, of: entity, reason: attribute.expressionProblem ?? "it cannot be read", original: nil,
                into: &rule)
            return
        }
        do {
            var text = try translator.value(expression)
            if let destination, let target = match.destination.attribute(named: name, in: destination) {
                text = NumberCoercion.coerce(text, into: target, checker: translator.checker)
            }
            let location = attribute.expressionLocation
            rule.rule.attributes.append(
                MappingFile.AttributeRule(
                    name: name, value: Self.expression(text, original: expression.description) { _ in location },
                    source: ElementSource(
                        location: attribute.location,
                        attributeLocations: ["name": attribute.name.start, "value": location])))
            rule.originals[name] = expression.description
        } catch {
            refuse(attribute, of: entity, reason: error.message, original: expression.description, into: &rule)
        }
    }

    /// A relationship mapping's archived expression → a `<relationship>` rule naming the source relationship it reads.
    mutating func translate(
        relationship: XcodeMappingModel.PropertyMapping, of entity: XcodeMappingModel.EntityMapping,
        into rule: inout XcodeMappingTranslation.Rule
    ) {
        guard let expression = relationship.expression else {
            refuse(
                relationship, of: entity, reason: relationship.expressionProblem ?? "it cannot be read", original: nil,
                into: &rule)
            return
        }
        do {
            let translation = try RelationshipTranslation.translate(expression)
            if let named = translation.entityMapping, !model.entities.contains(where: { $0.name == named }) {
                diagnostics.append(
                    Diagnostic(
                        .warning, rule: .xcodeMappingUnknownEntityMapping,
                        message:
                            "\(relationship.name.value) names the entity mapping \(named), which this mapping model does not have; Remodel rebuilds the relationship from \(translation.sourceRelationship ?? "nothing") all the same",
                        at: relationship.expressionLocation))
            }
            rule.rule.relationships.append(
                MappingFile.RelationshipRule(
                    name: relationship.name.value, sourceRelationship: translation.sourceRelationship,
                    source: ElementSource(
                        location: relationship.location,
                        attributeLocations: [
                            "name": relationship.name.start, "source": relationship.expressionLocation,
                        ])))
            rule.originals[relationship.name.value] = expression.description
        } catch {
            refuse(relationship, of: entity, reason: error.message, original: expression.description, into: &rule)
        }
    }

    /// An expression with no translation: an error and a problem, or only a warning when the entity mapping's policy makes the objects.
    private mutating func refuse(
        _ mapping: XcodeMappingModel.PropertyMapping, of entity: XcodeMappingModel.EntityMapping, reason: String,
        original: String?,
        into rule: inout XcodeMappingTranslation.Rule
    ) {
        let name = mapping.name.value
        let shown = original.map { "the Xcode expression \($0)" } ?? "the Xcode expression"
        if let policy = rule.policy {
            diagnostics.append(
                Diagnostic(
                    .warning, rule: .xcodeMappingExpression,
                    message:
                        "\(entity.name).\(name): \(shown) has no Remodel translation (\(reason)); the Swift policy registered for \(policy.className) makes these objects",
                    at: mapping.expressionLocation))
            rule.todos.append("\(name): \(shown) has no Remodel translation (\(reason))")
            return
        }
        let message = "\(shown) has no Remodel translation: \(reason)"
        // An expression that could not be read at all was reported by the reader (xcode-mapping-data).
        if mapping.expressionProblem == nil {
            diagnostics.append(
                Diagnostic(
                    .error, rule: .xcodeMappingExpression, message: "\(entity.name).\(name): \(message)",
                    at: mapping.expressionLocation))
        }
        rule.problems.append(
            MappingProblem(
                entity: entity.destination?.value ?? entity.name, property: name,
                message: message + "; write the step as a Remodel mapping file with a value for it"))
        rule.todos.append("\(name): \(shown) has no Remodel translation (\(reason)); write its value here")
    }

    /// A value expression for translated text, each part's position mapped into `xcmapping.xml`.
    static func expression(
        _ text: TranslatedText, original: String, location: (Range<Int>?) -> SourceLocation
    ) -> ValueExpression {
        var value = ValueExpression(text.text, location: location(nil))
        var marks = text.marks.map { ExpressionOrigin.Mark(offset: $0.offset, location: location($0.origin)) }
        if marks.first?.offset != 0 { marks.insert(ExpressionOrigin.Mark(offset: 0, location: location(nil)), at: 0) }
        value.origin = ExpressionOrigin(original: original, marks: marks)
        return value
    }
}
