/// Why an Xcode expression or predicate has no Remodel translation, with the
/// range of the predicate text at fault (`nil` for archived expressions).
struct TranslationRefusal: Error, Sendable, Hashable {
    var message: String
    var range: Range<Int>?
}

/// Translates Xcode's `NSExpression`s into Remodel value-expression text over
/// `$source`: constants, `$source` key paths (with `@count`), Foundation's
/// arithmetic and string functions, the common `NSString`/`NSNumber`
/// methods called through `FUNCTION(…)`, and `TERNARY`. Anything else is
/// refused with its text. Predicates are ``XcodePredicateTranslator``'s.
///
/// The checker, when given (the source entity is known), decides where a
/// comparison can meet nil, so that predicates keep `NSPredicate`'s
/// two-valued logic.
struct XcodeExpressionTranslator {
    /// Type-checks translated text against the source entity; nil when it is not known.
    let checker: ExpressionTypeChecker?

    /// Methods called with `FUNCTION(object, "selector")` and the Remodel function that does the same.
    static let methods: [String: String] = [
        "lowercaseString": "lowercase", "uppercaseString": "uppercase", "stringValue": "string",
        "description": "string",
        "intValue": "int", "integerValue": "int", "longValue": "int", "longLongValue": "int", "shortValue": "int",
        "doubleValue": "double", "floatValue": "double", "decimalValue": "decimal", "length": "length",
    ]

    /// A value expression.
    func value(_ expression: XcodeExpression) throws(TranslationRefusal) -> TranslatedText {
        let range = expression.range
        switch expression.kind {
        case .constant(let constant):
            return TranslatedText(try Self.literal(constant, range: range), from: range)
        case .keyPath(let operand, let path):
            return try keyPath(operand, path, range: range)
        case .variable(let name):
            throw TranslationRefusal(
                message: name == "source"
                    ? "$source alone is the source object, not a value; name one of its attributes ($source.name)"
                    : "the variable $\(name) has no value in Remodel; only $source (the source object) can be read",
                range: range)
        case .evaluatedObject:
            throw TranslationRefusal(
                message: "SELF is an object, not a value; name one of its attributes", range: range)
        case .function(let operand, let selector, let arguments):
            return try function(operand, selector, arguments, range: range)
        case .ternary(let condition, let then, let otherwise):
            var result = TranslatedText("(", from: range)
            result.append(try XcodePredicateTranslator(expressions: self).translate(condition))
            result.append(" ? ", from: range)
            result.append(try value(then))
            result.append(" : ", from: range)
            result.append(try value(otherwise))
            result.append(")", from: nil)
            return result
        case .aggregate:
            throw TranslationRefusal(
                message: "a list {…} is not a single value; Remodel reads lists only after IN or BETWEEN", range: range)
        case .unsupported(let form):
            throw TranslationRefusal(message: "\(form) expressions have no Remodel translation", range: range)
        }
    }

    /// `$source.a.b`, `$source.rel.@count`: from `$source` or (in a predicate) `SELF`.
    private func keyPath(_ operand: XcodeExpression, _ path: String, range: Range<Int>?) throws(TranslationRefusal)
        -> TranslatedText
    {
        switch operand.kind {
        case .variable("source"), .evaluatedObject: break
        case .variable(let name):
            throw TranslationRefusal(
                message: "$\(name).\(path) cannot be read in Remodel; only key paths of $source can", range: range)
        default:
            throw TranslationRefusal(
                message: "the key path .\(path) is applied to \(operand), which Remodel cannot follow", range: range)
        }
        let components = path.split(separator: ".", omittingEmptySubsequences: false).map(String.init)
        for (index, component) in components.enumerated() {
            if component == "@count" && index == components.count - 1 && index > 0 { continue }
            if component.hasPrefix("@") {
                throw TranslationRefusal(
                    message:
                        "the collection operator \(component) has no Remodel translation (only @count, at the end of a path)",
                    range: range)
            }
            guard Self.isName(component) else {
                throw TranslationRefusal(message: "'\(component)' in the key path \(path) is not a name", range: range)
            }
        }
        return TranslatedText("$source." + path, from: range)
    }

    private func function(
        _ operand: XcodeExpression?, _ selector: String, _ arguments: [XcodeExpression], range: Range<Int>?
    ) throws(TranslationRefusal) -> TranslatedText {
        if let operand {
            switch operand.kind {
            case .variable("manager"):
                throw TranslationRefusal(
                    message:
                        "FUNCTION($manager, \"\(selector)\", …) gives destination objects, which only a relationship mapping can take",
                    range: range)
            case .variable("entityPolicy"):
                throw TranslationRefusal(
                    message:
                        "FUNCTION($entityPolicy, \"\(selector)\", …) calls the entity mapping's migration policy class, which is Objective-C or Swift code of the app",
                    range: range)
            default:
                break
            }
            guard let function = Self.methods[selector], arguments.isEmpty else {
                throw TranslationRefusal(message: "the method \(selector) has no Remodel translation", range: range)
            }
            return TranslatedText.wrapping(try value(operand), function + "(", ")", from: range)
        }
        let translated = try arguments.map { (argument) throws(TranslationRefusal) in try value(argument) }
        func arity(_ count: Int) throws(TranslationRefusal) {
            guard translated.count == count else {
                throw TranslationRefusal(
                    message: "\(selector) takes \(count) arguments, not \(translated.count)", range: range)
            }
        }
        switch selector {
        case "add:to:", "from:subtract:", "multiply:by:", "modulus:by:":
            try arity(2)
            let symbol = XcodeExpression.infixOperators[selector] ?? "+"
            return TranslatedText.wrapping(
                TranslatedText.joining(translated, with: " \(symbol) ", from: range), "(", ")", from: range)
        case "divide:by:":
            // NSExpression divides as doubles: 7 / 2 is 3.5.
            try arity(2)
            let parts = translated.map { TranslatedText.wrapping($0, "double(", ")", from: range) }
            return TranslatedText.wrapping(
                TranslatedText.joining(parts, with: " / ", from: range), "(", ")", from: range)
        case "lowercase:", "uppercase:", "length:":
            try arity(1)
            let name = String(selector.dropLast())
            return TranslatedText.wrapping(translated[0], name + "(", ")", from: range)
        case "abs:":
            try arity(1)
            var result = TranslatedText("(", from: range)
            result.append(translated[0])
            result.append(" < 0 ? -", from: range)
            result.append(translated[0])
            result.append(" : ", from: range)
            result.append(translated[0])
            result.append(")", from: nil)
            return result
        case "now":
            try arity(0)
            return TranslatedText("now()", from: range)
        default:
            throw TranslationRefusal(message: "the function \(selector) has no Remodel translation", range: range)
        }
    }

    /// A constant as a Remodel literal.
    static func literal(_ constant: XcodeConstant, range: Range<Int>?) throws(TranslationRefusal) -> String {
        switch constant {
        case .string(let text): return ExpressionLexer.quote(text)
        case .integer(let value): return String(value)
        case .real(let value):
            guard value.isFinite else {
                throw TranslationRefusal(message: "the number \(value) has no Remodel literal", range: range)
            }
            let text = String(value)
            return text.contains(".") || text.contains("e") ? text : text + ".0"
        case .bool(let value): return value ? "true" : "false"
        case .null: return "nil"
        case .date:
            throw TranslationRefusal(
                message: "a date constant (\(constant)) has no Remodel literal; compute it in a migration hook",
                range: range)
        case .data:
            throw TranslationRefusal(message: "a data constant has no Remodel literal", range: range)
        }
    }

    /// Whether text is a Remodel name: letters, digits and `_`, not starting with a digit.
    static func isName(_ text: String) -> Bool {
        SQLName.isIdentifier(text)
    }

    /// Whether a translated expression can be nil (unknown when it does not type-check: then yes).
    func canBeNil(_ text: TranslatedText) -> Bool {
        guard let checker, let checked = try? checker.check(text.text) else { return true }
        return checked.resultType.isOptional
    }

    /// Whether a translated expression is the literal `nil`.
    static func isNilLiteral(_ expression: XcodeExpression) -> Bool {
        if case .constant(.null) = expression.kind { return true }
        return false
    }
}
