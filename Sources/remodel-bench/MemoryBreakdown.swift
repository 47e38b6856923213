/// Where a child's memory went, as SQLite tells it (and the pages each connection read): its heap high-water mark (page caches, sorters,
/// schemas, prepared statements, all connections together) and the largest page cache each connection
/// held, named by the file it opened and numbered in the order they were opened (`step#1` is the
/// step's own connection, a later `step#N` the store checks' second connection). The rest of the peak is the process itself (binary, Swift runtime,
/// Foundation: `startRSSMiB`) and Swift's own allocations.
enum MemoryBreakdown {
    static func record(store: String?, into result: inout ScenarioResult) {
        result.extra["sqliteHeapMiB"] = Double(SQLiteTrace.heapHighWater) / 1_048_576
        var seen: [String: Int] = [:]
        for connection in SQLiteTrace.shared.connections {
            let kind = label(of: connection.file, store: store)
            seen[kind, default: 0] += 1
            if connection.pagesRead > 0 {
                result.extra["pagesRead.\(kind)#\(seen[kind] ?? 1)"] = Double(connection.pagesRead)
            }
            guard connection.largestCache > 0 else { continue }
            result.extra["cacheMiB.\(kind)#\(seen[kind] ?? 1)"] = Double(connection.largestCache) / 1_048_576
        }
    }

    /// What a connection's file is to the scenario.
    static func label(of file: String, store: String?) -> String {
        if let store, file == store { return "original" }
        if file.hasSuffix(".remodel-migrating") { return "step" }
        if file.contains(".remodel-step-") { return "pass" }
        if file.hasSuffix(".handwritten") { return "copy" }
        if file.contains(".template") { return "template" }
        return file.isEmpty ? "temporary" : file.split(separator: "/").last.map(String.init) ?? "?"
    }
}
