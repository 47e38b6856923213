import Foundation

#if canImport(Glibc)
    import Glibc
#elseif canImport(Darwin)
    import Darwin
#endif

/// A fleet's report: one JSON line per store (``StoreMigrationResult/jsonLine``), appended as each
/// store finishes, and read back to resume.
///
/// A line is written only after its store's migration returned, so a line that says a store is done
/// is true even after a crash; a store migrated just before a crash may lack its line, and is found
/// already current when resumed. A last line cut short by a crash is ignored when reading, and the
/// next line written starts on a line of its own.
package final class FleetReportFile: @unchecked Sendable {
    private let path: String
    private let descriptor: Int32
    private let lock = NSLock()

    /// Opens `path` for appending, creating it (and its folder) if needed.
    package init(appendingTo path: String) throws(RemodelError) {
        self.path = path
        let folder = URL(fileURLWithPath: path).deletingLastPathComponent().path
        try? FileManager.default.createDirectory(atPath: folder, withIntermediateDirectories: true)
        // A report an earlier run wrote is appended to; anything else at the path is refused, never written through.
        switch try FileSystem.openOwnFile(path, flags: O_WRONLY | O_APPEND, mode: 0o644) {
        case .opened(let descriptor): self.descriptor = descriptor
        case .failed(let code):
            errno = code
            throw Self.failure("cannot open the report for writing", path)
        }
        var info = stat()
        if fstat(descriptor, &info) == 0, info.st_size > 0, !Self.endsWithNewline(path) {
            try appendLine("")
        }
    }

    deinit {
        fsync(descriptor)
        close(descriptor)
    }

    /// Appends one line (a newline is added) in a single write.
    package func append(_ line: String) throws(RemodelError) {
        try appendLine(line)
    }

    private func appendLine(_ line: String) throws(RemodelError) {
        let bytes = Array((line + "\n").utf8)
        lock.lock()
        defer { lock.unlock() }
        var written = 0
        while written < bytes.count {
            let count = bytes[written...].withUnsafeBytes { write(descriptor, $0.baseAddress, $0.count) }
            if count < 0 {
                if errno == EINTR { continue }
                throw Self.failure("cannot append to the report", path)
            }
            written += count
        }
    }

    /// The stores a report records as done — migrated, or already at `target` — by their identity
    /// (``StoreList/identity(of:)``). A missing file records none.
    package static func doneStores(in path: String, target: String) throws(RemodelError) -> Set<String> {
        guard FileManager.default.fileExists(atPath: path) else { return [] }
        guard let data = FileManager.default.contents(atPath: path) else {
            throw RemodelError(.io, "cannot read the report to resume from; check its permissions", path: path)
        }
        var done = Set<String>()
        for line in data.split(separator: UInt8(ascii: "\n")) {
            guard let object = try? JSONSerialization.jsonObject(with: Data(line)) as? [String: Any],
                let store = object["path"] as? String, object["to"] as? String == target,
                let outcome = (object["outcome"] as? String).flatMap(StoreMigrationResult.Outcome.init(rawValue:))
            else { continue }
            if outcome.isDone { done.insert(StoreList.identity(of: store)) }
        }
        return done
    }

    private static func endsWithNewline(_ path: String) -> Bool {
        guard let handle = FileHandle(forReadingAtPath: path) else { return true }
        defer { try? handle.close() }
        guard let end = try? handle.seekToEnd(), end > 0 else { return true }
        try? handle.seek(toOffset: end - 1)
        return (try? handle.read(upToCount: 1)) == Data([UInt8(ascii: "\n")])
    }

    private static func failure(_ what: String, _ path: String) -> RemodelError {
        let code = errno
        return RemodelError(
            .io, "\(what): \(String(cString: strerror(code)))", path: path,
            cause: POSIXError(POSIXErrorCode(rawValue: code) ?? .EIO))
    }
}
