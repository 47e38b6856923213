#if canImport(Glibc)
    import Glibc
#elseif canImport(Darwin)
    import Darwin
#endif

/// Checks a file's first 100 bytes (the SQLite database header) before SQLite
/// opens it, so an empty, foreign or truncated file is recognised without
/// SQLite touching it.
package enum StoreFileHeader {
    static let magic: [UInt8] = Array("SQLite format 3".utf8) + [0]

    /// `nil` when the file looks like a whole SQLite database, `.missing` when there is no file,
    /// else why it is not one.
    package static func check(path: String) throws(RemodelError) -> StoreInspection.State? {
        guard let kind = FileSystem.kind(of: path) else { return .missing }
        if kind == .folder { return .notSQLite(reason: "it is a folder") }
        let descriptor = open(path, O_RDONLY | O_CLOEXEC)
        guard descriptor >= 0 else {
            throw RemodelError(.io, "the file cannot be read; check its permissions", path: path)
        }
        defer { close(descriptor) }
        var status = stat()
        guard fstat(descriptor, &status) == 0, let header = readStart(of: descriptor, count: 100) else {
            throw RemodelError(.io, "the file cannot be read: \(String(cString: strerror(errno)))", path: path)
        }
        let size = UInt64(max(status.st_size, 0))
        if header.isEmpty { return .notSQLite(reason: "the file is empty") }
        let prefix = Array(header.prefix(magic.count))
        guard prefix == Array(magic.prefix(prefix.count)) else {
            return .notSQLite(reason: "it does not start with the SQLite header \"SQLite format 3\"")
        }
        guard header.count == 100 else {
            return .notSQLite(reason: "truncated: the file is shorter than an SQLite header")
        }
        let rawPageSize = Int(header[16]) << 8 | Int(header[17])
        let pageSize = rawPageSize == 1 ? 65_536 : rawPageSize
        guard pageSize >= 512, pageSize & (pageSize - 1) == 0 else {
            return .notSQLite(reason: "damaged: the header gives an invalid page size")
        }
        let pageCount = header[28..<32].reduce(UInt64(0)) { $0 << 8 | UInt64($1) }
        let sizeIsValid = header[24..<28] == header[92..<96] && pageCount > 0
        if sizeIsValid, size < pageCount * UInt64(pageSize) {
            return .notSQLite(
                reason: "truncated: the header promises \(pageCount * UInt64(pageSize)) bytes, the file has \(size)")
        }
        if size % UInt64(pageSize) != 0 {
            return .notSQLite(
                reason: "truncated: the file size \(size) is not a whole number of \(pageSize)-byte pages")
        }
        return nil
    }

    /// Whether the header says the file is in WAL mode (its read and write format versions are 2).
    /// `false` when the file cannot be read or is shorter than a header.
    static func isWAL(path: String) -> Bool {
        let descriptor = open(path, O_RDONLY | O_CLOEXEC)
        guard descriptor >= 0 else { return false }
        defer { close(descriptor) }
        guard let header = readStart(of: descriptor, count: 20), header.count == 20 else { return false }
        return header[18] == 2 && header[19] == 2
    }

    /// Up to `count` bytes from the start of a file (fewer when it is shorter); nil when it cannot be read.
    private static func readStart(of descriptor: Int32, count: Int) -> [UInt8]? {
        var bytes = [UInt8](repeating: 0, count: count)
        var filled = 0
        while filled < count {
            let read = bytes.withUnsafeMutableBytes {
                pread(descriptor, $0.baseAddress! + filled, count - filled, off_t(filled))
            }
            if read < 0 {
                if errno == EINTR { continue }
                return nil
            }
            if read == 0 { break }
            filled += read
        }
        return Array(bytes[..<filled])
    }
}
