/// The text of an `NSExpression` or `NSPredicate` archived in a keyed archive, in Foundation's format
/// syntax (`uppercase:(name)`, `books.@count`, `age > 17`), read by ``XcodeExpressionDecoder``: how a
/// compiled model's derived attributes, partial-index predicates and fetch requests are read back.
///
/// For example:
/// ```swift
/// if case .text(let text) = ArchivedExpressionText.expression(value) { print(text) }   // books.@count
/// ```
package enum ArchivedExpressionText: Sendable, Hashable {
    /// The expression's text.
    case text(String)
    /// A class Remodel does not read, by name (`NSSubqueryExpression`): not damage, the bytes are fine.
    case unread(String)
    /// Bytes that are not an expression (a reference to nothing, a missing part): what is wrong.
    case damaged(String)

    /// The text of an archived `NSExpression`.
    package static func expression(_ value: ArchivedValue) -> ArchivedExpressionText {
        do {
            let expression = try XcodeExpressionDecoder.expression(value, depth: 0)
            if let form = expression.unsupportedForm { return .unread(form) }
            return .text(expression.description)
        } catch {
            return .damaged(error.message)
        }
    }

    /// The text of an archived `NSPredicate`.
    package static func predicate(_ value: ArchivedValue) -> ArchivedExpressionText {
        do {
            let predicate = try XcodeExpressionDecoder.predicate(value, depth: 0)
            if let form = predicate.unsupportedForm { return .unread(form) }
            return .text(predicate.description)
        } catch {
            return .damaged(error.message)
        }
    }
}

extension XcodeExpression {
    /// The first class or form in the expression Remodel does not read, if any.
    var unsupportedForm: String? {
        switch kind {
        case .constant, .evaluatedObject, .variable: return nil
        case .keyPath(let operand, _): return operand.unsupportedForm
        case .function(let operand, _, let arguments):
            return operand?.unsupportedForm ?? arguments.lazy.compactMap(\.unsupportedForm).first
        case .aggregate(let elements): return elements.lazy.compactMap(\.unsupportedForm).first
        case .ternary(let predicate, let then, let otherwise):
            return predicate.unsupportedForm ?? then.unsupportedForm ?? otherwise.unsupportedForm
        case .unsupported(let form): return form
        }
    }
}

extension XcodePredicate {
    /// The first class or form in the predicate Remodel does not read, if any.
    var unsupportedForm: String? {
        switch kind {
        case .constant: return nil
        case .comparison(let left, _, let right, _, _): return left.unsupportedForm ?? right.unsupportedForm
        case .and(let parts), .or(let parts): return parts.lazy.compactMap(\.unsupportedForm).first
        case .not(let inner): return inner.unsupportedForm
        case .unsupported(let form): return form
        }
    }
}
