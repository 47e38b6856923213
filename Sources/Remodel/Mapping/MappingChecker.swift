/// Type-checks every expression of a mapping against both versions, so a
/// mistake is a diagnostic with line and column, never a failure halfway
/// through a store.
public enum MappingChecker {
    /// The problems of every value and filter expression of a mapping, with positions in its file.
    ///
    /// For example:
    /// ```swift
    /// let diagnostics = MappingChecker.diagnostics(for: mapping, source: v1, destination: v2)
    /// ```
    public static func diagnostics(for mapping: MappingModel, source: ModelVersion, destination: ModelVersion) -> [Diagnostic] {
        var diagnostics: [Diagnostic] = []
        for entity in mapping.entities {
            guard let sourceName = entity.source, let destinationName = entity.destination,
                let sourceEntity = source.entity(named: sourceName),
                let destinationEntity = destination.entity(named: destinationName)
            else { continue }
            let checker = ExpressionTypeChecker(model: source, entity: sourceEntity)
            if let filter = entity.filter {
                do {
                    let checked = try checker.check(try ExpressionParser.parse(filter.text))
                    let type = checked.resultType.type
                    if type != .boolean && type != .nil {
                        diagnostics.append(
                            diagnostic(
                                "a filter must be true or false, but this is \(type); compare it, for example `… > 0`",
                                rule: "mapping-filter-type", expression: filter, offset: 0, entity: destinationName))
                    }
                } catch {
                    diagnostics.append(diagnostic(error.message, rule: error.rule, expression: filter, offset: error.range.lowerBound, entity: destinationName))
                }
            }
            for attributeMapping in entity.attributes {
                guard let value = attributeMapping.value,
                    let attribute = destination.attribute(named: attributeMapping.destination, in: destinationEntity)
                else { continue }
                if let sourceAttribute = attributeMapping.sourceAttribute, value.text == "$source.\(sourceAttribute)" { continue }
                do {
                    _ = try checker.check(try ExpressionParser.parse(value.text), assignableTo: attribute.type, optional: attribute.isOptional)
                } catch {
                    diagnostics.append(
                        diagnostic(
                            "\(destinationName).\(attribute.name): \(error.message)", rule: error.rule, expression: value,
                            offset: error.range.lowerBound, entity: destinationName))
                }
            }
        }
        return diagnostics
    }

    private static func diagnostic(_ message: String, rule: String, expression: ValueExpression, offset: Int, entity: String) -> Diagnostic {
        Diagnostic(
            .error, rule: rule, message: message,
            at: expression.location(atOffset: offset) ?? SourceLocation(file: "(inferred mapping of \(entity))", line: 1, column: 1 + offset))
    }
}
