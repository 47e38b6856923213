internal import RemodelSQLite

/// The storage class of a column value in the current row.
package enum SQLiteStorageClass: Sendable, Hashable {
    case null, integer, real, text, blob
}

extension SQLiteStatement {
    /// Steps through every row, calling `body` with the statement positioned on it, without collecting rows.
    ///
    /// For example:
    /// ```swift
    /// let statement = try connection.prepare("SELECT _pk FROM Book ORDER BY _pk")
    /// try statement.forEachRow { row in print(row.int64(at: 0)) }
    /// ```
    package func forEachRow(_ body: (SQLiteStatement) throws(RemodelError) -> Void) throws(RemodelError) {
        while try step() {
            try body(self)
        }
    }

    /// The storage class of a column of the current row.
    package func storageClass(at index: Int) -> SQLiteStorageClass {
        switch sqlite3_column_type(handle, Int32(index)) {
        case SQLITE_INTEGER: return .integer
        case SQLITE_FLOAT: return .real
        case SQLITE_TEXT: return .text
        case SQLITE_BLOB: return .blob
        default: return .null
        }
    }

    /// A column of the current row as an integer (SQLite's conversion rules apply).
    package func int64(at index: Int) -> Int64 { sqlite3_column_int64(handle, Int32(index)) }

    /// A column of the current row as a double (SQLite's conversion rules apply).
    package func double(at index: Int) -> Double { sqlite3_column_double(handle, Int32(index)) }

    /// Calls `body` with the UTF-8 bytes of a text column, without copying them into a `String`.
    ///
    /// The bytes are valid only inside `body`.
    package func withUTF8<T>(at index: Int, _ body: (UnsafeBufferPointer<UInt8>) throws(RemodelError) -> T)
        throws(RemodelError) -> T
    {
        let column = Int32(index)
        let pointer = sqlite3_column_text(handle, column)
        let count = Int(sqlite3_column_bytes(handle, column))
        return try body(UnsafeBufferPointer(start: pointer, count: pointer == nil ? 0 : count))
    }

    /// Calls `body` with the bytes of a blob column, without copying them.
    package func withBytes<T>(at index: Int, _ body: (UnsafeRawBufferPointer) throws(RemodelError) -> T)
        throws(RemodelError) -> T
    {
        let column = Int32(index)
        let pointer = sqlite3_column_blob(handle, column)
        let count = Int(sqlite3_column_bytes(handle, column))
        return try body(UnsafeRawBufferPointer(start: pointer, count: pointer == nil ? 0 : count))
    }
}

extension SQLiteStatement {
    /// The value of a column of the current row, as ``value(at:)`` reads it, but text straight from
    /// its stored bytes: SQLite copies text to add a terminator for `sqlite3_column_text`, not for
    /// `sqlite3_column_blob`. Only for a connection whose text encoding is UTF-8 (every store
    /// Remodel makes, and every database attached to one).
    package func valueFromUTF8Database(at index: Int) -> SQLiteValue {
        SQLiteValue(reading: sqlite3_column_value(handle, Int32(index)), textIsUTF8: true)
    }
}
