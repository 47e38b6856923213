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

    /// Read with POSIX calls and parsed by hand: Foundation's file and text code would be mapped into the child
    /// by the measurement itself.
    static func now() -> ReadCounters {
        let file = open("/proc/self/io", O_RDONLY)
        guard file >= 0 else { return ReadCounters() }
        defer { close(file) }
        var buffer = [UInt8](repeating: 0, count: 4096)
        let count = buffer.withUnsafeMutableBytes { read(file, $0.baseAddress, $0.count) }
        guard count > 0 else { return ReadCounters() }
        var counters = ReadCounters()
        for line in buffer[..<count].split(separator: UInt8(ascii: "\n")) {
            let parts = line.split(separator: UInt8(ascii: ":"), maxSplits: 1)
            let digits =
                parts.count == 2 ? String(decoding: parts[1].filter { $0 != UInt8(ascii: " ") }, as: UTF8.self) : ""
            guard let value = Int(digits) else { continue }
            switch String(decoding: parts[0], as: UTF8.self) {
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
