/// The Swift SQL functions compiled expressions call, so SQL gives exactly what
/// the interpreter gives where SQLite's built-ins differ (ASCII-only `lower`,
/// integer overflow to REAL, inexact Decimal text arithmetic, …).
///
/// For example:
/// ```swift
/// let connection = try SQLiteConnection(path: storePath)
/// try ExpressionFunctions.register(on: connection)
/// ```
package enum ExpressionFunctions {
    /// Registers every `remodel_…` function on a connection. Call it once per connection
    /// before running SQL from ``ExpressionSQLCompiler``.
    /// - Throws: ``/RemodelModel/RemodelError`` when SQLite refuses a registration.
    package static func register(on connection: SQLiteConnection) throws(RemodelError) {
        for type in [ExpressionType.integer, .decimal] {
            for op in [ArithmeticOperator.add, .subtract, .multiply, .divide, .remainder]
            where !(type == .decimal && op == .remainder) {
                try connection.createFunction(arithmeticName(op, type), argumentCount: 2) { arguments in
                    type == .integer
                        ? ExpressionRuntime.integer(op, arguments[0], arguments[1])
                        : ExpressionRuntime.decimal(op, arguments[0], arguments[1])
                }
            }
        }
        try connection.createFunction(arithmeticName(.remainder, .double), argumentCount: 2) { arguments in
            ExpressionRuntime.double(.remainder, arguments[0], arguments[1])
        }
        try connection.createFunction("remodel_integer_negate", argumentCount: 1) {
            ExpressionRuntime.integerNegate($0[0])
        }
        try connection.createFunction("remodel_decimal_negate", argumentCount: 1) {
            ExpressionRuntime.decimalNegate($0[0])
        }
        try connection.createFunction("remodel_decimal_compare", argumentCount: 2) {
            ExpressionRuntime.decimalCompare($0[0], $0[1])
        }
        let sources: [ExpressionType] = [.integer, .double, .decimal, .string, .boolean, .date, .uuid, .uri]
        for from in sources {
            for to in [ExpressionType.integer, .double, .decimal, .string] where from != to {
                try connection.createFunction(conversionName(from: from, to: to), argumentCount: 1) { arguments in
                    ExpressionRuntime.convert(arguments[0], from: from, to: to)
                }
            }
        }
        let strings: [(StringFunction, Int)] = [
            (.lowercase, 1), (.uppercase, 1), (.trim, 1), (.length, 1), (.substring, 3), (.replace, 3),
        ]
        for (function, count) in strings {
            try connection.createFunction("remodel_" + function.rawValue, argumentCount: count) { arguments in
                ExpressionRuntime.string(function, arguments)
            }
        }
        try connection.createFunction("remodel_uuid", argumentCount: 0, deterministic: false) { _ in
            ExpressionRuntime.randomUUID()
        }
    }

    static func sqlName(_ type: ExpressionType) -> String { type.rawValue.lowercased() }

    static func arithmeticName(_ op: ArithmeticOperator, _ type: ExpressionType) -> String {
        let name: String
        switch op {
        case .add: name = "add"
        case .subtract: name = "subtract"
        case .multiply: name = "multiply"
        case .divide: name = "divide"
        case .remainder: name = "remainder"
        }
        return "remodel_\(sqlName(type))_\(name)"
    }

    static func conversionName(from: ExpressionType, to: ExpressionType) -> String {
        "remodel_\(sqlName(from))_to_\(sqlName(to))"
    }
}
