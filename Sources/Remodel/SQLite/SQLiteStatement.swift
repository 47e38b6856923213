import Foundation
internal import RemodelSQLite

/// A prepared statement. It finalizes itself in `deinit`.
package final class SQLiteStatement {
    let handle: OpaquePointer
    /// The SQL text, for error messages.
    package let sql: String
    private let connection: SQLiteConnection

    init(connection: SQLiteConnection, sql: String) throws(RemodelError) {
        var pointer: OpaquePointer?
        let code = sqlite3_prepare_v2(connection.handle, sql, -1, &pointer, nil)
        guard code == SQLITE_OK, let pointer else {
            throw RemodelError.sqlite(code, message: connection.lastErrorMessage, sql: sql, path: connection.path)
        }
        self.handle = pointer
        self.sql = sql
        self.connection = connection
    }

    deinit {
        sqlite3_finalize(handle)
    }

    /// Binds values to the parameters, in order, after resetting the statement.
    package func bind(_ values: [SQLiteValue]) throws(RemodelError) {
        sqlite3_reset(handle)
        sqlite3_clear_bindings(handle)
        for (offset, value) in values.enumerated() {
            try bind(value, at: Int32(offset + 1))
        }
    }

    /// Binds one value to a 1-based parameter index.
    package func bind(_ value: SQLiteValue, at index: Int32) throws(RemodelError) {
        let code: Int32
        switch value {
        case .null:
            code = sqlite3_bind_null(handle, index)
        case .integer(let integer):
            code = sqlite3_bind_int64(handle, index, integer)
        case .real(let real):
            code = sqlite3_bind_double(handle, index, real)
        case .text(let text):
            // The bytes themselves, with their count: text with U+0000 stays whole, and a short
            // string is not copied into a C string first (SQLite copies them anyway).
            code =
                text.utf8.withContiguousStorageIfAvailable { bytes in bindText(bytes, at: index) }
                ?? {
                    var contiguous = text
                    return contiguous.withUTF8 { bytes in bindText(bytes, at: index) }
                }()
        case .blob(let data):
            code = data.withUnsafeBytes { bytes in
                sqlite3_bind_blob64(
                    handle, index, bytes.baseAddress ?? UnsafeRawPointer(bitPattern: 1), UInt64(bytes.count),
                    remodel_sqlite_transient())
            }
        }
        try connection.check(code, sql: sql)
    }

    /// Binds UTF-8 bytes as text, copied by SQLite.
    private func bindText(_ bytes: UnsafeBufferPointer<UInt8>, at index: Int32) -> Int32 {
        // A null pointer would bind NULL: empty text gets a valid one.
        guard let start = bytes.baseAddress else {
            return sqlite3_bind_text(handle, index, "", 0, remodel_sqlite_transient())
        }
        let characters = UnsafeRawPointer(start).assumingMemoryBound(to: CChar.self)
        return sqlite3_bind_text(handle, index, characters, Int32(clamping: bytes.count), remodel_sqlite_transient())
    }

    /// Steps once: `true` when a row is ready, `false` when done.
    @discardableResult
    package func step() throws(RemodelError) -> Bool {
        let code = sqlite3_step(handle)
        if code == SQLITE_ROW { return true }
        if code == SQLITE_DONE { return false }
        let message = connection.lastErrorMessage
        sqlite3_reset(handle)
        throw RemodelError.sqlite(code, message: message, sql: sql, path: connection.path)
    }

    /// Resets the statement so it can run again with the same bindings.
    package func reset() {
        sqlite3_reset(handle)
    }

    /// The number of columns in a result row.
    package var columnCount: Int { Int(sqlite3_column_count(handle)) }

    /// The name of a result column.
    package func columnName(at index: Int) -> String {
        String(cString: sqlite3_column_name(handle, Int32(index)))
    }

    /// The value of a column of the current row.
    package func value(at index: Int) -> SQLiteValue {
        SQLiteValue(reading: sqlite3_column_value(handle, Int32(index)))
    }

    /// Every column of the current row.
    package func row() -> [SQLiteValue] {
        (0..<columnCount).map { value(at: $0) }
    }
}
