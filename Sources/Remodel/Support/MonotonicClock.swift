#if canImport(Glibc)
    import Glibc
#elseif canImport(Darwin)
    import Darwin
#endif

/// Seconds on the system's monotonic clock, for how long something took or since when a report was last given
/// (`Date` would map Foundation's code into every migrating process, and can jump with the wall clock).
package enum MonotonicClock {
    /// Seconds since an unspecified start, never going back.
    package static func seconds() -> Double {
        clockSeconds(CLOCK_MONOTONIC)
    }
}

/// The time of day, as seconds since 1970-01-01 00:00:00 UTC (what `Date().timeIntervalSince1970` gives, without
/// mapping Foundation's code into a migrating process): for the values a migration records.
package enum WallClock {
    /// Seconds since 1970-01-01 00:00:00 UTC, now.
    package static func secondsSince1970() -> Double {
        clockSeconds(CLOCK_REALTIME)
    }
}

/// The CPU time the calling thread has used, in seconds: how much of a core a background thread gets.
package enum ThreadCPUClock {
    /// Seconds of CPU the calling thread has used since it started.
    package static func seconds() -> Double {
        clockSeconds(CLOCK_THREAD_CPUTIME_ID)
    }
}

/// Seconds of one of the system's clocks.
private func clockSeconds(_ clock: clockid_t) -> Double {
    var time = timespec()
    clock_gettime(clock, &time)
    return Double(time.tv_sec) + Double(time.tv_nsec) / 1_000_000_000
}
