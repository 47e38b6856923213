import Foundation

#if canImport(Glibc)
    import Glibc
#elseif canImport(Darwin)
    import Darwin
#endif

/// Copies a store file byte for byte into a new file beside it, the first thing a step does: the copy is
/// then changed in place. On Linux the kernel copies without passing the bytes through the process
/// (`copy_file_range`), and clones the file's extents instead where the file system shares them
/// (btrfs, XFS with reflink): the copy then costs almost nothing until a page is written.
package enum FileCopy {
    /// Copies the file open on `descriptor` into a new file at `destination` (which must not exist).
    ///
    /// The descriptor is the caller's and stays open: closing a descriptor of a store this process has
    /// locked would release SQLite's locks on it.
    static func copy(from descriptor: Int32, to destination: String) throws(RemodelError) {
        var info = stat()
        guard fstat(descriptor, &info) == 0 else {
            throw error("cannot read the size of the store to copy", destination)
        }
        let output = try FileSystem.createNewFile(
            destination, flags: O_WRONLY, mode: 0o600, what: "the copy of the store")
        defer { close(output) }
        let size = Int(info.st_size)
        var copied = 0
        if let copyFileRange = Self.copyFileRange {
            var inputOffset = Int64(0)
            while copied < size {
                let done = copyFileRange(descriptor, &inputOffset, output, nil, size - copied, 0)
                if done <= 0 { break }
                copied += done
            }
        }
        // Where the kernel cannot copy between these files (other systems, some file systems), read and write.
        if copied < size {
            guard ftruncate(output, 0) == 0, lseek(output, 0, SEEK_SET) == 0 else {
                throw error("cannot write the copy of the store", destination)
            }
            copied = 0
            var buffer = [UInt8](repeating: 0, count: 1 << 20)
            while copied < size {
                let read = buffer.withUnsafeMutableBytes { pread(descriptor, $0.baseAddress, $0.count, off_t(copied)) }
                guard read > 0 else { throw error("cannot read the store to copy it", destination) }
                var written = 0
                while written < read {
                    let wrote = buffer.withUnsafeBytes { write(output, $0.baseAddress! + written, read - written) }
                    guard wrote > 0 else { throw error("cannot write the copy of the store", destination) }
                    written += wrote
                }
                copied += read
            }
        }
    }

    /// Copies the file at `source` (not a store this process has locked) into a new file at `destination`.
    static func copy(_ source: String, to destination: String) throws(RemodelError) {
        guard try copyIfPresent(source, to: destination) else {
            throw RemodelError(.io, "cannot copy the store: it is gone", path: source)
        }
    }

    /// Copies the file at `source` into a new file at `destination`, as ``copy(_:to:)`` does.
    /// - Returns: `false`, and nothing created, when there is no file at `source`.
    package static func copyIfPresent(_ source: String, to destination: String) throws(RemodelError) -> Bool {
        let input = open(source, O_RDONLY | O_CLOEXEC)
        guard input >= 0 else {
            if errno == ENOENT { return false }
            throw error("cannot open the file to copy it", source)
        }
        defer { close(input) }
        try copy(from: input, to: destination)
        return true
    }

    private typealias CopyFileRange =
        @convention(c) (
            Int32, UnsafeMutablePointer<Int64>?, Int32, UnsafeMutablePointer<Int64>?, Int, UInt32
        ) -> Int

    /// glibc's `copy_file_range` (2.27 and later), looked up at run time: its declaration needs
    /// `_GNU_SOURCE`, which the system module Swift imports does not define.
    private static let copyFileRange: CopyFileRange? = {
        #if os(Linux)
            guard let symbol = dlsym(UnsafeMutableRawPointer(bitPattern: 0), "copy_file_range") else { return nil }
            return unsafeBitCast(symbol, to: CopyFileRange.self)
        #else
            return nil
        #endif
    }()

    private static func error(_ what: String, _ path: String) -> RemodelError {
        let code = errno
        let reason = String(cString: strerror(code))
        if code == ENOSPC {
            return RemodelError(.io, "the disk is full: \(what) (\(reason)); free some space and try again", path: path)
        }
        return RemodelError(.io, "\(what): \(reason)", path: path)
    }
}
