import Foundation

/// The machine's memory, from `/proc/meminfo`, as the table's header states it.
enum MachineMemory {
    /// `MemTotal` and `MemAvailable`, bytes.
    static var totalAndAvailable: (total: Int, available: Int) {
        let text = (try? String(contentsOfFile: "/proc/meminfo", encoding: .utf8)) ?? ""
        func field(_ name: String) -> Int {
            let line = text.split(separator: "\n").first { $0.hasPrefix(name + ":") } ?? ""
            return (Int(line.split(separator: " ").dropFirst().first ?? "") ?? 0) * 1024
        }
        return (field("MemTotal"), field("MemAvailable"))
    }

    static var description: String {
        let memory = totalAndAvailable
        return
            "memory \(fixed(Double(memory.total) / 1_073_741_824, 1)) GiB, \(fixed(Double(memory.available) / 1_073_741_824, 1)) GiB available"
    }
}

/// Drops a file's pages from the page cache (`posix_fadvise(POSIX_FADV_DONTNEED)` once it is flushed), so that
/// the next run reads it from storage as a store that was not just written would be: `--cold`. Only this file's
/// clean pages go; the rest of the machine's cache stays.
enum PageCacheDrop {
    static func drop(_ path: String) throws {
        try HandWritten.flush(path)
        let descriptor = open(path, O_RDONLY)
        guard descriptor >= 0 else { throw BenchError("cannot open \(path) to drop it from the page cache") }
        defer { close(descriptor) }
        guard posix_fadvise(descriptor, 0, 0, POSIX_FADV_DONTNEED) == 0 else {
            throw BenchError("cannot drop \(path) from the page cache")
        }
    }
}
