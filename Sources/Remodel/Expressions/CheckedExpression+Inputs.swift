extension CheckedExpression {
    /// A value an expression reads from its source object: an attribute, or the count of a to-many
    /// relationship, of the object itself or of one reached through to-one relationships.
    package struct Input: Sendable, Hashable {
        /// The attribute or to-many relationship read.
        package var name: String
        /// The to-one relationships on the way (empty: the source object itself).
        package var path: [String]
        /// Whether it is a to-many relationship's `@count`.
        package var isCount: Bool

        /// As the expression writes it: `$source.author.name`, `$source.books.@count`.
        package var text: String {
            "$source." + (path + [name]).joined(separator: ".") + (isCount ? ".@count" : "")
        }
    }

    /// The values the expression reads, each once, in the order it first reads them.
    package var inputs: [Input] {
        var found: [Input] = []
        Self.collectInputs(node, into: &found)
        return found
    }

    /// Whether the expression can give nil when every value it reads (``inputs``) is non-nil: a conversion
    /// that can fail (text that is not a number, a number out of range, a value stored in another class),
    /// arithmetic that can overflow or divide by zero, a string function given a value of another storage
    /// class, a decimal comparison, or a `nil` the expression writes. An expression that cannot, or that reads
    /// no value at all (`nil`, `now()`: a mapping that reads nothing drops the source's values, which the plan
    /// counts as dropped), is never counted by the migration's ledger of values turned into nil.
    package var canTurnValuesIntoNil: Bool { Self.canGiveNil(node) && !inputs.isEmpty }

    private static func collectInputs(_ node: TypedNode, into found: inout [Input]) {
        func add(_ input: Input) { if !found.contains(input) { found.append(input) } }
        switch node {
        case .attribute(let name, let path): add(Input(name: name, path: path, isCount: false))
        case .count(let name, let path): add(Input(name: name, path: path, isCount: true))
        case .literal, .now, .randomUUID: return
        case .convert(let operand, _, _), .negate(_, let operand), .isNil(let operand, _), .not(let operand):
            collectInputs(operand, into: &found)
        case .arithmetic(_, _, let left, let right), .concatenate(let left, let right),
            .compare(_, _, let left, let right), .and(let left, let right), .or(let left, let right):
            collectInputs(left, into: &found)
            collectInputs(right, into: &found)
        case .conditional(let condition, let then, let otherwise):
            for operand in [condition, then, otherwise] { collectInputs(operand, into: &found) }
        case .coalesce(let operands), .string(_, let operands):
            for operand in operands { collectInputs(operand, into: &found) }
        }
    }

    /// Whether a node can be nil when every input is non-nil (see ``canTurnValuesIntoNil``).
    private static func canGiveNil(_ node: TypedNode) -> Bool {
        switch node {
        case .literal(let value): return value.isNull
        case .attribute, .count, .now, .randomUUID, .isNil: return false
        // Compiled as `CAST(… AS REAL)`, which gives a number for any value but NULL.
        case .convert(let operand, .integer, .double), .convert(let operand, .boolean, .double):
            return canGiveNil(operand)
        case .convert, .arithmetic, .string, .compare(_, .decimal, _, _): return true
        case .negate(let type, let operand): return type != .double || canGiveNil(operand)
        case .not(let operand): return canGiveNil(operand)
        case .concatenate(let left, let right), .compare(_, _, let left, let right), .and(let left, let right),
            .or(let left, let right):
            return canGiveNil(left) || canGiveNil(right)
        case .conditional(let condition, let then, let otherwise):
            return canGiveNil(condition) || canGiveNil(then) || canGiveNil(otherwise)
        case .coalesce(let operands): return operands.allSatisfy(canGiveNil)
        }
    }
}
