#if canImport(Glibc)
    import Glibc
#elseif canImport(Darwin)
    import Darwin
#endif

/// A lock with a condition threads wait on, on POSIX threads: what Foundation's `NSCondition` does, without mapping
/// Foundation's code into a migrating process. Lock before waiting, signalling or touching what it guards.
final class ThreadCondition: @unchecked Sendable {
    private let mutex: UnsafeMutablePointer<pthread_mutex_t>
    private let condition: UnsafeMutablePointer<pthread_cond_t>

    init() {
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

    func lock() {
        pthread_mutex_lock(mutex)
    }

    func unlock() {
        pthread_mutex_unlock(mutex)
    }

    /// Lets go of the lock until signalled (or woken spuriously: wait in a loop on what is awaited), then takes it
    /// again.
    func wait() {
        pthread_cond_wait(condition, mutex)
    }

    /// As ``wait()``, for at most `seconds`.
    func wait(seconds: Double) {
        var now = timespec()
        clock_gettime(CLOCK_REALTIME, &now)
        let whole = Int(seconds.rounded(.down))
        var nanoseconds = Int(now.tv_nsec) + Int((seconds - Double(whole)) * 1_000_000_000)
        var deadline = now
        deadline.tv_sec += whole + nanoseconds / 1_000_000_000
        nanoseconds %= 1_000_000_000
        deadline.tv_nsec = .init(nanoseconds)
        pthread_cond_timedwait(condition, mutex, &deadline)
    }

    /// Wakes one waiting thread.
    func signal() {
        pthread_cond_signal(condition)
    }

    /// Wakes every waiting thread.
    func broadcast() {
        pthread_cond_broadcast(condition)
    }
}
