import Foundation

/// Starts writing the last step's store to disk (`fsync`) on a thread of its own while phase 3 reads
/// it, so that the flush that makes the replace durable finds little left to write. It does not stand
/// in for that flush: what the step writes after phase 3 (unique indexes, metadata) is flushed there.
final class EarlyFlush: Sendable {
    private let flush: BackgroundThread<Void>

    /// Whether the file at `path` is large enough for an early flush to pay: a small store is written out
    /// by the final flush in about the time of one `fsync`, and a second one would only add its wait (one
    /// of three per store in a fleet of small stores).
    static func isWorthwhile(for path: String) -> Bool {
        var info = stat()
        return stat(path, &info) == 0 && Int(info.st_size) >= worthwhileBytes
    }

    /// The size from which a store is flushed early.
    static let worthwhileBytes = 8 << 20

    /// Starts flushing the file at `path`.
    init(path: String) {
        flush = BackgroundThread { () throws(RemodelError) in try StoreFiles.synchronize(file: path) }
    }

    /// Waits for the flush.
    /// - Throws: ``/RemodelModel/RemodelError`` when it failed: a later flush of the same file may no longer report
    ///   a page that could not be written.
    func finish() throws(RemodelError) {
        try flush.wait().get()
    }

    /// Waits for the flush, whatever its outcome (the step failed anyway).
    func wait() {
        flush.wait()
    }
}
