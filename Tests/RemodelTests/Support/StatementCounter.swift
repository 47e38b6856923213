import Foundation
import RemodelSQLite

/// Counts the SQL statements Remodel runs on connections to given files, to show what a migration reads and
/// how often (the store's metadata, its schema). Every connection the process opens is traced from the first
/// use on (`sqlite3_auto_extension`); statements are counted by the file the connection has open, so tests
/// running at the same time on other files do not mix in.
///
/// For example:
/// ```swift
/// let counter = StatementCounter.shared
/// counter.start(watching: store)
/// try await migration.migrate()
/// #expect(counter.count(on: store, startingWith: "SELECT key, value FROM") == 2)
/// ```
final class StatementCounter: @unchecked Sendable {
    static let shared = StatementCounter()

    // `watched` and `counts` are guarded by `lock`.
    private let lock = NSLock()
    private var watched: Set<String> = []
    private var counts: [String: [String: Int]] = [:]

    private static let installed: Bool = {
        let entryPoint: @convention(c) (OpaquePointer?, UnsafeMutableRawPointer?, UnsafeRawPointer?) -> Int32 = {
            db, _, _ in
            guard let db else { return SQLITE_OK }
            sqlite3_trace_v2(
                db, UInt32(SQLITE_TRACE_STMT),
                { _, _, statement, _ in
                    guard let statement else { return 0 }
                    let handle = OpaquePointer(statement)
                    guard let db = sqlite3_db_handle(handle), let name = sqlite3_db_filename(db, "main"),
                        let sql = sqlite3_sql(handle)
                    else { return 0 }
                    StatementCounter.shared.ran(String(cString: sql), on: String(cString: name))
                    return 0
                }, nil)
            return SQLITE_OK
        }
        sqlite3_auto_extension(unsafeBitCast(entryPoint, to: (@convention(c) () -> Void).self))
        return true
    }()

    /// Counts the statements run on `path` from now on (connections opened from now on).
    func start(watching path: String) {
        _ = Self.installed
        let file = Self.canonical(path)
        lock.lock()
        defer { lock.unlock() }
        watched.insert(file)
        counts[file] = [:]
    }

    /// How many statements beginning with `prefix` ran on `path` since ``start(watching:)``.
    func count(on path: String, startingWith prefix: String) -> Int {
        let file = Self.canonical(path)
        lock.lock()
        defer { lock.unlock() }
        return (counts[file] ?? [:]).filter { $0.key.hasPrefix(prefix) }.values.reduce(0, +)
    }

    /// How many statements `matching` accepts ran on `path` since ``start(watching:)``.
    func count(on path: String, where matching: (String) -> Bool) -> Int {
        let file = Self.canonical(path)
        lock.lock()
        defer { lock.unlock() }
        return (counts[file] ?? [:]).filter { matching($0.key) }.values.reduce(0, +)
    }

    private func ran(_ sql: String, on file: String) {
        lock.lock()
        defer { lock.unlock() }
        guard watched.contains(file) else { return }
        counts[file, default: [:]][sql, default: 0] += 1
    }

    /// The path with symbolic links resolved, as SQLite reports the file a connection has open.
    private static func canonical(_ path: String) -> String {
        URL(fileURLWithPath: path).resolvingSymlinksInPath().path
    }
}
