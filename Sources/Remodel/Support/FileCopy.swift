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
    ///
    /// - Parameter last: Byte ranges of the file to copy after the rest (ranges past its end are ignored):
    ///   what is copied last is what the file cache still holds, of the original and of the copy, when the
    ///   caller next reads those pages. The copy is the same whatever the order.
    package static func copy(from descriptor: Int32, to destination: String, last: [Range<Int>] = [])
        throws(RemodelError)
    {
        var info = stat()
        guard fstat(descriptor, &info) == 0 else {
            throw error("cannot read the size of the store to copy", destination)
        }
        let output = try FileSystem.createNewFile(
            destination, flags: O_WRONLY, mode: 0o600, what: "the copy of the store")
        defer { close(output) }
        let size = Int(info.st_size)
        var kernelCopies = copyFileRange != nil
        for range in order(size: size, last: last) {
            var offset = range.lowerBound
            if kernelCopies, let copyFileRange {
                var inputOffset = Int64(offset)
                var outputOffset = Int64(offset)
                while offset < range.upperBound {
                    let done = copyFileRange(
                        descriptor, &inputOffset, output, &outputOffset, range.upperBound - offset, 0)
                    if done <= 0 { break }
                    offset += done
                }
                // Where the kernel cannot copy between these files (some file systems), read and write.
                kernelCopies = offset == range.upperBound
            }
            try copyThroughBuffer(descriptor, output, from: offset, to: range.upperBound, destination: destination)
        }
    }

    /// How much of a range copied last is copied at a time, from its end back to its start.
    static let backwardChunk = 1 << 20

    /// The file's bytes as ranges in the order to copy them: everything outside `last`, then `last` from its end
    /// back to its start, `chunk` bytes at a time. The caller then reads those pages from their start, which was
    /// copied last: when the cache is smaller than what went last, what it still holds is what is read first,
    /// instead of the end, which the reads from the start would push out before reaching it.
    static func order(size: Int, last: [Range<Int>], chunk: Int = backwardChunk) -> [Range<Int>] {
        var tail: [Range<Int>] = []
        for range in last.map({ $0.clamped(to: 0..<size) }).filter({ !$0.isEmpty }).sorted(by: {
            $0.lowerBound < $1.lowerBound
        }) {
            if let previous = tail.last, previous.upperBound >= range.lowerBound {
                tail[tail.count - 1] = previous.lowerBound..<max(previous.upperBound, range.upperBound)
            } else {
                tail.append(range)
            }
        }
        var head: [Range<Int>] = []
        var start = 0
        for range in tail {
            if start < range.lowerBound { head.append(start..<range.lowerBound) }
            start = range.upperBound
        }
        if start < size { head.append(start..<size) }
        var backwards: [Range<Int>] = []
        for range in tail.reversed() {
            var end = range.upperBound
            while end > range.lowerBound {
                let begin = max(range.lowerBound, end - max(chunk, 1))
                backwards.append(begin..<end)
                end = begin
            }
        }
        return head + backwards
    }

    /// Copies bytes `start..<end` of the file open on `input` to the same place in `output` with `pread` and
    /// `pwrite`.
    private static func copyThroughBuffer(
        _ input: Int32, _ output: Int32, from start: Int, to end: Int, destination: String
    )
        throws(RemodelError)
    {
        guard start < end else { return }
        var buffer = [UInt8](repeating: 0, count: min(1 << 20, end - start))
        var offset = start
        while offset < end {
            let read = buffer.withUnsafeMutableBytes {
                pread(input, $0.baseAddress, min($0.count, end - offset), off_t(offset))
            }
            guard read > 0 else { throw error("cannot read the store to copy it", destination) }
            var written = 0
            while written < read {
                let wrote = buffer.withUnsafeBytes {
                    pwrite(output, $0.baseAddress! + written, read - written, off_t(offset + written))
                }
                guard wrote > 0 else { throw error("cannot write the copy of the store", destination) }
                written += wrote
            }
            offset += read
        }
    }

    /// Copies the file at `source` (not a store this process has locked) into a new file at `destination`.
    package static func copy(_ source: String, to destination: String) throws(RemodelError) {
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
