import Foundation
import Testing

@testable import Remodel

/// A phase's first report reaches the observer even when its work starts past 0 and comes within the
/// throttle's 50 ms of the last one: phase 3 passes the entities a step carried by before its first report,
/// and while that report was held back the phase before it (the indexes) seemed to last through phase 3
/// (`remodel-bench` put 6 s of validation under *indexes*, issue 44).
@Suite struct ProgressPhaseBoundaryTests {
    let clock = ProgressEstimateTests.ManualClock()
    let values = Collector<MigrationProgress>()

    /// A tracker of one pass of `steps` steps, at its first step, on the test's clock.
    private func tracker(steps: Int) -> ProgressTracker {
        let tracker = ProgressTracker(cancellation: CancellationFlag(), clock: { [clock] in clock.now }) {
            [values] in values.append($0)
        }
        tracker.planned(passes: [1...steps])
        tracker.beginStep(0, of: steps)
        return tracker
    }

    @Test func aPhaseStartingPastZeroIsDeliveredAtOnce() throws {
        let tracker = tracker(steps: 1)
        try tracker.report(.indexes, pass: 1, entity: nil, completed: 0, total: 1)
        clock.advance(0.01)
        // The first entity was carried: phase 3 reports first with its units already counted.
        try tracker.report(.validation, pass: 1, entity: "Person", completed: 40, total: 100)
        clock.advance(0.01)
        try tracker.report(.validation, pass: 1, entity: "Person", completed: 41, total: 100)
        let delivered = values.values.map { "\($0.phase) \($0.completed)" }
        #expect(delivered == ["indexes 0", "validation 40"], "the second validation report is throttled")
    }

    /// The next step's first report of a phase already seen is a boundary too.
    @Test func theNextStepsFirstReportIsDelivered() throws {
        let tracker = tracker(steps: 2)
        try tracker.report(.validation, pass: 1, entity: "Person", completed: 3, total: 10)
        tracker.beginStep(1, of: 2)
        clock.advance(0.01)
        try tracker.report(.validation, pass: 1, entity: "Person", completed: 3, total: 10)
        #expect(values.values.map(\.step) == [1, 2])
    }
}
