internal import RemodelSQLite

extension RemodelError {
    /// An SQLite failure: the result code, SQLite's message and the SQL that failed.
    static func sqlite(_ code: Int32, message: String, sql: String? = nil, path: String? = nil) -> RemodelError {
        var text = "SQLite error \(code): \(message)"
        if code & 0xFF == SQLITE_FULL {  // Say what to do; the statement does not help.
            text =
                "the disk is full (or the database reached its size limit): free some space and try again (SQLite error \(code): \(message))"
        } else if let sql {
            text += " - while executing `\(sql)`"
        }
        var error = RemodelError(.sqlite, text, path: path)
        error.sqliteCode = code
        return error
    }
}
