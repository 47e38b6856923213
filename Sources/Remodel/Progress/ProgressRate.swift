/// Estimates the seconds left of work whose fraction done is known, once its rate is known: from the
/// first value it is given (the start of the work, planning left out) until at least ``minimumSeconds``
/// have passed and ``minimumFraction`` of the work is done, it gives no estimate. Earlier the rate is
/// that of the first batches, which say little about the rest (a 1.2 s migration once showed `ETA 11s`).
package struct ProgressRate: Sendable {
    /// Seconds of work before a first estimate.
    package static let minimumSeconds = 1.0
    /// The fraction of the work done before a first estimate.
    package static let minimumFraction = 0.05

    private var start: (time: Double, fraction: Double)?

    /// A rate whose work starts with its first value.
    package init() {}

    /// The seconds left at `fraction` done, at `now` (seconds on a clock that does not go back, such as
    /// ``/RemodelModel/MonotonicClock``): `nil` while the rate is not known, 0 once done.
    package mutating func secondsRemaining(at fraction: Double, now: Double) -> Double? {
        if fraction >= 1 { return 0 }
        guard let start else {
            start = (now, fraction)
            return nil
        }
        let seconds = now - start.time
        let done = fraction - start.fraction
        guard seconds >= Self.minimumSeconds, done >= Self.minimumFraction else { return nil }
        return seconds * (1 - fraction) / done
    }
}
