internal import Foundation

/// Checks a file's first 100 bytes (the SQLite database header) before SQLite
/// opens it, so an empty, foreign or truncated file is recognised without
/// SQLite touching it.
package enum StoreFileHeader {
    static let magic: [UInt8] = Array("SQLite format 3".utf8) + [0]

    /// `nil` when the file looks like a whole SQLite database, `.missing` when there is no file,
    /// else why it is not one.
    package static func check(path: String) throws(RemodelError) -> StoreInspection.State? {
        var isDirectory: ObjCBool = false
        guard FileManager.default.fileExists(atPath: path, isDirectory: &isDirectory) else { return .missing }
        if isDirectory.boolValue { return .notSQLite(reason: "it is a folder") }
        guard let handle = FileHandle(forReadingAtPath: path) else {
            throw RemodelError(.io, "the file cannot be read; check its permissions", path: path)
        }
        defer { try? handle.close() }
        let header: [UInt8]
        let size: UInt64
        do {
            header = Array(try handle.read(upToCount: 100) ?? Data())
            size = try handle.seekToEnd()
        } catch {
            throw RemodelError(.io, "the file cannot be read: \(error.localizedDescription)", path: path)
        }
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
        guard let handle = FileHandle(forReadingAtPath: path) else { return false }
        defer { try? handle.close() }
        guard let header = try? handle.read(upToCount: 20), header.count == 20 else { return false }
        return header[header.startIndex + 18] == 2 && header[header.startIndex + 19] == 2
    }
}
