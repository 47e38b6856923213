import Foundation

/// `--statements N`: the child writes the N statements that took longest (summed over their runs) to
/// standard error, with the connection that ran them, so a scenario's parts can be read down to the SQL.
enum StatementLog {
    static func write(top count: Int, store: String?, scenario: String, start: Double) {
        let connections = SQLiteTrace.shared.connections
        var labels: [Int: String] = [:]
        var seen: [String: Int] = [:]
        for connection in connections {
            let kind = MemoryBreakdown.label(of: connection.file, store: store)
            seen[kind, default: 0] += 1
            labels[connection.id] = "\(kind)#\(seen[kind] ?? 1)"
        }
        let entries = SQLiteTrace.shared.entries.sorted { $0.seconds > $1.seconds }.prefix(count)
        guard !entries.isEmpty else { return }
        var text = "statements of \(scenario) (seconds, runs, connection, start and end from the scenario's start):\n"
        for entry in entries {
            let sql = entry.sql.replacingOccurrences(of: "\n", with: " ")
            text +=
                "  \(fixed(entry.seconds, 3)) s ×\(entry.runs) \(labels[entry.connection] ?? "?") "
                + "[\(fixed(entry.first - start, 3))–\(fixed(entry.last - start, 3))] \(sql.prefix(220))\n"
        }
        let readers = SQLiteTrace.shared.entries.filter { $0.diskRead + $0.diskWrite > 0 }.sorted {
            $0.diskRead + $0.diskWrite > $1.diskRead + $1.diskWrite
        }.prefix(count)
        if !readers.isEmpty {
            text +=
                "statements of \(scenario) that read from or wrote to storage most (MiB read/written, its thread's counters):\n"
            for entry in readers {
                let sql = entry.sql.replacingOccurrences(of: "\n", with: " ")
                text +=
                    "  \(fixed(Double(entry.diskRead) / 1_048_576, 1))/\(fixed(Double(entry.diskWrite) / 1_048_576, 1)) ×\(entry.runs) "
                    + "\(labels[entry.connection] ?? "?") [\(fixed(entry.first - start, 3))–\(fixed(entry.last - start, 3))] \(sql.prefix(220))\n"
            }
        }
        FileHandle.standardError.write(Data(text.utf8))
    }
}
