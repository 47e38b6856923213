/// A derived attribute's expression as a compiled model archives it (`NSDerivationExpression` of an
/// `NSDerivedAttributeDescription`), written back as Xcode writes it in a `contents` file: Core Data turns
/// `books.@count` into `count:(books)` and `books.pages.@sum` into `sum:(books.pages)`, which read back here as the
/// key path forms (docs/MODELS.md, "Derived attributes").
package enum ArchivedDerivation {
    /// The expression under `NSDerivationExpression` of an archived derived attribute, as text; nil when the
    /// object has none or it cannot be read (a damaged archive: the attribute is then left plain).
    package static func text(of object: ArchivedObject) -> String? {
        guard let value = try? object.value("NSDerivationExpression"),
            let expression = try? XcodeExpressionDecoder.expression(value, depth: 0)
        else { return nil }
        return expression.derivationText
    }
}

extension XcodeExpression {
    /// The expression as a derivation: a key path, `lowercase:(…)` and the like, an aggregate in key path form, or
    /// `now()`; anything else in `NSExpression` format (validate names what Remodel does not compute).
    var derivationText: String {
        switch kind {
        case .keyPath(let operand, let path):
            if case .evaluatedObject = operand.kind { return path }
        case .function(_, let selector, let arguments):
            let path = arguments.count == 1 ? arguments[0].ownKeyPath : nil
            switch (selector, path) {
            case ("now", _) where arguments.isEmpty: return "now()"
            case ("lowercase:", let path?), ("uppercase:", let path?), ("canonical:", let path?):
                return "\(selector)(\(path))"
            case ("count:", let path?): return "\(path).@count"
            case ("sum:", let path?): return "\(path).@sum"
            case ("average:", let path?): return "\(path).@avg"
            case ("min:", let path?): return "\(path).@min"
            case ("max:", let path?): return "\(path).@max"
            default: break
            }
        default:
            break
        }
        return description
    }

    /// The key path when the expression is one on the object itself (`books.pages`).
    private var ownKeyPath: String? {
        guard case .keyPath(let operand, let path) = kind, case .evaluatedObject = operand.kind else { return nil }
        return path
    }
}
