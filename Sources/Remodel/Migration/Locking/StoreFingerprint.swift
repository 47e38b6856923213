import Foundation

#if canImport(Glibc)
    import Glibc
#elseif canImport(Darwin)
    import Darwin
#endif

/// What tells whether a store file's bytes changed: its size, SQLite's file change counter (header
/// bytes 24…27, which every write transaction in rollback-journal mode increments) and a hash of the
/// whole file, XXH64 (which catches what the counter does not: a checkpoint of a WAL store, bytes
/// changed by another tool).
struct StoreFingerprint: Sendable, Hashable {
    var size: Int64
    var changeCounter: UInt32
    /// XXH64 of the whole file, in hexadecimal.
    var hash: String

    /// The fingerprint of the file open on `descriptor`, read with `pread`: the descriptor is the
    /// caller's and stays open (closing a descriptor of a store this process has locked would drop its locks).
    static func of(descriptor: Int32, path: String) throws(RemodelError) -> StoreFingerprint {
        var info = stat()
        guard fstat(descriptor, &info) == 0 else { throw ioError("cannot read the size of the store", path) }
        var stream = XXHash64()
        var buffer = [UInt8](repeating: 0, count: 1 << 20)
        var header: [UInt8] = []
        var offset = 0
        while true {
            let read = buffer.withUnsafeMutableBytes { pread(descriptor, $0.baseAddress, $0.count, off_t(offset)) }
            guard read >= 0 else { throw ioError("cannot read the store", path) }
            if read == 0 { break }
            if header.count < 28 { header += buffer[0..<min(read, 28 - header.count)] }
            buffer.withUnsafeBytes { stream.update(UnsafeRawBufferPointer(rebasing: $0[0..<read])) }
            offset += read
        }
        let counter = header.count == 28 ? header[24..<28].reduce(UInt32(0)) { $0 << 8 | UInt32($1) } : 0
        return StoreFingerprint(size: Int64(offset), changeCounter: counter, hash: String(stream.finish(), radix: 16))
    }

    /// The fingerprint of the file at `path`, which this process must not hold locked (see ``of(descriptor:path:)``).
    static func of(path: String) throws(RemodelError) -> StoreFingerprint {
        let descriptor = open(path, O_RDONLY | O_CLOEXEC)
        guard descriptor >= 0 else { throw ioError("cannot open the store to read it", path) }
        defer { close(descriptor) }
        return try of(descriptor: descriptor, path: path)
    }

    private static func ioError(_ what: String, _ path: String) -> RemodelError {
        let code = errno
        return RemodelError(
            .io, "\(what): \(String(cString: strerror(code)))", path: path,
            cause: POSIXError(POSIXErrorCode(rawValue: code) ?? .EIO))
    }
}
