#if canImport(Glibc)
    import Glibc
#elseif canImport(Darwin)
    import Darwin
#endif

extension FileSystem {
    /// Writes `bytes` into a new file at `path`, flushed to disk: the file must not be there (`O_EXCL`, so neither
    /// a file nor a link already at `path` is ever written through). A file it could not finish is removed.
    /// - Throws: ``RemodelError`` with ``RemodelError/Code/io``, naming the path and the system's reason.
    package static func writeNew(_ bytes: [UInt8], to path: String) throws(RemodelError) {
        let descriptor = open(path, O_WRONLY | O_CREAT | O_EXCL | O_CLOEXEC, 0o644)
        guard descriptor >= 0 else {
            let reason = String(cString: strerror(errno))
            throw RemodelError(
                .io, "the file cannot be made (Remodel writes only a file it makes): \(reason)", path: path)
        }
        var written = 0
        while written < bytes.count {
            let count = bytes.withUnsafeBytes { write(descriptor, $0.baseAddress! + written, bytes.count - written) }
            if count < 0 && errno == EINTR { continue }
            guard count > 0 else { break }
            written += count
        }
        let flushed = written == bytes.count && fsync(descriptor) == 0
        let reason = String(cString: strerror(errno))
        close(descriptor)
        guard flushed else {
            unlink(path)
            throw RemodelError(.io, "the file cannot be written: \(reason)", path: path)
        }
    }
}
