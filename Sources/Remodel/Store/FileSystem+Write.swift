internal import Foundation

extension FileSystem {
    /// Writes a file through a ``JSONOutput``: into a new hidden file beside `path`, flushed to disk,
    /// then renamed over `path`, so a reader never sees half a file and a failure leaves `path` as it was.
    package static func writeAtomically(
        to path: String, _ body: (inout JSONOutput) throws(RemodelError) -> Void
    ) throws(RemodelError) {
        let temporary = Store.temporaryPath(beside: path, purpose: "write")
        let descriptor = Foundation.open(temporary, O_WRONLY | O_CREAT | O_EXCL, 0o644)
        guard descriptor >= 0 else {
            throw RemodelError(.io, "could not create the output file: \(String(cString: strerror(errno)))", path: path)
        }
        do throws(RemodelError) {
            var output = JSONOutput(descriptor: descriptor, path: path)
            try body(&output)
            try output.flush()
            guard fsync(descriptor) == 0 else {
                throw RemodelError(
                    .io, "could not flush the output file: \(String(cString: strerror(errno)))", path: path)
            }
            close(descriptor)
            try replace(path, with: temporary)
        } catch {
            close(descriptor)
            removeQuietly(temporary)
            throw error
        }
    }
}
