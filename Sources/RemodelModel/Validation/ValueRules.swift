import Foundation

/// Rules about written values: defaults, minimums and maximums that parse for
/// the type, bounds in order, and regular expressions that compile.
enum ValueRules {
    static func check(_ version: ModelVersion, into list: inout DiagnosticList, scope: inout EntityScope) {
        for (position, entity) in version.entities.enumerated() {
            let owner = entity.name
            scope.check(position, &list) { list in
                for attribute in entity.attributes {
                    let member = attribute.name
                    check(attribute, named: "\(owner).\(member)", into: &list)
                }
            }
        }
    }

    private static func check(
        _ attribute: Attribute, named name: @autoclosure () -> String, into list: inout DiagnosticList
    ) {
        let type = attribute.type
        let isDate = type == .date
        var minimum: WrittenNumber?
        var maximum: WrittenNumber?
        if let text = attribute.defaultValue, let outcome = AttributeValueParser.parseDefault(text, as: type) {
            let key =
                isDate && attribute.source.attribute("defaultDateTimeInterval") != nil
                ? "defaultDateTimeInterval" : "defaultValueString"
            report(
                outcome, text, what: "default value", rule: .invalidDefaultValue, of: attribute, named: name, at: key,
                into: &list)
        }
        if let text = attribute.minValue, let outcome = AttributeValueParser.parseBound(text, as: type) {
            let key =
                isDate && attribute.source.attribute("minDateTimeInterval") != nil
                ? "minDateTimeInterval" : "minValueString"
            minimum = report(
                outcome, text, what: "minimum", rule: .invalidValueBound, of: attribute, named: name, at: key,
                into: &list)
        }
        if let text = attribute.maxValue, let outcome = AttributeValueParser.parseBound(text, as: type) {
            let key =
                isDate && attribute.source.attribute("maxDateTimeInterval") != nil
                ? "maxDateTimeInterval" : "maxValueString"
            maximum = report(
                outcome, text, what: "maximum", rule: .invalidValueBound, of: attribute, named: name, at: key,
                into: &list)
        }
        if let minimum, let maximum, minimum > maximum, let minText = attribute.minValue,
            let maxText = attribute.maxValue
        {
            let key =
                isDate && attribute.source.attribute("minDateTimeInterval") != nil
                ? "minDateTimeInterval" : "minValueString"
            list.report(
                .minGreaterThanMax,
                "attribute '\(name())' has minimum \(minText), greater than its maximum \(maxText), so no value is valid; swap or correct them",
                at: attribute.source.location(of: key))
        }
        if let pattern = attribute.regularExpression {
            do {
                _ = try NSRegularExpression(pattern: pattern)
            } catch {
                list.report(
                    .invalidRegularExpression,
                    "attribute '\(name())' has regular expression '\(pattern)', which does not compile; correct it (NSRegularExpression syntax)",
                    at: attribute.source.location(of: "regularExpressionString"))
            }
        }
    }

    /// Reports a value that does not parse; returns the comparable value of one that does.
    @discardableResult
    private static func report(
        _ outcome: AttributeValueParser.Outcome, _ text: String, what: String, rule: ValidationRule,
        of attribute: Attribute,
        named name: () -> String, at key: String, into list: inout DiagnosticList
    ) -> WrittenNumber? {
        func location() -> SourceLocation { attribute.source.location(of: key) }
        let typeName = attribute.type.rawValue
        switch outcome {
        case .valid(let comparable):
            return comparable
        case .booleanWord(let number):
            list.report(
                .booleanWordForNumber,
                "\(typeName) attribute '\(name())' has \(what) '\(text)', a Boolean word that Core Data reads as \(number); write \(number) instead",
                at: location())
            return WrittenNumber(Int64(number))
        case .invalid(let expected):
            list.report(
                rule,
                "\(typeName) attribute '\(name())' has \(what) '\(text)', which is not \(expected); correct it or remove it",
                at: location())
            return nil
        }
    }
}
