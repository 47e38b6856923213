internal import Foundation

extension FileSystem {
    /// Writes a file through a ``/RemodelModel/JSONOutput``: into a new hidden file beside `path`, flushed to disk,
    /// then renamed over `path`, so a reader never sees half a file and a failure leaves `path` as it was.
    package static func writeAtomically(
        to path: String, _ body: (inout JSONOutput) throws(RemodelError) -> Void
    ) throws(RemodelError) {
        // The file is replaced by a rename, never written through; still, only a file Remodel may have made is.
        try requireOwnFile(path)
        let temporary = Store.temporaryPath(beside: path, purpose: "write")
        let descriptor = try createNewFile(temporary, flags: O_WRONLY, mode: 0o644, what: "the output file")
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
