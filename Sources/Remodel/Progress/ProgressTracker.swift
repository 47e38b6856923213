import Foundation

/// Turns "phase, pass, completed of total" into monotonic overall fractions
/// and hands each value to the migration's observer.
///
/// The tracker is made before planning (it reports planning from 0 to 1 of 1);
/// ``planned(passes:)`` then tells it how the plan runs. A phase's `total` is
/// the one its first report gives: later reports of the same pass and phase
/// keep it.
final class ProgressTracker {
    /// How much of a pass each phase takes, in order; they add up to 1. Measured with
    /// `remodel-bench --objects 100000,1000000 --only migrate,migrate3` (release, 2 cores): the
    /// wall-time shares of phase 1, phase 2 (with the non-unique indexes), phase 3 (with the unique
    /// indexes and the metadata) and the replace, planning left out, were 23–33%, 37–43%, 28–36% and
    /// 1–4% over the four runs.
    static let weights: [MigrationProgress.Phase: (start: Double, share: Double)] = [
        .instances: (0.0, 0.27),
        .relationships: (0.27, 0.42),
        .validation: (0.69, 0.29),
        .replace: (0.98, 0.02),
    ]

    /// The plan's steps each pass covers, in order; empty until planned.
    private var passes: [ClosedRange<Int>]
    private let observer: @Sendable (MigrationProgress) -> Void
    private let cancellation: CancellationFlag
    private let started = Date()
    private var lastFraction = 0.0
    private var lastDelivery = Date.distantPast
    private var lastWaitingReport = Date.distantPast
    /// The pass and phase reported last, and the total its first report gave.
    private var current: (step: Int, phase: MigrationProgress.Phase, total: Int)?
    /// The step of the current pass whose phases are reported, and how many steps the pass runs.
    private var stepOfPass = (offset: 0, count: 1)

    /// A tracker for a plan of `steps` passes of one step each.
    convenience init(
        steps: Int, cancellation: CancellationFlag, observer: @escaping @Sendable (MigrationProgress) -> Void
    ) {
        self.init(cancellation: cancellation, observer: observer)
        planned(passes: (0..<max(steps, 0)).map { ($0 + 1)...($0 + 1) })
    }

    /// A tracker whose plan is not known yet.
    init(cancellation: CancellationFlag, observer: @escaping @Sendable (MigrationProgress) -> Void) {
        self.passes = []
        self.cancellation = cancellation
        self.observer = observer
    }

    /// Tells how the plan runs: the plan's steps (1-based) of each pass.
    func planned(passes: [ClosedRange<Int>]) {
        self.passes = passes
    }

    /// Tells which of the current pass's steps reports next (0-based), of how many: each step of a pass
    /// takes an equal share of it, its phases in their proportions.
    func beginStep(_ offset: Int, of count: Int) {
        stepOfPass = (offset, max(count, 1))
        current = nil
    }

    /// Reports progress and throws if the migration was cancelled.
    /// - Parameter step: The pass, 1-based (0 while planning).
    func report(
        _ phase: MigrationProgress.Phase, step: Int, entity: String?, completed: Int, total: Int, force: Bool = false
    ) throws(RemodelError) {
        try checkCancellation()
        let total = fixedTotal(phase, step: step, total: total)
        let completed = min(max(completed, 0), total)
        let within = total > 0 ? Double(completed) / Double(total) : 1
        let steps = passes.count
        var fraction: Double
        switch phase {
        case .waiting, .planning: fraction = 0
        case .finished: fraction = 1
        default:
            let weight = Self.weights[phase] ?? (0, 0)
            let withinPass =
                (Double(stepOfPass.offset) + weight.start + weight.share * within) / Double(stepOfPass.count)
            fraction = (Double(step - 1) + withinPass) / Double(max(steps, 1))
        }
        // Four decimals are more than any bar shows, and keep `0.035` from printing as `0.034999999999999996`.
        fraction = (fraction * 10_000).rounded(.down) / 10_000
        fraction = min(phase == .finished ? 1 : 0.9999, max(lastFraction, fraction))
        let now = Date()
        // Deliver at most ~20 times a second, but always at phase boundaries.
        guard
            force || phase == .finished || completed == 0 || completed >= total
                || now.timeIntervalSince(lastDelivery) >= 0.05
        else { return }
        lastFraction = fraction
        lastDelivery = now
        let elapsed = now.timeIntervalSince(started)
        let remaining: Double? =
            phase == .finished ? 0 : (fraction > 0.02 && elapsed > 0.2 ? elapsed * (1 - fraction) / fraction : nil)
        let pass = phase == .finished ? steps : step
        let planSteps = passes.indices.contains(pass - 1) ? passes[pass - 1] : nil
        let planStep =
            phase == .planning || phase == .finished
            ? nil : planSteps.map { min($0.lowerBound + stepOfPass.offset, $0.upperBound) }
        observer(
            MigrationProgress(
                phase: phase, step: pass, steps: steps, entity: entity, completed: completed, total: total,
                fraction: fraction,
                estimatedSecondsRemaining: remaining, planSteps: planSteps, planStep: planStep))
    }

    /// Reports that this migration waits for another process's, which is `otherFraction` done (0…1; `nil`
    /// when it has not said yet), at most 4 times a second; throws if this migration was cancelled.
    func reportWaiting(otherFraction: Double?) throws(RemodelError) {
        try checkCancellation()
        let now = Date()
        guard now.timeIntervalSince(lastWaitingReport) >= 0.25 else { return }
        lastWaitingReport = now
        let scale = 10_000
        let done = Int(((otherFraction ?? 0) * Double(scale)).rounded(.down))
        observer(
            MigrationProgress(
                phase: .waiting, step: 0, steps: 0, entity: nil, completed: min(max(done, 0), scale), total: scale,
                fraction: lastFraction, estimatedSecondsRemaining: nil))
    }

    /// The total of the phase being reported: the one its first report gave.
    private func fixedTotal(_ phase: MigrationProgress.Phase, step: Int, total: Int) -> Int {
        if let current, current.step == step, current.phase == phase { return current.total }
        current = (step, phase, max(total, 0))
        return max(total, 0)
    }

    /// Throws ``RemodelError/Code/cancelled`` if the migration was cancelled.
    func checkCancellation() throws(RemodelError) {
        if cancellation.isCancelled || Task.isCancelled {
            throw RemodelError(.cancelled, "the migration was cancelled; the store was left as it was")
        }
    }
}

/// A flag set from any thread to cancel a migration.
final class CancellationFlag: @unchecked Sendable {
    private let lock = NSLock()
    private var cancelled = false

    var isCancelled: Bool {
        lock.lock()
        defer { lock.unlock() }
        return cancelled
    }

    func cancel() {
        lock.lock()
        cancelled = true
        lock.unlock()
    }
}
