/// Type-checks every expression of a mapping against both versions, so a
/// mistake is a diagnostic with line and column, never a failure halfway
/// through a store.
package enum MappingChecker {
    /// The type-checked expressions of one entity mapping: what a migration compiles to SQL, checked once.
    package struct CheckedEntityMapping: Sendable {
        /// The filter, when the mapping has one.
        package var filter: CheckedExpression?
        /// The values computed by an expression, by destination attribute (a value copied as it is from the
        /// source attribute of its mapping has none: it needs no check).
        package var values: [String: CheckedExpression] = [:]
    }

    /// The problems of every value and filter expression of a mapping, with positions in its file.
    ///
    /// For example:
    /// ```swift
    /// let diagnostics = MappingChecker.diagnostics(for: mapping, source: v1, destination: v2)
    /// ```
    package static func diagnostics(for mapping: MappingModel, source: ModelVersion, destination: ModelVersion)
        -> [Diagnostic]
    {
        check(mapping, source: source, destination: destination).diagnostics
    }

    /// Type-checks every value and filter expression of a mapping: the problems, with positions in its file, and
    /// what checked, by the entity mapping's position in the mapping.
    package static func check(_ mapping: MappingModel, source: ModelVersion, destination: ModelVersion) -> (
        diagnostics: [Diagnostic], checked: [Int: CheckedEntityMapping]
    ) {
        var diagnostics: [Diagnostic] = []
        var checkedMappings: [Int: CheckedEntityMapping] = [:]
        let probe = SQLProbe()
        for (index, entity) in mapping.entities.enumerated() {
            var checkedMapping = CheckedEntityMapping()
            defer {
                if checkedMapping.filter != nil || !checkedMapping.values.isEmpty {
                    checkedMappings[index] = checkedMapping
                }
            }
            guard let sourceName = entity.source, let destinationName = entity.destination,
                let sourceEntity = source.entity(named: sourceName),
                let destinationEntity = destination.entity(named: destinationName)
            else { continue }
            let checker = ExpressionTypeChecker(model: source, entity: sourceEntity)
            if let filter = entity.filter {
                do {
                    let checked = try checker.check(try ExpressionParser.parse(filter.text))
                    checkedMapping.filter = checked
                    if let problem = probe.problem(with: checked) {
                        diagnostics.append(
                            diagnostic(
                                problem, rule: .expressionTooDeep, expression: filter, offset: 0,
                                entity: destinationName))
                    }
                    let type = checked.resultType.type
                    if type != .boolean && type != .nil {
                        diagnostics.append(
                            diagnostic(
                                "a filter must be true or false, but this is \(type); compare it, for example `… > 0`",
                                rule: .mappingFilterType, expression: filter, offset: 0, entity: destinationName))
                    }
                } catch {
                    diagnostics.append(
                        diagnostic(
                            error.message, rule: error.rule, expression: filter, offset: error.range.lowerBound,
                            entity: destinationName))
                }
            }
            for attributeMapping in entity.attributes {
                // A value copied as it is has nothing to check (most of them, in a long history).
                guard let value = attributeMapping.value,
                    attributeMapping.sourceAttribute.map({ value.text != "$source.\($0)" }) ?? true,
                    let attribute = destination.attribute(named: attributeMapping.destination, in: destinationEntity)
                else { continue }
                do {
                    let checked = try checker.check(
                        try ExpressionParser.parse(value.text), assignableTo: attribute.type,
                        optional: attribute.isOptional)
                    checkedMapping.values[attributeMapping.destination] = checked
                    // A required attribute with a default takes it in a nil's place; one without refuses the nil.
                    for warning in checked.warnings
                    where warning.rule != .expressionOptional || ModelDefaultValue.stored(for: attribute) == nil {
                        diagnostics.append(
                            diagnostic(
                                "\(destinationName).\(attribute.name): \(warning.message)", rule: warning.rule,
                                expression: value, offset: warning.range.lowerBound, entity: destinationName,
                                severity: .warning))
                    }
                    if let problem = probe.problem(with: checked) {
                        diagnostics.append(
                            diagnostic(
                                "\(destinationName).\(attribute.name): \(problem)", rule: .expressionTooDeep,
                                expression: value,
                                offset: 0, entity: destinationName))
                    }
                } catch {
                    diagnostics.append(
                        diagnostic(
                            "\(destinationName).\(attribute.name): \(error.message)", rule: error.rule,
                            expression: value,
                            offset: error.range.lowerBound, entity: destinationName))
                }
            }
            diagnostics += sourceObjectDiagnostics(
                entity, in: mapping, sourceName: sourceName, destinationEntity: destinationEntity,
                destination: destination)
        }
        return (diagnostics, checkedMappings)
    }

    /// A relationship rebuilt from `$source` links to the object another entity mapping makes from the same
    /// source object: one must make an object of the relationship's destination entity from this source
    /// entity, else the links would read keys of another table.
    private static func sourceObjectDiagnostics(
        _ entity: EntityMapping, in mapping: MappingModel, sourceName: String, destinationEntity: Entity,
        destination: ModelVersion
    ) -> [Diagnostic] {
        var diagnostics: [Diagnostic] = []
        for relationshipMapping in entity.relationships where relationshipMapping.readsSourceObject {
            guard
                let relationship = destination.relationship(
                    named: relationshipMapping.destination, in: destinationEntity),
                let target = relationship.destinationEntity
            else { continue }
            let made = mapping.entities.contains { other in
                guard other.source == sourceName, let name = other.destination,
                    let made = destination.entity(named: name)
                else { return false }
                return destination.entity(made, isKindOf: target)
            }
            guard !made else { continue }
            let location: SourceLocation
            if case .explicit(let explicit) = relationshipMapping.provenance {
                location = explicit
            } else {
                location = SourceLocation(file: "(inferred mapping of \(destinationEntity.name))", line: 1, column: 1)
            }
            diagnostics.append(
                Diagnostic(
                    .error, rule: .mappingSourceObject,
                    message:
                        "\(destinationEntity.name).\(relationship.name) is rebuilt from $source, the object made from the same \(sourceName) object, but no entity mapping makes a \(target) from \(sourceName); map \(sourceName) to \(target) as well (an entity split in two), or rebuild it from a relationship of \(sourceName)",
                    at: location))
        }
        return diagnostics
    }

    private static func diagnostic(
        _ message: String, rule: DiagnosticRule, expression: ValueExpression, offset: Int, entity: String,
        severity: Severity = .error
    ) -> Diagnostic {
        let translated =
            expression.origin.map { " (in \(expression.text), translated from the Xcode expression \($0.original))" }
            ?? ""
        return Diagnostic(
            severity, rule: rule, message: message + translated,
            at: expression.location(atOffset: offset)
                ?? SourceLocation(file: "(inferred mapping of \(entity))", line: 1, column: 1 + offset))
    }
}

/// Prepares the SQL an expression compiles to on an in-memory database, to find
/// what SQLite itself would refuse (its parser allows about 20 levels of nested
/// calls and operators, far fewer than the expression parser) before a migration runs.
final class SQLProbe {
    private lazy var connection: SQLiteConnection? = {
        guard let connection = try? SQLiteConnection(path: ":memory:"),
            (try? ExpressionFunctions.register(on: connection)) != nil
        else { return nil }
        return connection
    }()

    /// Stands in for the source store: paths become nested subqueries, as they do in a migration.
    private struct Context: ExpressionSQLContext {
        func attributeSQL(_ attribute: String, through relationships: [String]) -> String {
            relationships.reduce("NULL") { inner, _ in "(SELECT \(inner))" }
        }

        func countSQL(of relationship: String, through relationships: [String]) -> String {
            relationships.reduce("(SELECT count(*))") { inner, _ in "(SELECT \(inner))" }
        }
    }

    /// Why SQLite cannot run the expression, or nil when it can.
    func problem(with expression: CheckedExpression) -> String? {
        guard let connection else { return nil }
        let compiled = ExpressionSQLCompiler().compile(expression, context: Context())
        do {
            _ = try connection.prepare("SELECT " + compiled.sql)
            return nil
        } catch  where error.message.contains("parser stack overflow") || error.message.contains("too deep") {
            return
                "the expression nests too deeply for SQLite, which runs it (about 20 levels of nested operators and calls at most); split it into simpler parts, or compute it in a migration hook"
        } catch {
            return nil
        }
    }
}
