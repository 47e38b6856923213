#if canImport(Glibc)
    import Glibc
#elseif canImport(Darwin)
    import Darwin
#endif

/// A lock with a condition threads wait on, on POSIX threads: what Foundation's `NSCondition` does, without mapping
/// Foundation's code into a migrating process. Lock before waiting, signalling or touching what it guards.
package final class ThreadCondition: @unchecked Sendable {
    private let mutex: UnsafeMutablePointer<pthread_mutex_t>
    private let condition: UnsafeMutablePointer<pthread_cond_t>

    package init() {
        mutex = .allocate(capacity: 1)
        mutex.initialize(to: pthread_mutex_t())
        pthread_mutex_init(mutex, nil)
        condition = .allocate(capacity: 1)
        condition.initialize(to: pthread_cond_t())
        pthread_cond_init(condition, nil)
    }

    deinit {
        pthread_cond_destroy(condition)
        pthread_mutex_destroy(mutex)
        condition.deallocate()
        mutex.deallocate()
    }

    package func lock() {
        pthread_mutex_lock(mutex)
    }

    package func unlock() {
        pthread_mutex_unlock(mutex)
    }

    /// Lets go of the lock until signalled (or woken spuriously: wait in a loop on what is awaited), then takes it
    /// again.
    package func wait() {
        pthread_cond_wait(condition, mutex)
    }

    /// As ``wait()``, for at most `seconds`.
    package func wait(seconds: Double) {
        let deadline = WallClock.secondsSince1970() + seconds
        let whole = deadline.rounded(.down)
        var time = timespec()
        time.tv_sec = .init(whole)
        time.tv_nsec = .init(min((deadline - whole) * 1_000_000_000, 999_999_999))
        pthread_cond_timedwait(condition, mutex, &time)
    }

    /// Wakes one waiting thread.
    package func signal() {
        pthread_cond_signal(condition)
    }

    /// Wakes every waiting thread.
    package func broadcast() {
        pthread_cond_broadcast(condition)
    }
}
