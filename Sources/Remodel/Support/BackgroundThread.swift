import Foundation

/// Blocking work — SQLite statements, `fsync`, a policy's reading — on a thread of its own, and its
/// result: ``wait()`` blocks the calling thread until it is there, ``value()`` suspends the calling
/// task instead, so that `async` API never holds a thread of Swift's cooperative pool while SQLite
/// works. Cancelling is the work's own business (a flag it checks, `sqlite3_interrupt`).
package final class BackgroundThread<Value: Sendable>: @unchecked Sendable {
    // `outcome` and `waiting` are guarded by `lock`; `done` is signalled once the outcome is there.
    private let lock = NSLock()
    private let done = DispatchSemaphore(value: 0)
    private var outcome: Result<Value, RemodelError>?
    private var waiting: [CheckedContinuation<Result<Value, RemodelError>, Never>] = []

    /// Starts `body` on a new thread.
    /// - Parameter stackSize: The thread's stack, when the default (512 KiB off the main thread) is too small.
    package init(stackSize: Int? = nil, _ body: @escaping @Sendable () throws(RemodelError) -> Value) {
        let thread = Thread { [self] in
            let result: Result<Value, RemodelError>
            do throws(RemodelError) {
                result = .success(try body())
            } catch {
                result = .failure(error)
            }
            let continuations = lock.locked { () -> [CheckedContinuation<Result<Value, RemodelError>, Never>] in
                outcome = result
                defer { waiting = [] }
                return waiting
            }
            done.signal()
            for continuation in continuations { continuation.resume(returning: result) }
        }
        if let stackSize { thread.stackSize = stackSize }
        thread.start()
    }

    /// Blocks until the work is done, and returns its outcome.
    @discardableResult
    package func wait() -> Result<Value, RemodelError> {
        if let outcome = lock.locked({ outcome }) { return outcome }
        done.wait()
        done.signal()
        return lock.locked { outcome } ?? .failure(RemodelError(.io, "a background thread ended without a result"))
    }

    /// Suspends the calling task until the work is done, and returns its outcome.
    package func value() async -> Result<Value, RemodelError> {
        await withCheckedContinuation { continuation in
            let ready = lock.locked { () -> Result<Value, RemodelError>? in
                if outcome == nil { waiting.append(continuation) }
                return outcome
            }
            if let ready { continuation.resume(returning: ready) }
        }
    }
}
