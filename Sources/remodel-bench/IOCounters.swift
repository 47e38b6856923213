import Foundation

/// The kernel's input and output counters of this process, from `/proc/self/io` (every thread, those that
/// ended included):
///
/// - `syscr`: read system calls — `read`, `pread64`, `readv`, and one per `copy_file_range` call, on any
///   file (the store, its copy, the model's XML, `/proc` files);
/// - `rchar`, `wchar`: bytes those calls returned and bytes write calls took, whether the page cache or the
///   disk served them (the byte copy's `copy_file_range` bytes included in both);
/// - `read_bytes`: bytes the process made the block layer fetch from storage (0 when everything was cached);
/// - `write_bytes`: bytes the process sent towards storage — counted when it makes a page of the page cache
///   dirty, so a page written twice before it is written back counts once, and a page written back and then
///   written again counts twice;
/// - `cancelled_write_bytes`: of those, bytes never written because their file was truncated or removed
///   while they were still dirty.
struct IOCounters: Sendable {
    var calls = 0
    var bytes = 0
    var diskBytes = 0
    var writtenBytes = 0
    var diskWriteBytes = 0
    var cancelledWriteBytes = 0

    /// Read with POSIX calls and parsed by hand: Foundation's file and text code would be mapped into the child
    /// by the measurement itself.
    /// - Parameter thread: This thread's counters alone (`/proc/thread-self/io`) instead of the process's.
    static func now(thread: Bool = false) -> IOCounters {
        let file = open(thread ? "/proc/thread-self/io" : "/proc/self/io", O_RDONLY)
        guard file >= 0 else { return IOCounters() }
        defer { close(file) }
        var buffer = [UInt8](repeating: 0, count: 4096)
        let count = buffer.withUnsafeMutableBytes { read(file, $0.baseAddress, $0.count) }
        guard count > 0 else { return IOCounters() }
        var counters = IOCounters()
        for line in buffer[..<count].split(separator: UInt8(ascii: "\n")) {
            let parts = line.split(separator: UInt8(ascii: ":"), maxSplits: 1)
            let digits =
                parts.count == 2 ? String(decoding: parts[1].filter { $0 != UInt8(ascii: " ") }, as: UTF8.self) : ""
            guard let value = Int(digits) else { continue }
            switch String(decoding: parts[0], as: UTF8.self) {
            case "syscr": counters.calls = value
            case "rchar": counters.bytes = value
            case "read_bytes": counters.diskBytes = value
            case "wchar": counters.writtenBytes = value
            case "write_bytes": counters.diskWriteBytes = value
            case "cancelled_write_bytes": counters.cancelledWriteBytes = value
            default: break
            }
        }
        return counters
    }

    /// What was read and written since `start`.
    func since(_ start: IOCounters) -> IOCounters {
        IOCounters(
            calls: calls - start.calls, bytes: bytes - start.bytes, diskBytes: diskBytes - start.diskBytes,
            writtenBytes: writtenBytes - start.writtenBytes, diskWriteBytes: diskWriteBytes - start.diskWriteBytes,
            cancelledWriteBytes: cancelledWriteBytes - start.cancelledWriteBytes)
    }

    /// Records each part's bytes read from and written to storage in `result.extra`: `diskRead.copy`,
    /// `diskWrite.copy`, `rchar.copy`, `wchar.copy`, ….
    static func record(parts: [String: IOCounters], into result: inout ScenarioResult) {
        for (part, counters) in parts {
            result.extra["diskRead.\(part)"] = Double(counters.diskBytes)
            result.extra["diskWrite.\(part)"] = Double(counters.diskWriteBytes)
            result.extra["rchar.\(part)"] = Double(counters.bytes)
            result.extra["wchar.\(part)"] = Double(counters.writtenBytes)
        }
    }

    /// These counters and `other`'s together.
    func adding(_ other: IOCounters) -> IOCounters {
        IOCounters(
            calls: calls + other.calls, bytes: bytes + other.bytes, diskBytes: diskBytes + other.diskBytes,
            writtenBytes: writtenBytes + other.writtenBytes, diskWriteBytes: diskWriteBytes + other.diskWriteBytes,
            cancelledWriteBytes: cancelledWriteBytes + other.cancelledWriteBytes)
    }

    /// Records the counters from `start` to now in `result.extra`: `readCalls` (less the memory sampler's own
    /// reads of `/proc/self/statm` in that time), `readBytes` (rchar), `diskReadBytes`, `writtenBytes` (wchar),
    /// `diskWriteBytes`, `cancelledWriteBytes`.
    static func record(since start: IOCounters, samplerReads: Int = 0, into result: inout ScenarioResult) {
        let done = now().since(start)
        result.extra["readCalls"] = Double(done.calls - samplerReads)
        result.extra["readBytes"] = Double(done.bytes)
        result.extra["diskReadBytes"] = Double(done.diskBytes)
        result.extra["writtenBytes"] = Double(done.writtenBytes)
        result.extra["diskWriteBytes"] = Double(done.diskWriteBytes)
        result.extra["cancelledWriteBytes"] = Double(done.cancelledWriteBytes)
    }
}

/// Times the consecutive parts of a hand-written limit (`copy`, `sql`, `replace`) with the kernel's I/O
/// counters over each.
struct PartClock {
    private var last = (time: Measure.now(), io: IOCounters.now())
    private(set) var seconds: [String: Double] = [:]
    private(set) var io: [String: IOCounters] = [:]

    /// Ends the part called `name`, begun where the last one ended (or where the clock was made).
    mutating func end(_ name: String) {
        let now = (time: Measure.now(), io: IOCounters.now())
        seconds[name, default: 0] += now.time - last.time
        io[name] = io[name, default: IOCounters()].adding(now.io.since(last.io))
        last = now
    }

    /// Records the parts' seconds as the result's phases and their I/O as ``PhaseSplit/record(into:)`` does.
    func record(into result: inout ScenarioResult) {
        result.phases = seconds
        IOCounters.record(parts: io, into: &result)
    }
}
