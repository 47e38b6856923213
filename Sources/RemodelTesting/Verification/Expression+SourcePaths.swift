import Remodel

extension Expression {
    /// The first names of every `$source.…` path in the expression: the source properties it reads.
    var sourceNames: Set<String> {
        switch kind {
        case .integer, .double, .string, .boolean, .nil:
            return []
        case .keyPath(let path):
            return path.components.first.map { [$0.name] } ?? []
        case .unary(_, let operand):
            return operand.sourceNames
        case .binary(_, let left, let right, _):
            return left.sourceNames.union(right.sourceNames)
        case .conditional(let condition, let then, let otherwise):
            return condition.sourceNames.union(then.sourceNames).union(otherwise.sourceNames)
        case .call(_, _, let arguments):
            return arguments.reduce(into: []) { $0.formUnion($1.sourceNames) }
        }
    }

    /// The source attribute when the expression is exactly `$source.name`.
    var copiedName: String? {
        guard case .keyPath(let path) = kind, path.count == nil, path.components.count == 1 else { return nil }
        return path.components[0].name
    }
}
