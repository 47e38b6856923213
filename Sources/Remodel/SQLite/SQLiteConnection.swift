import Foundation
internal import RemodelSQLite

/// One connection to an SQLite database. It owns its handle and closes it in
/// `deinit`; it is not `Sendable`: keep it on one task.
///
/// For example:
/// ```swift
/// let connection = try SQLiteConnection(path: "store.sqlite")
/// try connection.execute("CREATE TABLE t (x INTEGER)")
/// try connection.run("INSERT INTO t VALUES (?)", [.integer(1)])
/// ```
package final class SQLiteConnection {
    /// How to open the file.
    package enum Mode: Sendable {
        /// Read-only; fails if the file does not exist. Never writes, not even a journal.
        case readOnly
        /// Read and write; fails if the file does not exist.
        case readWrite
        /// Read and write, creating the file if needed.
        case create
    }

    package let handle: OpaquePointer
    /// The path the connection was opened with (for a private copy of a store, the store's path).
    package let path: String

    /// Opens a database.
    /// - Throws: ``RemodelError`` with code ``RemodelError/Code/sqlite`` naming the path.
    package convenience init(path: String, mode: Mode = .create) throws(RemodelError) {
        try self.init(path: path, mode: mode, reportedAs: path)
    }

    /// Opens a database whose errors name `reported` instead (the file the caller knows, e.g. the
    /// store a private copy was made of).
    package convenience init(path: String, mode: Mode, reportedAs reported: String) throws(RemodelError) {
        var flags: Int32 = SQLITE_OPEN_URI | SQLITE_OPEN_NOMUTEX
        let name: String
        switch mode {
        case .readOnly:
            flags |= SQLITE_OPEN_READONLY
            name = Self.readOnlyURI(for: path)
        case .readWrite:
            flags |= SQLITE_OPEN_READWRITE
            name = Self.fileURI(for: path)
        case .create:
            flags |= SQLITE_OPEN_READWRITE | SQLITE_OPEN_CREATE
            name = Self.fileURI(for: path)
        }
        try self.init(uri: name, flags: flags, path: reported)
    }

    /// Opens a file that nothing else has open, read-only, with SQLite's `immutable=1`: no lock is
    /// taken and no `-wal`, `-shm` or `-journal` file is created beside it, so not a byte changes.
    ///
    /// Only for a store in WAL mode with no `-wal` beside it (see `StoreSnapshot`):
    /// a connection of `mode=ro` would create both and, unable to delete them, leave them behind.
    /// Closing it closes its descriptor outright (SQLite keeps no lock to hand over), which drops any
    /// POSIX lock this process holds on the file: never open one while the process holds the store.
    package convenience init(immutable path: String, reportedAs reported: String) throws(RemodelError) {
        try self.init(
            uri: Self.fileURI(for: path) + "?immutable=1",
            flags: SQLITE_OPEN_URI | SQLITE_OPEN_NOMUTEX | SQLITE_OPEN_READONLY,
            path: reported)
    }

    /// Opens a store in WAL mode whose `-wal` and `-shm` are there, read-only without writing a byte beside it:
    /// `mode=ro` alone maps the `-shm` for writing (a reader sets read marks in it, and rebuilds it when no
    /// connection has it open); `readonly_shm=1` opens it read-only, and SQLite then reads the log itself
    /// when it cannot use the `-shm` as it is.
    /// The log is opened read-only too, never created (``LogReadingVFS``): when it is gone by the time the
    /// connection reads, the read fails with `SQLITE_CANTOPEN` and leaves nothing behind.
    package convenience init(readingSideFiles path: String, reportedAs reported: String) throws(RemodelError) {
        try self.init(
            name: Self.readOnlyURI(for: path) + "&readonly_shm=1",
            flags: SQLITE_OPEN_URI | SQLITE_OPEN_NOMUTEX | SQLITE_OPEN_READONLY,
            vfs: LogReadingVFS.registered ? LogReadingVFS.name : nil, path: reported)
    }

    /// Opens `uri` with SQLite's `flags`; errors name `path`.
    private convenience init(uri: String, flags: Int32, path: String) throws(RemodelError) {
        try self.init(name: uri, flags: flags, vfs: nil, path: path)
    }

    /// Opens `name` with SQLite's `flags` through the VFS named `vfs` (the default one when `nil`);
    /// errors name `path`.
    init(name: String, flags: Int32, vfs: String?, path: String) throws(RemodelError) {
        var pointer: OpaquePointer?
        let code = sqlite3_open_v2(name, &pointer, flags, vfs)
        guard let pointer else {
            throw RemodelError.sqlite(code, message: "could not open the database", path: path)
        }
        guard code == SQLITE_OK else {
            let message = String(cString: sqlite3_errmsg(pointer))
            sqlite3_close_v2(pointer)
            throw RemodelError.sqlite(code, message: message, path: path)
        }
        self.handle = pointer
        self.path = path
        sqlite3_extended_result_codes(pointer, 1)
    }

    deinit {
        sqlite3_close_v2(handle)
    }

    private static func fileURI(for path: String) -> String { sqliteFileURI(path) }

    private static func readOnlyURI(for path: String) -> String {
        fileURI(for: path) + "?mode=ro"
    }

    /// SQLite's message for the last failure on this connection.
    var lastErrorMessage: String { String(cString: sqlite3_errmsg(handle)) }

    /// Throws unless `code` is `SQLITE_OK`, naming `sql` when given (called for every bind: no allocation on the way).
    func check(_ code: Int32, sql: String? = nil) throws(RemodelError) {
        guard code == SQLITE_OK else {
            throw RemodelError.sqlite(code, message: lastErrorMessage, sql: sql, path: path)
        }
    }

    /// Runs one or more SQL statements that take no parameters.
    package func execute(_ sql: String) throws(RemodelError) {
        try check(sqlite3_exec(handle, sql, nil, nil, nil), sql: sql)
    }

    /// Prepares a statement.
    package func prepare(_ sql: String) throws(RemodelError) -> SQLiteStatement {
        try SQLiteStatement(connection: self, sql: sql)
    }

    /// Runs one statement with bound values, stepping it to completion.
    package func run(_ sql: String, _ values: [SQLiteValue] = []) throws(RemodelError) {
        let statement = try prepare(sql)
        try statement.bind(values)
        while try statement.step() {}
    }

    /// Runs a query and returns every row (for small results; stream larger ones with ``prepare(_:)``).
    package func rows(_ sql: String, _ values: [SQLiteValue] = []) throws(RemodelError) -> [[SQLiteValue]] {
        let statement = try prepare(sql)
        try statement.bind(values)
        var result: [[SQLiteValue]] = []
        while try statement.step() {
            result.append(statement.row())
        }
        return result
    }

    /// The first column of the first row, or `nil` when there is no row.
    package func scalar(_ sql: String, _ values: [SQLiteValue] = []) throws(RemodelError) -> SQLiteValue? {
        let statement = try prepare(sql)
        try statement.bind(values)
        return try statement.step() ? statement.value(at: 0) : nil
    }

    /// The rowid of the last inserted row.
    package var lastInsertedRowID: Int64 { sqlite3_last_insert_rowid(handle) }

    /// How many rows the last statement changed.
    package var changes: Int { Int(sqlite3_changes(handle)) }

    /// How long to wait for a lock held by another connection before failing.
    package func setBusyTimeout(milliseconds: Int) {
        sqlite3_busy_timeout(handle, Int32(milliseconds))
    }

    /// Runs `body` in a transaction (`BEGIN IMMEDIATE`), committing on success and rolling back on error.
    package func transaction<T>(_ body: () throws(RemodelError) -> T) throws(RemodelError) -> T {
        try execute("BEGIN IMMEDIATE")
        do {
            let result = try body()
            try execute("COMMIT")
            return result
        } catch {
            try? execute("ROLLBACK")
            throw error
        }
    }

    /// Runs `body` inside a savepoint, released on success and rolled back on error.
    package func savepoint<T>(_ name: String = "remodel", _ body: () throws(RemodelError) -> T) throws(RemodelError)
        -> T
    {
        try execute("SAVEPOINT \(quoteIdentifier(name))")
        do {
            let result = try body()
            try execute("RELEASE \(quoteIdentifier(name))")
            return result
        } catch {
            try? execute("ROLLBACK TO \(quoteIdentifier(name)); RELEASE \(quoteIdentifier(name))")
            throw error
        }
    }

    /// Attaches another database file under a schema name.
    package func attach(path: String, as schema: String, readOnly: Bool = false) throws(RemodelError) {
        let uri = readOnly ? Self.readOnlyURI(for: path) : Self.fileURI(for: path)
        try run("ATTACH DATABASE ? AS \(quoteIdentifier(schema))", [.text(uri)])
    }

    /// Detaches a schema attached with ``attach(path:as:readOnly:)``.
    package func detach(_ schema: String) throws(RemodelError) {
        try execute("DETACH DATABASE \(quoteIdentifier(schema))")
    }
}
