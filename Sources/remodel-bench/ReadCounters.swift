import Foundation

/// The kernel's read counters of this process, from `/proc/self/io` (every thread, those that ended
/// included):
///
/// - `syscr`: read system calls — `read`, `pread64`, `readv`, and one per `copy_file_range` call, on any
///   file (the store, its copy, the model's XML, `/proc` files);
/// - `rchar`: bytes those calls returned, whether from the page cache or the disk (the byte copy's
///   `copy_file_range` bytes included);
/// - `read_bytes`: bytes the process made the block layer fetch from the disk (0 when everything was cached).
struct ReadCounters {
    var calls = 0
    var bytes = 0
    var diskBytes = 0

    static func now() -> ReadCounters {
        guard let text = try? String(contentsOfFile: "/proc/self/io", encoding: .utf8) else { return ReadCounters() }
        var counters = ReadCounters()
        for line in text.split(separator: "\n") {
            let parts = line.split(separator: ":", maxSplits: 1)
            guard parts.count == 2, let value = Int(parts[1].trimmingCharacters(in: .whitespaces)) else { continue }
            switch parts[0] {
            case "syscr": counters.calls = value
            case "rchar": counters.bytes = value
            case "read_bytes": counters.diskBytes = value
            default: break
            }
        }
        return counters
    }

    /// What was read since `start`.
    func since(_ start: ReadCounters) -> ReadCounters {
        ReadCounters(calls: calls - start.calls, bytes: bytes - start.bytes, diskBytes: diskBytes - start.diskBytes)
    }

    /// Records the counters read from `start` to now in `result.extra` (`readCalls`, `readBytes`, `diskReadBytes`),
    /// less the memory sampler's own reads of `/proc/self/statm` in that time.
    static func record(since start: ReadCounters, samplerReads: Int, into result: inout ScenarioResult) {
        let read = now().since(start)
        result.extra["readCalls"] = Double(read.calls - samplerReads)
        result.extra["readBytes"] = Double(read.bytes)
        result.extra["diskReadBytes"] = Double(read.diskBytes)
    }
}
