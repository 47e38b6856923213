extension RemodelError {
    /// An SQLite failure: the result code, SQLite's message and the SQL that failed.
    static func sqlite(_ code: Int32, message: String, sql: String? = nil, path: String? = nil) -> RemodelError {
        var text = "SQLite error \(code): \(message)"
        if let sql { text += " - while executing `\(sql)`" }
        var error = RemodelError(.sqlite, text, path: path)
        error.sqliteCode = code
        return error
    }
}
