import Foundation

/// Turns byte offsets into 1-based lines and columns (columns count Unicode scalars).
struct LineTable {
    private let bytes: [UInt8]
    private var lineStarts: [Int] = [0]

    init(bytes: [UInt8]) {
        self.bytes = bytes
        var offset = 0
        while let newline = Self.offset(of: 0x0A, in: bytes, from: offset) {
            lineStarts.append(newline + 1)
            offset = newline + 1
        }
    }

    /// The offset of the first `byte` at or after `start`, found with `memchr` (files of megabytes
    /// of base64 text are scanned byte by byte otherwise, which is slow in debug builds).
    static func offset(of byte: UInt8, in bytes: [UInt8], from start: Int) -> Int? {
        guard start < bytes.count else { return nil }
        return bytes.withUnsafeBufferPointer { buffer -> Int? in
            guard let base = buffer.baseAddress, let found = memchr(base + start, Int32(byte), buffer.count - start)
            else { return nil }
            return base.distance(to: found.assumingMemoryBound(to: UInt8.self))
        }
    }

    /// The offset of the first `byte` at or after `start`, or the end of the text.
    func offset(of byte: UInt8, from start: Int) -> Int {
        Self.offset(of: byte, in: bytes, from: start) ?? bytes.count
    }

    /// The text of a range of bytes, decoded as UTF-8.
    func text(_ range: Range<Int>) -> String { String(decoding: bytes[range], as: UTF8.self) }

    func location(ofOffset offset: Int, file: String) -> SourceLocation {
        var low = 0
        var high = lineStarts.count - 1
        while low < high {
            let middle = (low + high + 1) / 2
            if lineStarts[middle] <= offset { low = middle } else { high = middle - 1 }
        }
        var column = 1
        var index = lineStarts[low]
        while index < offset && index < bytes.count {
            if bytes[index] & 0xC0 != 0x80 { column += 1 }
            index += 1
        }
        return SourceLocation(file: file, line: low + 1, column: column)
    }
}
