import Foundation

/// The largest "own" memory of the process while a scenario runs: resident pages that are not mapped
/// files (`resident − shared` of `/proc/self/statm`: heap, SQLite's caches, thread stacks), sampled every
/// 2 ms on a thread of its own. The peak RSS adds to it the pages of the executable and the shared
/// libraries the run touched (Swift's runtime, Foundation, libxml2, SQLite: about 19 MiB at start, 26 MiB
/// after a migration), which every Swift program linking Foundation on Linux pays.
final class OwnMemorySampler: @unchecked Sendable {
    private let lock = NSLock()
    private var running = true
    private var largestPages = 0
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
        lock.lock()
        largestPages = max(largestPages, fields[1] - fields[2])
        lock.unlock()
    }

    /// The `read` calls the sampler has made so far (one per sample), to take out of `/proc/self/io`'s count.
    var reads: Int {
        lock.lock()
        defer { lock.unlock() }
        return readCalls
    }

    /// Stops sampling and returns the largest own memory seen, MiB.
    func stop() -> Double {
        sample()
        lock.lock()
        defer { lock.unlock() }
        running = false
        return Double(largestPages * pageSize) / 1_048_576
    }
}
