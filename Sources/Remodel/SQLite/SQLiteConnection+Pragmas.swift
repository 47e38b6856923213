internal import RemodelSQLite

extension SQLiteConnection {
    /// The database's `user_version`, a number the application keeps in the file header.
    ///
    /// For example:
    /// ```swift
    /// try connection.setUserVersion(1)
    /// print(try connection.userVersion()) // 1
    /// ```
    package func userVersion() throws(RemodelError) -> Int64 {
        guard case .integer(let value) = try scalar("PRAGMA user_version") else { return 0 }
        return value
    }

    /// Sets the database's `user_version`.
    package func setUserVersion(_ version: Int64) throws(RemodelError) {
        // PRAGMA takes no bound parameters; the value is an integer, never text.
        try execute("PRAGMA user_version = \(version)")
    }

    /// The memory the page caches of the connection's databases (main and attached) hold now, in bytes
    /// (`SQLITE_DBSTATUS_CACHE_USED`).
    ///
    /// For example:
    /// ```swift
    /// print(connection.pageCacheBytes / 1024, "KiB cached")
    /// ```
    package var pageCacheBytes: Int {
        var current: Int32 = 0
        var highest: Int32 = 0
        sqlite3_db_status(handle, SQLITE_DBSTATUS_CACHE_USED, &current, &highest, 0)
        return Int(current)
    }

    /// Runs `PRAGMA integrity_check` (or the faster `quick_check`) and returns its problems; empty when the file is sound.
    ///
    /// For example:
    /// ```swift
    /// let problems = try connection.integrityProblems(quick: true)
    /// if !problems.isEmpty { print(problems.joined(separator: "\n")) }
    /// ```
    package func integrityProblems(quick: Bool = false) throws(RemodelError) -> [String] {
        let statement = try prepare(quick ? "PRAGMA quick_check" : "PRAGMA integrity_check")
        var problems: [String] = []
        while try statement.step() {
            if case .text(let line) = statement.value(at: 0), line != "ok" { problems.append(line) }
        }
        return problems
    }

    /// Whether a table (or view) with that name exists in a schema.
    ///
    /// For example:
    /// ```swift
    /// if try connection.tableExists("_RemodelMetadata") { … }
    /// ```
    package func tableExists(_ name: String, schema: String = "main") throws(RemodelError) -> Bool {
        let sql = "SELECT 1 FROM \(quoteIdentifier(schema)).sqlite_master WHERE type IN ('table', 'view') AND name = ?"
        return try scalar(sql, [.text(name)]) != nil
    }

    /// The names of the tables in a schema, sorted.
    package func tableNames(schema: String = "main") throws(RemodelError) -> [String] {
        let sql = "SELECT name FROM \(quoteIdentifier(schema)).sqlite_master WHERE type = 'table' ORDER BY name"
        return try rows(sql).compactMap { row in
            if case .text(let name) = row.first { return name }
            return nil
        }
    }

    /// The journal mode (`delete`, `wal`, …), as SQLite reports it.
    package func journalMode() throws(RemodelError) -> String {
        guard case .text(let mode) = try scalar("PRAGMA journal_mode") else { return "" }
        return mode.lowercased()
    }

    /// Whether the connection is inside a transaction.
    package var isInTransaction: Bool { sqlite3_get_autocommit(handle) == 0 }
}

extension SQLiteConnection {
    /// The most parameters one statement may have on this connection (`SQLITE_LIMIT_VARIABLE_NUMBER`).
    package var parameterLimit: Int { Int(sqlite3_limit(handle, SQLITE_LIMIT_VARIABLE_NUMBER, -1)) }
}

extension SQLiteConnection {
    /// The file of an attached schema (or `main`), or nil when it has none (in memory, temporary).
    package func filename(ofSchema schema: String) -> String? {
        guard let name = sqlite3_db_filename(handle, schema) else { return nil }
        let path = String(cString: name)
        return path.isEmpty ? nil : path
    }
}

extension SQLiteConnection {
    /// Whether this connection, when it is the last one to close a database in WAL mode, checkpoints
    /// the log into the file and deletes `-wal` and `-shm` (SQLite's default) or leaves them as they
    /// are (`SQLITE_DBCONFIG_NO_CKPT_ON_CLOSE`).
    package func setCheckpointsOnClose(_ enabled: Bool) throws(RemodelError) {
        try check(remodel_sqlite_db_config_int(handle, SQLITE_DBCONFIG_NO_CKPT_ON_CLOSE, enabled ? 0 : 1, nil))
    }

    /// Whether a double-quoted name that names no column is taken as a string, as SQLite's default build
    /// does for compatibility (`SQLITE_DBCONFIG_DQS_DDL` and `_DML`). Off, `"title"` that names no column
    /// is an error, as SQLite's documentation advises: a schema rehearsed that way finds an index or view
    /// naming a column that is gone, which SQLite would otherwise take as the constant `'title'`.
    package func setDoubleQuotedStrings(_ allowed: Bool) throws(RemodelError) {
        try check(remodel_sqlite_db_config_int(handle, SQLITE_DBCONFIG_DQS_DDL, allowed ? 1 : 0, nil))
        try check(remodel_sqlite_db_config_int(handle, SQLITE_DBCONFIG_DQS_DML, allowed ? 1 : 0, nil))
    }

    /// `PRAGMA data_version`: changes when another connection commits to the database.
    package func dataVersion() throws(RemodelError) -> SQLiteValue? {
        try scalar("PRAGMA data_version")
    }
}
