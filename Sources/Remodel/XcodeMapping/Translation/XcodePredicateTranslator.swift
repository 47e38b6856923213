/// Translates an `NSPredicate` into a Remodel Boolean expression over
/// `$source`, keeping `NSPredicate`'s two-valued logic: a comparison that
/// meets nil is false (and `nil == nil` is true), never nil, so that `NOT`
/// and `OR` give what Core Data gives.
///
/// Translated: `==` `!=` `<` `<=` `>` `>=` (`=`, `<>`, `=<`, `=>`), `== nil`,
/// `AND`/`OR`/`NOT` (`&&`, `||`, `!`), `TRUEPREDICATE`/`FALSEPREDICATE`,
/// `x IN {a, b}`, `x BETWEEN {a, b}`, `YES`/`NO`, key paths with `@count`.
/// Refused, with the predicate's text: string operators (`BEGINSWITH`,
/// `CONTAINS`, `LIKE`, `MATCHES`…), options such as `[c]`, `ANY`/`ALL`/`NONE`.
///
/// For example, `age >= 18 AND nickname == nil` becomes
/// `(($source.age >= 18) ?? false) && $source.nickname == nil` when `age` is optional.
struct XcodePredicateTranslator {
    let expressions: XcodeExpressionTranslator

    func translate(_ predicate: XcodePredicate) throws(TranslationRefusal) -> TranslatedText {
        let range = predicate.range
        switch predicate.kind {
        case .constant(let value):
            return TranslatedText(value ? "true" : "false", from: range)
        case .and(let parts), .or(let parts):
            let isAnd = if case .and = predicate.kind { true } else { false }
            let translated = try parts.map { (part) throws(TranslationRefusal) in try translate(part) }
            return TranslatedText.wrapping(
                TranslatedText.joining(translated, with: isAnd ? " && " : " || ", from: range), "(", ")", from: range)
        case .not(let inner):
            return TranslatedText.wrapping(try translate(inner), "!(", ")", from: range)
        case .comparison(let left, let comparison, let right, let modifier, let options):
            guard modifier == .direct else {
                throw TranslationRefusal(
                    message:
                        "\(modifier.rawValue) compares every object of a to-many relationship, which a Remodel expression cannot do; count them with @count instead",
                    range: range)
            }
            guard options.isEmpty else {
                throw TranslationRefusal(
                    message:
                        "the options [\(options)] (case or diacritic insensitive) have no Remodel translation; compare lowercase(…) values instead",
                    range: range)
            }
            return try self.comparison(left, comparison, right, range: range)
        case .unsupported(let form):
            throw TranslationRefusal(message: "\(form) predicates have no Remodel translation", range: range)
        }
    }

    private func comparison(
        _ left: XcodeExpression, _ comparison: XcodeComparison, _ right: XcodeExpression, range: Range<Int>?
    ) throws(TranslationRefusal) -> TranslatedText {
        switch comparison {
        case .equal, .notEqual:
            let equal = try equality(left, right, range: range)
            return comparison == .equal ? equal : TranslatedText.wrapping(equal, "!(", ")", from: range)
        case .lessThan, .lessThanOrEqual, .greaterThan, .greaterThanOrEqual:
            return try ordered(
                try expressions.value(left), comparison.symbol, try expressions.value(right), range: range)
        case .in:
            guard case .aggregate(let elements) = right.kind, !elements.isEmpty else {
                throw TranslationRefusal(
                    message: "IN is translated only with a list of values, such as x IN {1, 2}", range: range)
            }
            let parts = try elements.map { (element) throws(TranslationRefusal) in
                try equality(left, element, range: range)
            }
            return TranslatedText.wrapping(
                TranslatedText.joining(parts, with: " || ", from: range), "(", ")", from: range)
        case .between:
            guard case .aggregate(let bounds) = right.kind, bounds.count == 2 else {
                throw TranslationRefusal(
                    message: "BETWEEN takes a list of two values, such as x BETWEEN {1, 10}", range: range)
            }
            let value = try expressions.value(left)
            let low = try ordered(value, ">=", try expressions.value(bounds[0]), range: range)
            let high = try ordered(value, "<=", try expressions.value(bounds[1]), range: range)
            return TranslatedText.wrapping(
                TranslatedText.joining([low, high], with: " && ", from: range), "(", ")", from: range)
        default:
            throw TranslationRefusal(
                message:
                    "the operator \(comparison.symbol) has no Remodel translation (only ==, !=, <, <=, >, >=, IN and BETWEEN)",
                range: range)
        }
    }

    /// `left == right` as `NSPredicate` decides it: nil equals only nil.
    private func equality(_ left: XcodeExpression, _ right: XcodeExpression, range: Range<Int>?)
        throws(TranslationRefusal) -> TranslatedText
    {
        let leftText = try expressions.value(left), rightText = try expressions.value(right)
        if XcodeExpressionTranslator.isNilLiteral(left) || XcodeExpressionTranslator.isNilLiteral(right) {
            return joined(leftText, " == ", rightText, range: range)
        }
        let leftNil = expressions.canBeNil(leftText), rightNil = expressions.canBeNil(rightText)
        let equal = joined(leftText, " == ", rightText, range: range)
        guard leftNil || rightNil else { return equal }
        var result = TranslatedText.wrapping(equal, "((", ") ?? ", from: range)
        if leftNil && rightNil {
            result.append("(", from: range)
            result.append(joined(leftText, " == ", TranslatedText("nil", from: range), range: range))
            result.append(" && ", from: range)
            result.append(joined(rightText, " == ", TranslatedText("nil", from: range), range: range))
            result.append("))", from: nil)
        } else {
            result.append("false)", from: nil)
        }
        return result
    }

    /// `left op right` for an ordering, false when either side is nil.
    private func ordered(_ left: TranslatedText, _ symbol: String, _ right: TranslatedText, range: Range<Int>?)
        throws(TranslationRefusal) -> TranslatedText
    {
        let comparison = joined(left, " \(symbol) ", right, range: range)
        guard expressions.canBeNil(left) || expressions.canBeNil(right) else { return comparison }
        return TranslatedText.wrapping(comparison, "((", ") ?? false)", from: range)
    }

    private func joined(_ left: TranslatedText, _ symbol: String, _ right: TranslatedText, range: Range<Int>?)
        -> TranslatedText
    {
        TranslatedText.joining([left, right], with: symbol, from: range)
    }
}
