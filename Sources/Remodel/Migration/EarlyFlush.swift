import Foundation

/// Starts writing the last step's store to disk (`fsync`) on a thread of its own while phase 3 reads
/// it, so that the flush that makes the replace durable finds little left to write. It does not stand
/// in for that flush: what the step writes after phase 3 (unique indexes, metadata) is flushed there.
final class EarlyFlush: @unchecked Sendable {
    // `failure` is guarded by `lock`; `group` tells when the thread is done.
    private let lock = NSLock()
    private let group = DispatchGroup()
    private var failure: RemodelError?

    /// Starts flushing the file at `path`.
    init(path: String) {
        group.enter()
        Thread.detachNewThread { [self] in
            do throws(RemodelError) {
                try StoreFiles.synchronize(file: path)
            } catch {
                locked { failure = error }
            }
            group.leave()
        }
    }

    /// Waits for the flush.
    /// - Throws: ``RemodelError`` when it failed: a later flush of the same file may no longer report
    ///   a page that could not be written.
    func finish() throws(RemodelError) {
        group.wait()
        if let failure = locked({ failure }) { throw failure }
    }

    /// Waits for the flush, whatever its outcome (the step failed anyway).
    func wait() {
        group.wait()
    }

    /// Runs `body` holding `lock` (`NSLocking.withLock` needs macOS 14).
    private func locked<T>(_ body: () -> T) -> T {
        lock.lock()
        defer { lock.unlock() }
        return body()
    }
}
