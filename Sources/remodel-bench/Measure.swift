import Foundation

/// What one scenario measured, printed by the child as one JSON line after `RESULT `.
struct ScenarioResult: Codable {
    var scenario: String
    var objects: Int
    var seconds: Double
    /// Seconds per phase name (summed over steps), for library migrations.
    var phases: [String: Double] = [:]
    /// Seconds per step, for multi-step migrations.
    var steps: [Double] = []
    /// `getrusage(RUSAGE_SELF).ru_maxrss`, KiB.
    var maxRSSKiB: Int = 0
    /// `VmHWM` from /proc/self/status, KiB (the peak of this process image alone).
    var highWaterKiB: Int = 0
    /// Scenario-specific figures.
    var extra: [String: Double] = [:]
    var note: String = ""
}

enum Measure {
    static func now() -> Double {
        var time = timespec()
        clock_gettime(CLOCK_MONOTONIC, &time)
        return Double(time.tv_sec) + Double(time.tv_nsec) / 1e9
    }

    /// CPU seconds every thread of this process has used: unlike wall time, not stretched by other processes.
    static func processCPU() -> Double {
        var time = timespec()
        clock_gettime(CLOCK_PROCESS_CPUTIME_ID, &time)
        return Double(time.tv_sec) + Double(time.tv_nsec) / 1e9
    }

    static func maxRSSKiB() -> Int {
        var usage = rusage()
        #if os(Linux)
            getrusage(__rusage_who_t(RUSAGE_SELF.rawValue), &usage)
            return usage.ru_maxrss
        #else
            getrusage(RUSAGE_SELF, &usage)
            return usage.ru_maxrss / 1024  // bytes on macOS
        #endif
    }

    static func highWaterKiB() -> Int {
        status("VmHWM:")
    }

    /// `VmRSS`: this process's resident memory now, KiB.
    static func residentKiB() -> Int {
        status("VmRSS:")
    }

    /// Of the resident memory now, the part that is the process's own (heap, stacks: `Anonymous` in
    /// `/proc/self/smaps_rollup`), KiB; the rest is mapped files (the executable, Swift's runtime, Foundation, ICU).
    static func anonymousKiB() -> Int {
        status("Anonymous:", file: "/proc/self/smaps_rollup")
    }

    private static func status(_ field: String, file: String = "/proc/self/status") -> Int {
        guard let status = try? String(contentsOfFile: file, encoding: .utf8) else { return 0 }
        for line in status.split(separator: "\n") where line.hasPrefix(field) {
            return Int(line.split(separator: " ", omittingEmptySubsequences: true).dropFirst().first ?? "0") ?? 0
        }
        return 0
    }

    /// Records phase changes reported by the migrator's progress callback, with the kernel's I/O counters
    /// (``IOCounters``) at each change.
    final class PhaseClock: @unchecked Sendable {
        private let lock = NSLock()
        private var marks: [(phase: String, step: Int, time: Double, io: IOCounters)] = []

        func mark(phase: String, step: Int) {
            let time = Measure.now()
            lock.lock()
            let known = marks.last.map { $0.phase == phase && $0.step == step } ?? false
            lock.unlock()
            guard !known else { return }
            // Read outside the lock; only the callback's thread marks, so no other mark comes between.
            let io = IOCounters.now()
            lock.lock()
            defer { lock.unlock() }
            marks.append((phase, step, time, io))
        }

        /// When a phase was first reported.
        func first(_ phase: String) -> Double? {
            lock.lock()
            defer { lock.unlock() }
            return marks.first { $0.phase == phase }?.time
        }

        /// The I/O counters when a phase was first reported.
        func firstIO(_ phase: String) -> IOCounters? {
            lock.lock()
            defer { lock.unlock() }
            return marks.first { $0.phase == phase }?.io
        }

        /// Seconds per phase and per step, from `start` to `end`.
        func split(start: Double, end: Double) -> (phases: [String: Double], steps: [Double]) {
            lock.lock()
            defer { lock.unlock() }
            var phases: [String: Double] = [:]
            var steps: [Int: Double] = [:]
            var previous = (phase: "planning", step: 0, time: start)
            for mark in marks.map({ (phase: $0.phase, step: $0.step, time: $0.time) }) + [
                (phase: "end", step: -1, time: end)
            ] {
                phases[previous.phase, default: 0] += mark.time - previous.time
                if previous.step > 0, ["instances", "relationships", "indexes", "validation"].contains(previous.phase) {
                    steps[previous.step, default: 0] += mark.time - previous.time
                }
                previous = mark
            }
            phases["end"] = nil
            phases["finished"] = nil
            return (phases, steps.keys.sorted().map { steps[$0]! })
        }
    }
}
