/// Starts writing the last step's store to disk (`fsync`) on a thread of its own while phase 3 reads
/// it, so that the flush that makes the replace durable finds little left to write. It does not stand
/// in for that flush: what the step writes after phase 3 (unique indexes, metadata) is flushed there.
final class EarlyFlush: Sendable {
    private let flush: BackgroundThread<Void>

    /// Starts flushing the file at `path`.
    init(path: String) {
        flush = BackgroundThread { () throws(RemodelError) in try StoreFiles.synchronize(file: path) }
    }

    /// Waits for the flush.
    /// - Throws: ``RemodelError`` when it failed: a later flush of the same file may no longer report
    ///   a page that could not be written.
    func finish() throws(RemodelError) {
        try flush.wait().get()
    }

    /// Waits for the flush, whatever its outcome (the step failed anyway).
    func wait() {
        flush.wait()
    }
}
