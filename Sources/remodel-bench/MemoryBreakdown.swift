import Foundation

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
            let other = connection.largestSchema + connection.largestStatements
            if other > 0 {
                result.extra["schemaAndStatementsMiB.\(kind)#\(seen[kind] ?? 1)"] = Double(other) / 1_048_576
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

extension MemoryBreakdown {
    /// The resident pages of mapped files at the scenario's end, MiB, by file (`/proc/self/smaps`): the
    /// executable and the shared libraries, whose pages a run touches once and keeps (they are part of the
    /// peak RSS, not of the own memory). `mappedMiB` is their sum; `mappedMiB.<file>` the largest twelve.
    static func recordMappedFiles(into result: inout ScenarioResult) {
        // Read to its end with `read`: Foundation stops at the size `stat` gives a /proc file.
        guard let handle = FileHandle(forReadingAtPath: "/proc/self/smaps"), let data = try? handle.readToEnd() else {
            return
        }
        let text = String(decoding: data, as: UTF8.self)
        var byFile: [String: Int] = [:]
        var current: String?
        for line in text.split(separator: "\n") {
            if let first = line.first, first.isHexDigit, line.contains("-") {
                let fields = line.split(separator: " ", omittingEmptySubsequences: true)
                current = fields.count >= 6 && fields[5].hasPrefix("/") ? String(fields[5]) : nil
            } else if let file = current, line.hasPrefix("Rss:") {
                let kib = Int(line.split(separator: " ", omittingEmptySubsequences: true).dropFirst().first ?? "0") ?? 0
                byFile[(file as NSString).lastPathComponent, default: 0] += kib
            }
        }
        result.extra["mappedMiB"] = Double(byFile.values.reduce(0, +)) / 1024
        for (file, kib) in byFile.sorted(by: { $0.value > $1.value }).prefix(12) {
            result.extra["mappedMiB.\(file)"] = Double(kib) / 1024
        }
    }
}
