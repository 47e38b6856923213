import Foundation
internal import RemodelSQLite

/// A scalar SQL function implemented in Swift, registered on a connection
/// with ``SQLiteConnection/createFunction(_:argumentCount:deterministic:_:)``.
package typealias SQLiteFunction = @Sendable ([SQLiteValue]) throws -> SQLiteValue

private final class FunctionBox {
    let function: SQLiteFunction
    init(_ function: @escaping SQLiteFunction) { self.function = function }
}

extension SQLiteConnection {
    /// Registers a scalar function callable from SQL on this connection.
    ///
    /// A thrown error makes the SQL statement fail with the error's description.
    /// - Parameters:
    ///   - name: The function's name in SQL.
    ///   - argumentCount: The number of arguments, or -1 for any.
    ///   - deterministic: Whether the same arguments always give the same result (SQLite may then
    ///     compute it once, and allows it in indexes).
    ///   - function: Computes the result from the arguments.
    package func createFunction(
        _ name: String, argumentCount: Int, deterministic: Bool = true, _ function: @escaping SQLiteFunction
    ) throws(RemodelError) {
        let box = Unmanaged.passRetained(FunctionBox(function)).toOpaque()
        var flags = SQLITE_UTF8
        if deterministic { flags |= SQLITE_DETERMINISTIC }
        let code = sqlite3_create_function_v2(
            handle, name, Int32(argumentCount), flags, box,
            { context, count, arguments in
                let box = Unmanaged<FunctionBox>.fromOpaque(sqlite3_user_data(context)).takeUnretainedValue()
                var values: [SQLiteValue] = []
                values.reserveCapacity(Int(count))
                for index in 0..<Int(count) {
                    values.append(SQLiteValue(reading: arguments![index]))
                }
                do {
                    setResult(try box.function(values), context: context)
                } catch {
                    sqlite3_result_error(context, "\(error)", -1)
                }
            },
            nil, nil,
            { pointer in
                if let pointer { Unmanaged<FunctionBox>.fromOpaque(pointer).release() }
            })
        try check(code, sql: "create function \(name)")
    }
}

private func setResult(_ value: SQLiteValue, context: OpaquePointer?) {
    switch value {
    case .null:
        sqlite3_result_null(context)
    case .integer(let integer):
        sqlite3_result_int64(context, integer)
    case .real(let real):
        sqlite3_result_double(context, real)
    case .text(let text):
        // An explicit byte count keeps text with U+0000 whole (-1 would stop at the first NUL).
        sqlite3_result_text(context, text, Int32(clamping: text.utf8.count), remodel_sqlite_transient())
    case .blob(let data):
        data.withUnsafeBytes { bytes in
            sqlite3_result_blob64(
                context, bytes.baseAddress ?? UnsafeRawPointer(bitPattern: 1), UInt64(bytes.count),
                remodel_sqlite_transient())
        }
    }
}
