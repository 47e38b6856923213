internal import RemodelSQLite

/// What SQLite's authorizer is told while it compiles a statement; filled from its C callback.
private final class AccessCollector {
    var accesses: [SQLiteConnection.TableAccess] = []
}

extension SQLiteConnection {
    /// A table a statement reads or writes, as SQLite tells its authorizer while compiling the statement.
    package struct TableAccess: Hashable {
        /// The table (or view, or virtual table) read or written, as the statement names it.
        package var table: String
        /// Whether it is an `INSERT`, `UPDATE` or `DELETE` of the table's rows (else a read of a column).
        package var writes: Bool
        /// The innermost trigger or view whose body makes the access; nil for the statement itself.
        package var through: String?
    }

    /// The tables a statement reads and writes, and those the triggers it fires and the views it reads do, found
    /// by compiling it (never run): SQLite codes every trigger a statement fires into the statement, and tells its
    /// authorizer of each table each one touches, naming the trigger.
    /// - Throws: ``RemodelError`` when the statement does not compile.
    package func tableAccesses(compiling sql: String) throws(RemodelError) -> [TableAccess] {
        let collector = AccessCollector()
        let context = Unmanaged.passUnretained(collector).toOpaque()
        sqlite3_set_authorizer(
            handle,
            { context, action, first, _, _, through in
                guard let context, let first else { return SQLITE_OK }
                let writes: Bool
                switch action {
                case SQLITE_READ: writes = false
                case SQLITE_INSERT, SQLITE_UPDATE, SQLITE_DELETE: writes = true
                default: return SQLITE_OK
                }
                let collector = Unmanaged<AccessCollector>.fromOpaque(context).takeUnretainedValue()
                collector.accesses.append(
                    TableAccess(
                        table: String(cString: first), writes: writes, through: through.map { String(cString: $0) }))
                return SQLITE_OK
            }, context)
        defer { sqlite3_set_authorizer(handle, nil, nil) }
        try withExtendedLifetime(collector) { () throws(RemodelError) in _ = try prepare(sql) }
        return collector.accesses
    }
}
