/// One source object as the interpreter reads it. The migrator implements it
/// over the rows it reads; values are in their stored encoding
/// (`docs/STORE-LAYOUT.md`).
package protocol ExpressionRow {
    /// The stored value of `attribute` of the object reached through the to-one
    /// `relationships` (empty for the source object itself), `.null` when a
    /// relationship on the way is empty.
    func value(of attribute: String, through relationships: [String]) -> SQLiteValue
    /// The number of objects in the to-many `relationship` of the object reached
    /// through `relationships`, as `.integer`, or `.null` when a relationship on the way is empty.
    func count(of relationship: String, through relationships: [String]) -> SQLiteValue
}

/// Evaluates checked expressions in Swift, giving exactly what the SQL from
/// ``ExpressionSQLCompiler`` gives (except `uuid()`, random per call).
///
/// For example:
/// ```swift
/// let interpreter = ExpressionInterpreter(environment: ExpressionEnvironment(secondsSince1970: migrationStart))
/// let value = try interpreter.evaluate(checked, row: row) // .text("Ada Lovelace")
/// ```
package struct ExpressionInterpreter: Sendable {
    /// The environment (`now()`).
    package var environment: ExpressionEnvironment

    /// Creates an interpreter.
    package init(environment: ExpressionEnvironment = ExpressionEnvironment()) {
        self.environment = environment
    }

    /// Evaluates an expression for one object.
    /// - Returns: The value in the stored encoding of the expression's type, `.null` for nil.
    /// - Throws: ``/RemodelModel/RemodelError`` with code ``/RemodelModel/RemodelError/Code/invalidValue`` when the row
    ///   holds a value in the wrong storage class for its attribute's type.
    package func evaluate(_ expression: CheckedExpression, row: some ExpressionRow) throws(RemodelError) -> SQLiteValue
    {
        try evaluate(expression.node, row)
    }

    private func evaluate(_ node: TypedNode, _ row: some ExpressionRow) throws(RemodelError) -> SQLiteValue {
        switch node {
        case .literal(let value): return value
        case .attribute(let name, let path): return row.value(of: name, through: path)
        case .count(let name, let path): return row.count(of: name, through: path)
        case .now: return environment.nowValue
        case .randomUUID: return ExpressionRuntime.randomUUID()
        case .convert(let operand, let from, let to):
            return ExpressionRuntime.convert(try stored(operand, as: from, row), from: from, to: to)
        case .arithmetic(let op, let type, let left, let right):
            let a = try stored(left, as: type, row), b = try stored(right, as: type, row)
            switch type {
            case .integer: return ExpressionRuntime.integer(op, a, b)
            case .decimal: return ExpressionRuntime.decimal(op, a, b)
            default: return ExpressionRuntime.double(op, a, b)
            }
        case .negate(let type, let operand):
            let value = try stored(operand, as: type, row)
            switch type {
            case .integer: return ExpressionRuntime.integerNegate(value)
            case .decimal: return ExpressionRuntime.decimalNegate(value)
            default: return ExpressionRuntime.double(.multiply, value, .real(-1))
            }
        case .concatenate(let left, let right):
            guard case .text(let a) = try evaluate(left, row), case .text(let b) = try evaluate(right, row) else {
                return .null
            }
            return .text(a + b)
        case .compare(let op, let type, let left, let right):
            let a = try stored(left, as: type, row), b = try stored(right, as: type, row)
            if a.isNull || b.isNull { return .null }
            let order: Int?
            if type == .decimal {
                guard case .integer(let value) = ExpressionRuntime.decimalCompare(a, b) else { return .null }
                order = Int(value)
            } else {
                order = ExpressionRuntime.order(a, b)
            }
            guard let order else { return .null }
            return .integer(op.holds(order) ? 1 : 0)
        case .isNil(let operand, let negated):
            return .integer(try evaluate(operand, row).isNull != negated ? 1 : 0)
        case .not(let operand):
            guard let value = try truth(operand, row) else { return .null }
            return .integer(value ? 0 : 1)
        case .and(let left, let right):
            let a = try truth(left, row)
            if a == false { return .integer(0) }
            let b = try truth(right, row)
            if b == false { return .integer(0) }
            return a == nil || b == nil ? .null : .integer(1)
        case .or(let left, let right):
            let a = try truth(left, row)
            if a == true { return .integer(1) }
            let b = try truth(right, row)
            if b == true { return .integer(1) }
            return a == nil || b == nil ? .null : .integer(0)
        case .conditional(let condition, let then, let otherwise):
            guard let value = try truth(condition, row) else { return .null }
            return try evaluate(value ? then : otherwise, row)
        case .coalesce(let operands):
            for operand in operands {
                let value = try evaluate(operand, row)
                if !value.isNull { return value }
            }
            return .null
        case .string(let function, let operands):
            var values: [SQLiteValue] = []
            for operand in operands { values.append(try evaluate(operand, row)) }
            return ExpressionRuntime.string(function, values)
        }
    }

    /// A Boolean operand: nil, false (0) or true (any other number).
    private func truth(_ node: TypedNode, _ row: some ExpressionRow) throws(RemodelError) -> Bool? {
        switch try evaluate(node, row) {
        case .null: return nil
        case .integer(let value): return value != 0
        case .real(let value): return value != 0
        case let other: throw mismatch(other, "Boolean")
        }
    }

    /// A value checked against the storage class of `type` (an INTEGER where a
    /// REAL is expected becomes REAL, as a REAL column's affinity does).
    private func stored(_ node: TypedNode, as type: ExpressionType, _ row: some ExpressionRow) throws(RemodelError)
        -> SQLiteValue
    {
        let value = try evaluate(node, row)
        switch (type, value) {
        case (_, .null): return value
        case (.integer, .integer), (.boolean, .integer), (.double, .real), (.date, .real), (.binary, .blob):
            return value
        case (.double, .integer(let integer)), (.date, .integer(let integer)): return .real(Double(integer))
        case (.string, .text), (.uuid, .text), (.uri, .text), (.decimal, .text), (.decimal, .integer): return value
        default: throw mismatch(value, type.rawValue)
        }
    }

    private func mismatch(_ value: SQLiteValue, _ type: String) -> RemodelError {
        RemodelError(.invalidValue, "expected a stored \(type) value, found \(value)")
    }
}
