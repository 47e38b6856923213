/// A phase's progress in units of unequal weight (the rows each one reads or writes), reported as
/// each unit is done. All the units are known when it is made, so the phase's total never changes.
final class PhaseCounter {
    private let tracker: ProgressTracker
    private let phase: MigrationProgress.Phase
    private let pass: Int
    private let weights: [Int]
    private let total: Int
    private var completed = 0
    private var next = 0

    /// Starts the phase: reports 0 of the weights' sum.
    init(_ phase: MigrationProgress.Phase, pass: Int, weights: [Int], tracker: ProgressTracker) throws(RemodelError) {
        self.tracker = tracker
        self.phase = phase
        self.pass = pass
        self.weights = weights
        self.total = weights.reduce(0, +)
        try tracker.report(phase, pass: pass, entity: nil, completed: 0, total: total, force: true)
    }

    /// Reports the next unit done, naming what it was about.
    func done(_ entity: String?) throws(RemodelError) {
        if next < weights.count {
            completed += weights[next]
            next += 1
        }
        try tracker.report(phase, pass: pass, entity: entity, completed: completed, total: total)
    }
}
