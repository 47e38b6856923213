import Foundation

/// Turns "phase, pass, completed of total" into monotonic overall fractions
/// and hands each value to the migration's observer.
///
/// The tracker is made before planning (it reports planning from 0 to 1 of 1);
/// ``planned(passes:)`` then tells it how the plan runs, and ``beginStep(_:of:)``
/// which step of a pass reports next. A phase's `total` is the one its first
/// report gives: later reports of the same step and phase keep it.
final class ProgressTracker {
    /// How much of a step each phase takes, in order; they add up to 1. From the wall-time shares
    /// `remodel-bench --objects 100000,1000000 --only migrate,migrate3,oneOfTen --repeat 3` measured
    /// (release, 2 cores; planning, the copy and the schema left out), with phase 2 kept at 15%: its
    /// share is 0–1% where the benchmark's links are carried and was 44% when every table was rebuilt
    /// (docs/BENCHMARK.md, "Phase shares").
    static let weights: [MigrationProgress.Phase: (start: Double, share: Double)] = [
        .instances: (0.0, 0.40),
        .relationships: (0.40, 0.15),
        .indexes: (0.55, 0.15),
        .validation: (0.70, 0.25),
        .replace: (0.95, 0.05),
    ]

    /// The plan's steps each pass covers, in order; empty until planned.
    private var passes: [ClosedRange<Int>]
    private let observer: @Sendable (MigrationProgress) -> Void
    private let cancellation: CancellationFlag
    private let clock: @Sendable () -> Double
    private var rate = ProgressRate()
    private var lastFraction = 0.0
    private var lastDelivery = -Double.infinity
    private var lastWaitingReport = -Double.infinity
    /// The step and phase reported last, and the total its first report gave.
    private var current: (step: Int, phase: MigrationProgress.Phase, total: Int)?
    /// The step of the current pass whose phases are reported, and how many steps the pass runs.
    private var stepOfPass = (offset: 0, count: 1)

    /// A tracker whose plan is not known yet; `clock` tells the time (tests give their own).
    init(
        cancellation: CancellationFlag, clock: @escaping @Sendable () -> Double = MonotonicClock.seconds,
        observer: @escaping @Sendable (MigrationProgress) -> Void
    ) {
        self.passes = []
        self.cancellation = cancellation
        self.clock = clock
        self.observer = observer
    }

    /// Tells how the plan runs: the plan's steps (1-based) of each pass.
    func planned(passes: [ClosedRange<Int>]) {
        self.passes = passes
    }

    /// Tells which of the current pass's steps reports next (0-based), of how many.
    func beginStep(_ offset: Int, of count: Int) {
        stepOfPass = (offset, max(count, 1))
        current = nil
    }

    /// Reports progress and throws if the migration was cancelled.
    /// - Parameter pass: The pass, 1-based (0 while planning); the step is the one ``beginStep(_:of:)`` named.
    func report(
        _ phase: MigrationProgress.Phase, pass: Int, entity: String?, completed: Int, total: Int, force: Bool = false
    ) throws(RemodelError) {
        try checkCancellation()
        let steps = passes.last?.upperBound ?? 0
        let pass = phase == .finished ? passes.count : pass
        let passSteps = passes.indices.contains(pass - 1) ? passes[pass - 1] : nil
        let step: Int
        switch phase {
        case .planning: step = 0
        case .finished: step = steps
        default: step = passSteps.map { min($0.lowerBound + stepOfPass.offset, $0.upperBound) } ?? pass
        }
        // A phase's first report is delivered even when its work starts past 0 (phase 3 passes the entities a
        // step carried by before its first report): else the phase before it would seem to last until its next.
        let startsPhase = current.map { $0.step != step || $0.phase != phase } ?? true
        let total = fixedTotal(phase, step: step, total: total)
        let completed = min(max(completed, 0), total)
        let within = total > 0 ? Double(completed) / Double(total) : 1
        var fraction: Double
        switch phase {
        case .waiting, .planning: fraction = 0
        case .finished: fraction = 1
        default:
            // Each step of the plan takes an equal share, its phases in their proportions.
            let weight = Self.weights[phase] ?? (0, 0)
            fraction = (Double(step - 1) + weight.start + weight.share * within) / Double(max(steps, 1))
        }
        // Four decimals are more than any bar shows, and keep `0.035` from printing as `0.034999999999999996`.
        // (A hair above, so that 0.0003, which is 2.9999999999999996 ten-thousandths, stays 0.0003.)
        fraction = (fraction * 10_000 + 1e-7).rounded(.down) / 10_000
        fraction = min(phase == .finished ? 1 : 0.9999, max(lastFraction, fraction))
        let now = clock()
        // Deliver at most ~20 times a second, but always at phase boundaries.
        guard
            force || startsPhase || phase == .finished || completed == 0 || completed >= total
                || now - lastDelivery >= 0.05
        else { return }
        lastFraction = fraction
        lastDelivery = now
        // The rate is that of the work: it starts with the first value after planning.
        let remaining = phase == .planning ? nil : rate.secondsRemaining(at: fraction, now: now)
        observer(
            MigrationProgress(
                phase: phase, step: step, steps: steps, pass: pass, passes: passes.count,
                passSteps: phase == .planning ? nil : passSteps, entity: entity, completed: completed, total: total,
                fraction: fraction, estimatedSecondsRemaining: remaining))
    }

    /// Reports that this migration waits for another process's, which is `otherFraction` done (0…1; `nil`
    /// when it has not said yet), at most 4 times a second; throws if this migration was cancelled.
    func reportWaiting(otherFraction: Double?) throws(RemodelError) {
        try checkCancellation()
        let now = clock()
        guard now - lastWaitingReport >= 0.25 else { return }
        lastWaitingReport = now
        let scale = 10_000
        let done = Int(((otherFraction ?? 0) * Double(scale)).rounded(.down))
        observer(
            MigrationProgress(
                phase: .waiting, step: 0, steps: 0, pass: 0, passes: 0, passSteps: nil, entity: nil,
                completed: min(max(done, 0), scale), total: scale, fraction: lastFraction,
                estimatedSecondsRemaining: nil))
    }

    /// The total of the phase being reported: the one its first report gave.
    private func fixedTotal(_ phase: MigrationProgress.Phase, step: Int, total: Int) -> Int {
        if let current, current.step == step, current.phase == phase { return current.total }
        current = (step, phase, max(total, 0))
        return max(total, 0)
    }

    /// Throws ``/RemodelModel/RemodelError/Code/cancelled`` if the migration was cancelled.
    func checkCancellation() throws(RemodelError) {
        if cancellation.isCancelled || Task.isCancelled {
            throw RemodelError(.cancelled, "the migration was cancelled; the store was left as it was")
        }
    }
}

/// A flag set from any thread to cancel a migration.
package final class CancellationFlag: @unchecked Sendable {
    private let lock = NSLock()
    private var cancelled = false
    /// Another sign of cancellation, read with the flag: a `Foundation.Progress`'s `isCancelled` is set as
    /// `cancel()` returns, while its cancellation handler may run later, on another thread.
    private let linked: (@Sendable () -> Bool)?

    package init(alsoCancelledWhen linked: (@Sendable () -> Bool)? = nil) {
        self.linked = linked
    }

    var isCancelled: Bool {
        lock.lock()
        let cancelled = self.cancelled
        lock.unlock()
        return cancelled || linked?() == true
    }

    package func cancel() {
        lock.lock()
        cancelled = true
        lock.unlock()
    }
}
