/// What the compiler needs to know about the store: how to read an attribute
/// or count a to-many relationship of the source object, or of an object
/// reached through to-one relationships. The migrator implements it from the
/// store layout; every name must go into SQL through ``quoteIdentifier(_:)``.
package protocol ExpressionSQLContext {
    /// An SQL expression for the stored value of `attribute` of the object reached
    /// through the to-one `relationships` (empty: the source row), NULL when a
    /// relationship on the way is empty. For example `"t0"."firstName"` or
    /// `(SELECT "t1"."title" FROM "Book" AS "t1" WHERE "t1"."_pk" = "t0"."favoriteBook")`.
    func attributeSQL(_ attribute: String, through relationships: [String]) -> String
    /// An SQL expression counting the objects of the to-many `relationship`, NULL
    /// when a relationship on the way is empty. For example
    /// `(SELECT count(*) FROM "Book" WHERE "Book"."author" = "t0"."_pk")`.
    func countSQL(of relationship: String, through relationships: [String]) -> String
}

/// SQL text with its bound values: every literal of the expression is a `?`
/// parameter, in the order the literals are written.
package struct CompiledSQL: Sendable, Hashable {
    /// The SQL expression, to put into a `SELECT` or `WHERE`.
    package var sql: String
    /// The values for the `?` parameters, in order.
    package var parameters: [SQLiteValue]

    /// Creates compiled SQL.
    package init(sql: String, parameters: [SQLiteValue]) {
        self.sql = sql
        self.parameters = parameters
    }
}

/// Compiles checked expressions to SQLite SQL that computes exactly what
/// ``ExpressionInterpreter`` computes. The SQL calls `remodel_…` functions:
/// register them with ``ExpressionFunctions/register(on:)`` on the connection first.
///
/// For example:
/// ```swift
/// let compiled = ExpressionSQLCompiler(environment: environment).compile(checked, context: layout)
/// let rows = try connection.rows("SELECT \(compiled.sql) FROM \"Person\" AS \"t0\"", compiled.parameters)
/// ```
package struct ExpressionSQLCompiler: Sendable {
    /// The environment (`now()` is bound as a parameter).
    package var environment: ExpressionEnvironment

    /// Creates a compiler.
    package init(environment: ExpressionEnvironment = ExpressionEnvironment()) {
        self.environment = environment
    }

    /// Compiles an expression.
    /// - Parameters:
    ///   - expression: The type-checked expression.
    ///   - context: Supplies the SQL for attributes and counts.
    /// - Returns: The SQL expression and its parameters; names are quoted by the context, values are bound.
    package func compile(_ expression: CheckedExpression, context: some ExpressionSQLContext) -> CompiledSQL {
        var parameters: [SQLiteValue] = []
        let sql = compile(expression.node, context, &parameters)
        return CompiledSQL(sql: sql, parameters: parameters)
    }

    private func compile(_ node: TypedNode, _ context: some ExpressionSQLContext, _ parameters: inout [SQLiteValue])
        -> String
    {
        func sub(_ node: TypedNode) -> String { compile(node, context, &parameters) }
        func call(_ name: String, _ nodes: [TypedNode]) -> String {
            var arguments: [String] = []
            for node in nodes { arguments.append(sub(node)) }
            return name + "(" + arguments.joined(separator: ", ") + ")"
        }
        switch node {
        case .literal(.null): return "NULL"
        case .literal(let value):
            parameters.append(value)
            return "?"
        case .attribute(let name, let path): return context.attributeSQL(name, through: path)
        case .count(let name, let path): return context.countSQL(of: name, through: path)
        case .now:
            parameters.append(environment.nowValue)
            return "?"
        case .randomUUID: return "remodel_uuid()"
        case .convert(let operand, .integer, .double), (.convert(let operand, .boolean, .double)):
            return "CAST(\(sub(operand)) AS REAL)"
        case .convert(let operand, let from, let to):
            return call(ExpressionFunctions.conversionName(from: from, to: to), [operand])
        case .arithmetic(let op, .double, let left, let right) where op != .remainder:
            let a = sub(left), b = sub(right)
            return "(\(a) \(op.rawValue) \(b))"
        case .arithmetic(let op, let type, let left, let right):
            return call(ExpressionFunctions.arithmeticName(op, type), [left, right])
        case .negate(.double, let operand):
            return "(\(sub(operand)) * -1.0)"
        case .negate(let type, let operand):
            return call(type == .decimal ? "remodel_decimal_negate" : "remodel_integer_negate", [operand])
        case .concatenate(let left, let right):
            let a = sub(left), b = sub(right)
            return "(\(a) || \(b))"
        case .compare(let op, .decimal, let left, let right):
            return "(\(call("remodel_decimal_compare", [left, right])) \(op.sql) 0)"
        case .compare(let op, let type, let left, let right):
            let a = sub(left), b = sub(right)
            let collation = type == .string || type == .uuid || type == .uri ? " COLLATE BINARY" : ""
            return "(\(a) \(op.sql) \(b)\(collation))"
        case .isNil(let operand, let negated):
            return "(\(sub(operand)) IS \(negated ? "NOT " : "")NULL)"
        case .not(let operand):
            return "(NOT \(sub(operand)))"
        case .and(let left, let right):
            let a = sub(left), b = sub(right)
            return "(\(a) AND \(b))"
        case .or(let left, let right):
            let a = sub(left), b = sub(right)
            return "(\(a) OR \(b))"
        case .conditional(let condition, let then, let otherwise):
            // The condition is evaluated once; NULL matches neither branch, so the result is NULL.
            let c = sub(condition), a = sub(then), b = sub(otherwise)
            return "(CASE (\(c)) <> 0 WHEN 1 THEN \(a) WHEN 0 THEN \(b) END)"
        case .coalesce(let operands):
            return call("coalesce", operands)
        case .string(let function, let operands):
            return call("remodel_" + function.rawValue, operands)
        }
    }
}
