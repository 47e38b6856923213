/// Checks expressions against the source entity of a mapping and types them.
///
/// For example:
/// ```swift
/// let checker = ExpressionTypeChecker(model: source, entity: person)
/// let checked = try checker.check(try ExpressionParser.parse("$source.firstName + ' ' + $source.lastName"))
/// print(checked.resultType) // String?
/// ```
package struct ExpressionTypeChecker: Sendable {
    /// The model version the source objects belong to.
    package var model: ModelVersion
    /// The entity `$source` is an instance of.
    package var entity: Entity
    /// The type the expression being checked is to have, where it is known (the destination attribute's): the
    /// hints of its mistakes convert on the side that gives it (``textAndNumberHint(_:_:)``).
    var expected: ExpressionType?

    /// Creates a checker for expressions over instances of `entity`.
    package init(model: ModelVersion, entity: Entity) {
        self.model = model
        self.entity = entity
    }

    /// Type-checks an expression.
    /// - Returns: The typed expression, ready to evaluate or compile.
    /// - Throws: ``ExpressionDiagnostic`` for the first type error, naming the entity and the position.
    package func check(_ expression: Expression) throws(ExpressionDiagnostic) -> CheckedExpression {
        let typed = try type(expression)
        return CheckedExpression(expression: expression, resultType: typed.type, warnings: [], node: typed.node)
    }

    /// Parses and type-checks expression text.
    /// - Throws: ``ExpressionDiagnostic`` for the first syntax or type error.
    package func check(_ text: String) throws(ExpressionDiagnostic) -> CheckedExpression {
        try check(try ExpressionParser.parse(text))
    }

    /// Type-checks an expression whose value goes into a destination attribute,
    /// adding the widening conversion the destination's stored encoding needs.
    ///
    /// Accepted: the same type; `Integer` into any integer type (its range is
    /// checked when data is validated), Double, Float or Decimal; Double into
    /// Float; String into URI; `nil` into anything. Anything else is an error
    /// saying which conversion to write. An optional value for a required
    /// attribute is a warning (rule `expression-optional`).
    /// - Parameters:
    ///   - expression: The parsed expression.
    ///   - type: The destination attribute's type.
    ///   - optional: Whether the destination attribute is optional.
    /// - Throws: ``ExpressionDiagnostic`` when the value cannot go into the attribute.
    package func check(
        _ expression: Expression, assignableTo type: AttributeType, optional: Bool
    ) throws(ExpressionDiagnostic) -> CheckedExpression {
        let range = expression.range
        var checked = try expecting(ExpressionType(type)).check(expression)
        let source = checked.resultType.type
        let attribute =
            (["A", "E", "I", "O"].contains(type.rawValue.prefix(1)) ? "an " : "a ") + type.rawValue + " attribute"
        guard let destination = ExpressionType(type) else {
            throw .type("an expression cannot give a value to \(attribute)", at: range)
        }
        switch (source, destination) {
        case _ where source == destination, (.nil, _):
            break
        case (.integer, .double), (.integer, .decimal):
            checked.node = .convert(checked.node, from: .integer, to: destination)
        case (.string, .uri):
            break
        case (_, .string):
            throw .type("cannot assign \(source) to \(attribute); convert with string(…)", at: range)
        case (.double, .integer), (.decimal, .integer):
            throw .type("cannot assign \(source) to \(attribute); convert with int(…)", at: range)
        case (.decimal, .double):
            throw .type("cannot assign Decimal to \(attribute); convert with double(…)", at: range)
        case (.double, .decimal):
            throw .type("cannot assign Double to \(attribute); convert with decimal(…)", at: range)
        case (.string, .integer), (.string, .double), (.string, .decimal):
            let function = destination == .integer ? "int" : destination == .double ? "double" : "decimal"
            throw .type(
                "cannot assign String to \(attribute); convert with \(function)(…) (nil when the text is not a number)",
                at: range)
        default:
            throw .type("cannot assign \(source) to \(attribute)", at: range)
        }
        if checked.resultType.isOptional && !optional {
            checked.warnings.append(
                ExpressionDiagnostic(
                    .warning, rule: .expressionOptional,
                    message: "the value can be nil but the attribute is required; give a default with '?? …'",
                    range: range))
        }
        return checked
    }
}

/// A node with its type, while checking.
struct Typed {
    var node: TypedNode
    var type: ExpressionResultType

    init(_ node: TypedNode, _ type: ExpressionType, optional: Bool) {
        self.node = node
        self.type = ExpressionResultType(type, optional: optional)
    }

    /// The node converted to `target` (a no-op for the same type and for nil).
    func converted(to target: ExpressionType) -> Typed {
        guard type.type != target, type.type != .nil else { return Typed(node, target, optional: type.isOptional) }
        return Typed(.convert(node, from: type.type, to: target), target, optional: type.isOptional)
    }
}

extension ExpressionTypeChecker {
    func type(_ expression: Expression) throws(ExpressionDiagnostic) -> Typed {
        switch expression.kind {
        case .integer(let value): return Typed(.literal(.integer(value)), .integer, optional: false)
        case .double(let value): return Typed(.literal(.real(value)), .double, optional: false)
        case .string(let value): return Typed(.literal(.text(value)), .string, optional: false)
        case .boolean(let value): return Typed(.literal(.integer(value ? 1 : 0)), .boolean, optional: false)
        case .nil: return Typed(.literal(.null), .nil, optional: true)
        case .keyPath(let path): return try keyPath(path)
        case .unary(let op, let operand): return try unary(op, operand, range: expression.range)
        case .binary(let op, let left, let right, let operatorRange):
            return try binary(op, left, right, operatorRange: operatorRange)
        case .conditional(let condition, let then, let otherwise):
            let typedCondition = try expecting(.boolean).type(condition)
            try requireBoolean(typedCondition, condition.range, "the condition of '?:'")
            let (a, b) = try unify(try type(then), try type(otherwise), then.range, otherwise.range) { left, right in
                "the branches of '?:' have different types: \(left) and \(right)" + mismatchHint(left, right)
            }
            return Typed(
                .conditional(typedCondition.node, a.node, b.node), a.type.type,
                optional: typedCondition.type.isOptional || a.type.isOptional || b.type.isOptional)
        case .call(let name, let nameRange, let arguments):
            return try call(name, nameRange: nameRange, arguments: arguments, range: expression.range)
        }
    }

    func requireBoolean(_ typed: Typed, _ range: Range<Int>, _ what: String) throws(ExpressionDiagnostic) {
        guard typed.type.type == .boolean || typed.type.type == .nil else {
            throw .type("\(what) must be Boolean, not \(typed.type.type)", at: range)
        }
    }

    /// Brings two operands to one type (numeric promotion, nil fits anything).
    func unify(
        _ left: Typed, _ right: Typed, _ leftRange: Range<Int>, _ rightRange: Range<Int>,
        message: (ExpressionType, ExpressionType) -> String
    ) throws(ExpressionDiagnostic) -> (Typed, Typed) {
        let l = left.type.type, r = right.type.type
        if l == r { return (left, right) }
        if l == .nil { return (left.converted(to: r), right) }
        if r == .nil { return (left, right.converted(to: l)) }
        if let wider = ExpressionType.widerNumeric(l, r) {
            return (left.converted(to: wider), right.converted(to: wider))
        }
        throw .type(message(l, r), at: leftRange.lowerBound..<rightRange.upperBound)
    }

    func unary(_ op: Expression.UnaryOperator, _ operand: Expression, range: Range<Int>) throws(ExpressionDiagnostic)
        -> Typed
    {
        let typed = try type(operand)
        switch op {
        case .not:
            try requireBoolean(typed, operand.range, "the operand of '!'")
            return Typed(.not(typed.node), .boolean, optional: typed.type.isOptional)
        case .negate:
            let valueType = typed.type.type
            guard valueType.isNumeric else {
                let hint = valueType == .string ? ": convert it with int(…) or double(…)" : ""
                throw .type("cannot negate \(valueType); '-' needs a number\(hint)", at: range)
            }
            return Typed(.negate(valueType, typed.node), valueType, optional: typed.type.isOptional)
        }
    }

    func binary(
        _ op: Expression.BinaryOperator, _ leftExpression: Expression, _ rightExpression: Expression,
        operatorRange: Range<Int>
    ) throws(ExpressionDiagnostic) -> Typed {
        // The operands of a comparison or of `&&`, `||` are not the expression's value: their hints know no type.
        let operands =
            [.and, .or, .equal, .notEqual, .less, .lessOrEqual, .greater, .greaterOrEqual].contains(op)
            ? expecting(nil) : self
        let left = try operands.type(leftExpression), right = try operands.type(rightExpression)
        let l = left.type.type, r = right.type.type
        let optional = left.type.isOptional || right.type.isOptional
        let whole = leftExpression.range.lowerBound..<rightExpression.range.upperBound
        switch op {
        case .and, .or:
            try requireBoolean(left, leftExpression.range, "the left operand of '\(op.rawValue)'")
            try requireBoolean(right, rightExpression.range, "the right operand of '\(op.rawValue)'")
            return Typed(
                op == .and ? .and(left.node, right.node) : .or(left.node, right.node), .boolean, optional: optional)
        case .nilCoalescing:
            let (a, b) = try unify(left, right, leftExpression.range, rightExpression.range) { x, y in
                "the operands of '??' have different types: \(x) and \(y)" + mismatchHint(x, y)
            }
            return Typed(
                .coalesce([a.node, b.node]), a.type.type == .nil ? b.type.type : a.type.type,
                optional: right.type.isOptional)
        case .add where l == .string || r == .string:
            guard l == r || l == .nil || r == .nil else {
                let other = l == .string ? r : l
                let hint =
                    other.isNumeric ? textAndNumberHint(other, .add) : "convert the \(other) with string(…)"
                throw .type("cannot add \(l) and \(r); \(hint)", at: operatorRange)
            }
            return Typed(.concatenate(left.node, right.node), .string, optional: optional)
        case .add, .subtract, .multiply, .divide, .remainder:
            let verb =
                [.add: "add", .subtract: "subtract", .multiply: "multiply", .divide: "divide"][op]
                ?? "take the remainder of"
            let arithmeticType: ExpressionType
            if l == .nil && r == .nil {
                throw .type("cannot \(verb) nil and nil", at: whole)
            } else if l == .nil || r == .nil {
                arithmeticType = l == .nil ? r : l
                guard arithmeticType.isNumeric else {
                    throw .type("cannot \(verb) \(l) and \(r); '\(op.rawValue)' needs numbers", at: operatorRange)
                }
            } else if let wider = ExpressionType.widerNumeric(l, r) {
                arithmeticType = wider
            } else {
                // Text among numbers is read as a number of the other operand's type (Integer between two texts).
                let number = l.isNumeric ? l : r.isNumeric ? r : .integer
                let hint =
                    (l == .string && (r.isNumeric || r == .string)) || (r == .string && l.isNumeric)
                    ? ": convert \(l == r ? "each String" : "the String") with \(textConversion(beside: number))(…) (nil when the text is not a number)"
                    : ""
                throw .type(
                    "cannot \(verb) \(l) and \(r); '\(op.rawValue)' needs numbers\(hint)", at: operatorRange)
            }
            if op == .remainder && arithmeticType == .decimal {
                throw .type("'%' is not defined for Decimal; convert with int(…) or double(…)", at: operatorRange)
            }
            let operator_ = ArithmeticOperator(rawValue: op.rawValue) ?? .add
            return Typed(
                .arithmetic(
                    operator_, arithmeticType, left.converted(to: arithmeticType).node,
                    right.converted(to: arithmeticType).node),
                arithmeticType, optional: optional)
        case .equal, .notEqual, .less, .lessOrEqual, .greater, .greaterOrEqual:
            return try comparison(op, left, right, leftExpression, rightExpression, operatorRange: operatorRange)
        }
    }

    func comparison(
        _ op: Expression.BinaryOperator, _ left: Typed, _ right: Typed, _ leftExpression: Expression,
        _ rightExpression: Expression, operatorRange: Range<Int>
    ) throws(ExpressionDiagnostic) -> Typed {
        let comparison = ComparisonOperator(rawValue: op.rawValue) ?? .equal
        let l = left.type.type, r = right.type.type
        if l == .nil || r == .nil {
            guard op == .equal || op == .notEqual else {
                throw .type(
                    "'\(op.rawValue)' cannot compare with nil; only '==' and '!=' test for nil", at: operatorRange)
            }
            let tested = l == .nil ? right : left
            return Typed(.isNil(tested.node, negated: op == .notEqual), .boolean, optional: false)
        }
        let (a, b) = try unify(left, right, leftExpression.range, rightExpression.range) { x, y in
            "cannot compare \(x) and \(y)" + mismatchHint(x, y, .compare)
        }
        let valueType = a.type.type
        if op != .equal && op != .notEqual {
            guard valueType.isNumeric || valueType == .string || valueType == .date else {
                throw .type(
                    "'\(op.rawValue)' cannot order \(valueType) values; only '==' and '!=' compare them",
                    at: operatorRange)
            }
        }
        return Typed(
            .compare(comparison, valueType, a.node, b.node), .boolean,
            optional: left.type.isOptional || right.type.isOptional)
    }
}
