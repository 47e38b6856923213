/// The page caches of a migration's connections, in one place: they are most of the memory a migration
/// holds beyond the process itself (docs/BENCHMARK.md, "What the benchmark change's peak is made of").
///
/// A step reads and writes its tables by scans and appends in key order, which need few cached pages: the
/// interior pages of the b-trees it walks stay cached, each leaf is read once. What needs memory is an index
/// build, whose sorter SQLite sizes from the cache (`cache_size`), spilling to a temporary file beyond it:
/// index builds alone run with the larger cache (``buildingIndexes(on:_:)``).
enum PageCaches {
    /// The step's connection: the copy of the store being changed.
    static let stepKiB = 256
    /// The store a pass's first step reads, attached read-only.
    static let sourceKiB = 64
    /// The step's connection while it builds indexes: the sorter's memory.
    static let indexBuildKiB = 4096
    /// A connection that reads each page once (SQLite's check of the store, the final object count).
    static let scanPages = 16

    /// The pragmas that give the step's connection its cache and the attached source `schema` its own.
    static func stepPragmas(source schema: String) -> String {
        "PRAGMA main.cache_size = -\(stepKiB); PRAGMA \(quoteIdentifier(schema)).cache_size = -\(sourceKiB)"
    }

    /// Runs `body`, which builds indexes on `connection`, with the larger cache, then gives the step's back.
    static func buildingIndexes<T>(
        on connection: SQLiteConnection, _ body: () throws(RemodelError) -> T
    ) throws(RemodelError) -> T {
        try connection.execute("PRAGMA main.cache_size = -\(indexBuildKiB)")
        defer { try? connection.execute("PRAGMA main.cache_size = -\(stepKiB)") }
        return try body()
    }
}
