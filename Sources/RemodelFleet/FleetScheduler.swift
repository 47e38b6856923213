import Foundation
import Remodel

/// Hands out a fleet's stores to its worker threads, one at a time, in order:
/// the canary stores first, alone; no new store after the fleet stopped
/// (too many failures, a failed canary, cancellation).
final class FleetScheduler: @unchecked Sendable {
    private let condition = NSCondition()
    private let count: Int
    private let canary: Int
    private let maxFailures: Int?
    private var nextIndex = 0
    private var canaryRunning: Int
    private var failures = 0
    private var stopReason: StoreMigrationResult.Reason?

    init(count: Int, options: FleetOptions) {
        self.count = count
        self.canary = min(options.canary, count)
        self.maxFailures = options.maxFailures
        self.canaryRunning = min(options.canary, count)
    }

    /// The index of the next store to migrate, or `nil` when none is left or the fleet stopped.
    /// Past the canary stores, waits until every one of them finished.
    func next() -> Int? {
        condition.lock()
        defer { condition.unlock() }
        while stopReason == nil, nextIndex < count {
            if nextIndex >= canary && canaryRunning > 0 {
                condition.wait()
                continue
            }
            nextIndex += 1
            return nextIndex - 1
        }
        return nil
    }

    /// Records how the store at `index` ended; stops the fleet when the policy says so.
    func finished(_ index: Int, outcome: StoreMigrationResult.Outcome) {
        condition.lock()
        defer { condition.unlock() }
        if !outcome.isDone { failures += 1 }
        if index < canary {
            canaryRunning -= 1
            if !outcome.isDone { stop(.canaryFailed) }
        }
        if let maxFailures, failures >= maxFailures { stop(.maxFailures) }
        condition.broadcast()
    }

    /// Starts no new store.
    func cancel() {
        condition.lock()
        defer { condition.unlock() }
        stop(.cancelled)
        condition.broadcast()
    }

    /// The stores never started, and why; call once every worker is done.
    func unstarted() -> (indices: Range<Int>, reason: StoreMigrationResult.Reason) {
        condition.lock()
        defer { condition.unlock() }
        return (nextIndex..<count, stopReason ?? .cancelled)
    }

    private func stop(_ reason: StoreMigrationResult.Reason) {
        if stopReason == nil { stopReason = reason }
    }
}
