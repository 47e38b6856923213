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
        /// The kernel's I/O counters when it was opened (zero unless ``SQLiteTrace/countsIOUntilCopy``).
        var openedIO = IOCounters()
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
        /// Bytes its runs read from and wrote to storage, from its thread's counters (`/proc/thread-self/io`)
        /// at each run's start and end; zero unless ``SQLiteTrace/install(statementIO:)`` was asked for them.
        var diskRead = 0
        var diskWrite = 0
    }

    static let shared = SQLiteTrace()

    private let lock = NSLock()
    private var connectionIDs: [OpaquePointer: Int] = [:]
    private var connectionList: [Connection] = []
    private var entryIndex: [OpaquePointer: (sql: UnsafePointer<CChar>?, index: Int)] = [:]
    private var entryList: [Entry] = []
    private var entryByText: [String: Int] = [:]
    private var pagesReadByAll: Int64 = 0
    private var countingIO = false
    private var ioEventList: [(time: Double, io: IOCounters)] = []

    /// Reads the kernel's I/O counters at every statement's start and end and at every connection's opening until
    /// a migration's copy of the store is opened (a file named `.remodel-migrating` or `.remodel-step-N`): what
    /// ``PhaseSplit`` needs to tell the byte copy's reads and writes from the rest. Off by default: it costs a
    /// read of `/proc/self/io` per statement.
    func countIOUntilCopy() {
        lock.lock()
        defer { lock.unlock() }
        countingIO = true
        ioEventList = []
    }

    /// The times and I/O counters of the statements' starts and ends and the connections' openings, in order,
    /// while ``countIOUntilCopy()`` counted.
    var ioEvents: [(time: Double, io: IOCounters)] {
        lock.lock()
        defer { lock.unlock() }
        return ioEventList
    }

    /// Records an event's time and counters while counting.
    private func recordIOEvent() {
        guard isCountingIO else { return }
        let event = (time: Measure.now(), io: IOCounters.now())
        lock.lock()
        defer { lock.unlock() }
        if countingIO { ioEventList.append(event) }
    }

    /// Whether a file is a migration's copy of a store.
    static func isCopy(_ file: String) -> Bool {
        file.hasSuffix(".remodel-migrating") || file.contains(".remodel-step-")
    }

    /// Starts tracing every connection the process opens from now on; with `statementIO`, each statement's
    /// reads and writes from and to storage are counted too (two reads of `/proc/thread-self/io` per run).
    static func install(statementIO: Bool = false) {
        shared.lock.lock()
        shared.countsStatementIO = statementIO
        shared.lock.unlock()
        let entryPoint: @convention(c) (OpaquePointer?, UnsafeMutableRawPointer?, UnsafeRawPointer?) -> Int32 = {
            db, _, _ in
            guard let db else { return SQLITE_OK }
            SQLiteTrace.shared.opened(db)
            // Statements' starts too: the I/O counters at each (``countIOUntilCopy()``, `statementIO`).
            sqlite3_trace_v2(
                db, UInt32(SQLITE_TRACE_PROFILE | SQLITE_TRACE_STMT),
                { event, _, statement, elapsed in
                    guard let statement else { return 0 }
                    if event == UInt32(SQLITE_TRACE_STMT) {
                        SQLiteTrace.shared.started(OpaquePointer(statement))
                        return 0
                    }
                    guard let elapsed else { return 0 }
                    SQLiteTrace.shared.ran(OpaquePointer(statement), nanoseconds: elapsed.load(as: Int64.self))
                    return 0
                }, nil)
            return SQLITE_OK
        }
        sqlite3_auto_extension(unsafeBitCast(entryPoint, to: (@convention(c) () -> Void).self))
    }

    private var countsStatementIO = false
    /// Each running statement's thread counters when it started (``install(statementIO:)``).
    private var startedIO: [OpaquePointer: IOCounters] = [:]

    private var isCountingStatementIO: Bool {
        lock.lock()
        defer { lock.unlock() }
        return countsStatementIO
    }

    /// A statement starts running (SQLite's `SQLITE_TRACE_STMT`, also for each trigger's statements: only the
    /// first start of a run is kept).
    private func started(_ statement: OpaquePointer) {
        recordIOEvent()
        guard isCountingStatementIO else { return }
        let io = IOCounters.now(thread: true)
        lock.lock()
        defer { lock.unlock() }
        if startedIO[statement] == nil { startedIO[statement] = io }
    }

    /// SQLite's heap high-water mark since the process started, bytes (page caches, sorters, schemas, statements).
    static var heapHighWater: Int64 { sqlite3_memory_highwater(0) }

    private func opened(_ db: OpaquePointer) {
        let file = sqlite3_db_filename(db, "main").map { String(cString: $0) } ?? ""
        let time = Measure.now()
        let io = isCountingIO ? IOCounters.now() : IOCounters()
        lock.lock()
        defer { lock.unlock() }
        connectionIDs[db] = connectionList.count
        connectionList.append(Connection(id: connectionList.count, file: file, opened: time, openedIO: io))
        if countingIO { ioEventList.append((time, io)) }
        if Self.isCopy(file) { countingIO = false }
    }

    private var isCountingIO: Bool {
        lock.lock()
        defer { lock.unlock() }
        return countingIO
    }

    private func ran(_ statement: OpaquePointer, nanoseconds: Int64) {
        let end = Measure.now()
        let threadIO = isCountingStatementIO ? IOCounters.now(thread: true) : nil
        recordIOEvent()
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
        if let threadIO, let before = startedIO.removeValue(forKey: statement) {
            let done = threadIO.since(before)
            entryList[index].diskRead += done.diskBytes
            entryList[index].diskWrite += done.diskWriteBytes
        }
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
