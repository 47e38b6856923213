import Foundation
import RemodelSQLite

/// The largest "own" memory of the process while a scenario runs: resident pages that are not mapped
/// files (`resident − shared` of `/proc/self/statm`: heap, SQLite's caches, thread stacks), sampled every
/// 2 ms on a thread of its own. The peak RSS adds to it the pages of the executable and the shared
/// libraries the run touched (Swift's runtime, Foundation, libxml2, SQLite: about 19 MiB at start, 26 MiB
/// after a migration), which every Swift program linking Foundation on Linux pays.
///
/// Near the sample where own memory peaks (within a quarter of it, or 256 KiB) it also keeps what was in use then: the bytes glibc's `malloc`
/// had handed out (`mallinfo2`: SQLite's heap, Swift's objects, libxml2's and Foundation's) and SQLite's
/// own part of them (`sqlite3_memory_used`), so that the peak splits into SQLite, the rest of the heap,
/// and what is neither (thread stacks, memory `malloc` keeps but has not handed out).
final class OwnMemorySampler: @unchecked Sendable {
    /// Own memory at its peak and what it held then, bytes.
    struct Peak {
        var own = 0
        var malloc = 0
        var sqlite = 0
    }

    private let lock = NSLock()
    private var running = true
    private var peak = Peak()
    /// Own memory when `malloc` was last asked what it held.
    private var mallocAskedAt = 0
    private var readCalls = 0
    private let pageSize = Int(sysconf(Int32(_SC_PAGESIZE)))

    init() {
        let thread = Thread { [self] in
            while isRunning {
                sample()
                usleep(2_000)
            }
        }
        thread.start()
    }

    private var isRunning: Bool {
        lock.lock()
        defer { lock.unlock() }
        return running
    }

    /// Reads `/proc/self/statm` (pages: size, resident, shared, …) without Foundation.
    private func sample() {
        let descriptor = open("/proc/self/statm", O_RDONLY)
        guard descriptor >= 0 else { return }
        defer { close(descriptor) }
        var buffer = [UInt8](repeating: 0, count: 128)
        let count = buffer.withUnsafeMutableBytes { read(descriptor, $0.baseAddress, 127) }
        lock.lock()
        readCalls += 1
        lock.unlock()
        guard count > 0 else { return }
        let fields = buffer[0..<count].split(separator: UInt8(ascii: " ")).prefix(3).map {
            Int(String(decoding: $0, as: UTF8.self)) ?? 0
        }
        guard fields.count == 3 else { return }
        let own = (fields[1] - fields[2]) * pageSize
        lock.lock()
        defer { lock.unlock() }
        guard own > peak.own else { return }
        peak.own = own
        // `mallinfo2` walks every free chunk of every arena with the arena locked: asked at each new peak of a
        // process whose memory keeps growing (a long chain's plan), it took a third of the process's CPU time.
        // It is asked again only when own memory has grown by a quarter (or 256 KiB) since it last was.
        guard own >= mallocAskedAt + max(256 << 10, mallocAskedAt / 4) else { return }
        mallocAskedAt = own
        peak.malloc = Self.mallocInUse() ?? 0
        peak.sqlite = Int(sqlite3_memory_used())
    }

    /// glibc's `mallinfo2()` (not in Swift's Glibc module), found once with `dlsym`.
    private static let mallinfo2 = Int(bitPattern: dlsym(nil, "mallinfo2"))

    /// The bytes `malloc` has handed out and not had back (`uordblks + hblkhd` of `mallinfo2()`), or nil where
    /// it cannot be asked. `struct mallinfo2` is ten `size_t`s, returned through a hidden pointer: on x86-64
    /// (System V) the pointer is the first argument, so the function is called as one taking it.
    private static func mallocInUse() -> Int? {
        #if arch(x86_64) && os(Linux)
            guard let function = UnsafeMutableRawPointer(bitPattern: mallinfo2) else { return nil }
            typealias Call = @convention(c) (UnsafeMutablePointer<Int>) -> Void
            var fields = [Int](repeating: 0, count: 10)
            fields.withUnsafeMutableBufferPointer { unsafeBitCast(function, to: Call.self)($0.baseAddress!) }
            return fields[7] + fields[4]
        #else
            return nil
        #endif
    }

    /// The `read` calls the sampler has made so far (one per sample), to take out of `/proc/self/io`'s count.
    var reads: Int {
        lock.lock()
        defer { lock.unlock() }
        return readCalls
    }

    /// Stops sampling and returns own memory at its peak and what it held, bytes.
    func stop() -> Peak {
        sample()
        lock.lock()
        defer { lock.unlock() }
        running = false
        return peak
    }
}
