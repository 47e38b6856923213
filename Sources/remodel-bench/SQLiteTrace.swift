import Foundation
import RemodelSQLite

/// What SQLite itself says about a scenario's child: every statement's time (through
/// `sqlite3_trace_v2`'s profile events), when each connection was opened and on which file, the
/// largest page cache each connection held, and SQLite's heap high-water mark.
///
/// It is installed with `sqlite3_auto_extension` before the library opens anything, so it sees the
/// library's own connections (the lock's, the step's, the store checks') without touching the library.
/// Statements are summed by connection and SQL text: a statement run many times (a batch, a probe
/// reset for each value) is one entry.
final class SQLiteTrace: @unchecked Sendable {
    struct Connection {
        var id: Int
        var file: String
        var opened: Double
        /// The largest `SQLITE_DBSTATUS_CACHE_USED` seen at a statement's end, bytes.
        var largestCache: Int64 = 0
        /// The largest memory its schemas (`SQLITE_DBSTATUS_SCHEMA_USED`) and prepared statements
        /// (`SQLITE_DBSTATUS_STMT_USED`) held at a statement's end, bytes.
        var largestSchema: Int64 = 0
        var largestStatements: Int64 = 0
        /// Pages its statements read from the files (`SQLITE_DBSTATUS_CACHE_MISS`, main and attached databases).
        var pagesRead: Int64 = 0
    }

    struct Entry {
        var connection: Int
        var sql: String
        var runs = 0
        var seconds = 0.0
        /// When its first run started and its last one ended.
        var first = 0.0
        var last = 0.0
    }

    static let shared = SQLiteTrace()

    private let lock = NSLock()
    private var connectionIDs: [OpaquePointer: Int] = [:]
    private var connectionList: [Connection] = []
    private var entryIndex: [OpaquePointer: (sql: UnsafePointer<CChar>?, index: Int)] = [:]
    private var entryList: [Entry] = []
    private var entryByText: [String: Int] = [:]
    private var pagesReadByAll: Int64 = 0

    /// Starts tracing every connection the process opens from now on.
    static func install() {
        let entryPoint: @convention(c) (OpaquePointer?, UnsafeMutableRawPointer?, UnsafeRawPointer?) -> Int32 = {
            db, _, _ in
            guard let db else { return SQLITE_OK }
            SQLiteTrace.shared.opened(db)
            sqlite3_trace_v2(
                db, UInt32(SQLITE_TRACE_PROFILE),
                { _, _, statement, elapsed in
                    guard let statement, let elapsed else { return 0 }
                    SQLiteTrace.shared.ran(OpaquePointer(statement), nanoseconds: elapsed.load(as: Int64.self))
                    return 0
                }, nil)
            return SQLITE_OK
        }
        sqlite3_auto_extension(unsafeBitCast(entryPoint, to: (@convention(c) () -> Void).self))
    }

    /// SQLite's heap high-water mark since the process started, bytes (page caches, sorters, schemas, statements).
    static var heapHighWater: Int64 { sqlite3_memory_highwater(0) }

    private func opened(_ db: OpaquePointer) {
        let file = sqlite3_db_filename(db, "main").map { String(cString: $0) } ?? ""
        lock.lock()
        defer { lock.unlock() }
        connectionIDs[db] = connectionList.count
        connectionList.append(Connection(id: connectionList.count, file: file, opened: Measure.now()))
    }

    private func ran(_ statement: OpaquePointer, nanoseconds: Int64) {
        let end = Measure.now()
        let seconds = Double(nanoseconds) / 1e9
        let sql = sqlite3_sql(statement)
        guard let db = sqlite3_db_handle(statement) else { return }
        var cache: Int32 = 0
        var misses: Int32 = 0
        var unused: Int32 = 0
        sqlite3_db_status(db, SQLITE_DBSTATUS_CACHE_USED, &cache, &unused, 0)
        var schema: Int32 = 0
        var statements: Int32 = 0
        sqlite3_db_status(db, SQLITE_DBSTATUS_SCHEMA_USED, &schema, &unused, 0)
        sqlite3_db_status(db, SQLITE_DBSTATUS_STMT_USED, &statements, &unused, 0)
        // Read and reset at each statement's end: a database detached later takes its pager's count with it.
        sqlite3_db_status(db, SQLITE_DBSTATUS_CACHE_MISS, &misses, &unused, 1)
        lock.lock()
        defer { lock.unlock() }
        pagesReadByAll += Int64(misses)
        let connection = connectionIDs[db] ?? -1
        if connection >= 0 {
            connectionList[connection].largestCache = max(connectionList[connection].largestCache, Int64(cache))
            connectionList[connection].pagesRead += Int64(misses)
            connectionList[connection].largestSchema = max(connectionList[connection].largestSchema, Int64(schema))
            connectionList[connection].largestStatements = max(
                connectionList[connection].largestStatements, Int64(statements))
        }
        let index: Int
        if let known = entryIndex[statement], known.sql == sql, entryList[known.index].connection == connection {
            index = known.index
        } else {
            let text = sql.map { String(cString: $0) } ?? ""
            let key = "\(connection) \(text)"
            if let known = entryByText[key] {
                index = known
            } else {
                index = entryList.count
                entryList.append(Entry(connection: connection, sql: text, first: end - seconds))
                entryByText[key] = index
            }
            entryIndex[statement] = (sql, index)
        }
        entryList[index].runs += 1
        entryList[index].seconds += seconds
        entryList[index].last = end
    }

    /// Pages every traced connection has read from its files so far: SQLite's page-cache misses, each one
    /// page read with the VFS's `xRead` (the store, its copy, attached databases, journals; not the byte copy).
    var pagesRead: Int64 {
        lock.lock()
        defer { lock.unlock() }
        return pagesReadByAll
    }

    var connections: [Connection] {
        lock.lock()
        defer { lock.unlock() }
        return connectionList
    }

    var entries: [Entry] {
        lock.lock()
        defer { lock.unlock() }
        return entryList
    }
}
