import Foundation

/// Turns "phase, step, completed of total" into monotonic overall fractions
/// and hands each value to the migration's observer.
final class ProgressTracker {
    /// How much of a step each phase takes, in order; they add up to 1.
    private static let weights: [MigrationProgress.Phase: (start: Double, share: Double)] = [
        .instances: (0.0, 0.70),
        .relationships: (0.70, 0.15),
        .validation: (0.85, 0.12),
        .replace: (0.97, 0.03),
    ]

    private let steps: Int
    private let observer: @Sendable (MigrationProgress) -> Void
    private let cancellation: CancellationFlag
    private let started = Date()
    private var lastFraction = 0.0
    private var lastDelivery = Date.distantPast

    init(steps: Int, cancellation: CancellationFlag, observer: @escaping @Sendable (MigrationProgress) -> Void) {
        self.steps = steps
        self.cancellation = cancellation
        self.observer = observer
    }

    /// Reports progress and throws if the migration was cancelled.
    func report(
        _ phase: MigrationProgress.Phase, step: Int, entity: String?, completed: Int, total: Int, force: Bool = false
    ) throws(RemodelError) {
        try checkCancellation()
        let within = total > 0 ? min(1, Double(completed) / Double(total)) : 1
        var fraction: Double
        switch phase {
        case .planning: fraction = 0
        case .finished: fraction = 1
        default:
            let weight = Self.weights[phase] ?? (0, 0)
            fraction = (Double(step - 1) + weight.start + weight.share * within) / Double(max(steps, 1))
        }
        fraction = min(phase == .finished ? 1 : 0.999_999, max(lastFraction, fraction))
        let now = Date()
        // Deliver at most ~20 times a second, but always at phase boundaries.
        guard force || phase == .finished || completed == 0 || completed >= total || now.timeIntervalSince(lastDelivery) >= 0.05
        else { return }
        lastFraction = fraction
        lastDelivery = now
        let elapsed = now.timeIntervalSince(started)
        let remaining: Double? =
            phase == .finished ? 0 : (fraction > 0.02 && elapsed > 0.2 ? elapsed * (1 - fraction) / fraction : nil)
        observer(
            MigrationProgress(
                phase: phase, step: phase == .finished ? steps : step, steps: steps, entity: entity, completed: completed,
                total: total, fraction: fraction, estimatedSecondsRemaining: remaining))
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
