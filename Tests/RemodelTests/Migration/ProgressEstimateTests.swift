import Foundation
import Testing

@testable import Remodel
@testable import RemodelModel

/// The time left: none until the rate of the work is known (a second of work and 5% of it), and then the
/// rate of the work alone, planning left out — a 1.2 s migration once showed `ETA 11s` from its first batches.
@Suite struct ProgressEstimateTests {
    /// A clock the test moves.
    final class ManualClock: @unchecked Sendable {
        private let lock = NSLock()
        private var time = 0.0
        var now: Double { lock.locked { time } }
        func advance(_ seconds: Double) { lock.locked { time += seconds } }
    }

    @Test func noEstimateUntilTheRateIsKnown() {
        var rate = ProgressRate()
        let start = 1_000.0
        #expect(rate.secondsRemaining(at: 0, now: start) == nil)
        #expect(rate.secondsRemaining(at: 0.5, now: start + 0.9) == nil, "not a second of work yet")
        #expect(rate.secondsRemaining(at: 0.04, now: start + 3) == nil, "not 5% of the work yet")
        #expect(rate.secondsRemaining(at: 0.25, now: start + 1) == 3, "a quarter in a second: three more")
        #expect(rate.secondsRemaining(at: 1, now: start + 4) == 0)
    }

    /// Planning takes 5 s, then phase 1 runs at a steady rate (4 s for its share of the step): the first
    /// estimate comes after a second of work, and it is that rate's, not one that counts the planning.
    @Test func theEstimateIsTheWorksRate() throws {
        let clock = ManualClock()
        let values = Collector<MigrationProgress>()
        let tracker = ProgressTracker(cancellation: CancellationFlag(), clock: { clock.now }) { values.append($0) }
        try tracker.report(.planning, pass: 0, entity: nil, completed: 0, total: 1, force: true)
        clock.advance(5)
        tracker.planned(passes: [1...1])
        try tracker.report(.planning, pass: 0, entity: nil, completed: 1, total: 1, force: true)
        tracker.beginStep(0, of: 1)
        for done in 0...100 {
            try tracker.report(.instances, pass: 1, entity: "Person", completed: done, total: 100)
            clock.advance(0.04)
        }
        let work = values.values.filter { $0.phase == .instances }
        #expect(values.values.filter { $0.phase == .planning }.allSatisfy { $0.estimatedSecondsRemaining == nil })
        let first = try #require(work.firstIndex { $0.estimatedSecondsRemaining != nil })
        // Value i of phase 1 is 0.04 × (its count) s into the work; 25 units take the first second.
        #expect(work[..<first].allSatisfy { $0.completed < 25 }, "\(work[..<first].map(\.completed))")
        for value in work[first...] {
            let elapsed = 0.04 * Double(value.completed)
            let expected = elapsed / value.fraction - elapsed
            let estimate = try #require(value.estimatedSecondsRemaining)
            #expect(abs(estimate - expected) < 0.01 * expected + 0.05, "\(value): \(estimate) s, expected \(expected)")
        }
    }
}
