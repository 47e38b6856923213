import Foundation
import Testing

@testable import Remodel

/// The condition the migration lock's heartbeat and the policy channel wait on.
struct ThreadConditionTests {
    /// A wait with a time limit ends by itself, after about that long.
    @Test func aTimedWaitEndsAfterItsTime() {
        let condition = ThreadCondition()
        let start = MonotonicClock.seconds()
        condition.lock()
        condition.wait(seconds: 0.15)
        condition.unlock()
        let waited = MonotonicClock.seconds() - start
        #expect(waited >= 0.14 && waited < 5, "\(waited)")
    }

    /// A signal wakes a thread that waits on what another thread sets.
    @Test func aSignalWakesTheWaiter() {
        final class Box: @unchecked Sendable {
            let condition = ThreadCondition()
            var ready = false
            var seen = false
        }
        let box = Box()
        let thread = Thread {
            box.condition.lock()
            while !box.ready { box.condition.wait() }
            box.seen = true
            box.condition.signal()
            box.condition.unlock()
        }
        thread.start()
        box.condition.lock()
        box.ready = true
        box.condition.broadcast()
        let deadline = MonotonicClock.seconds() + 10
        while !box.seen && MonotonicClock.seconds() < deadline { box.condition.wait(seconds: 0.05) }
        let seen = box.seen
        box.condition.unlock()
        #expect(seen)
    }

    /// The clocks: the monotonic one does not go back; the wall clock is Foundation's.
    @Test func theClocksAgreeWithFoundation() {
        var last = MonotonicClock.seconds()
        for _ in 0..<1_000 {
            let now = MonotonicClock.seconds()
            #expect(now >= last)
            last = now
        }
        #expect(abs(WallClock.secondsSince1970() - Date().timeIntervalSince1970) < 1)
    }
}
