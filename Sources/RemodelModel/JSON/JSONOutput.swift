internal import Foundation

/// Bytes of JSON text being written, flushed to a file descriptor when the
/// buffer fills (or kept in memory when there is none).
package struct JSONOutput {
    package private(set) var bytes: [UInt8] = []
    private let descriptor: Int32?
    private let path: String
    private static let flushThreshold = 1 << 16

    /// An output kept in memory.
    package init() {
        descriptor = nil
        path = "<memory>"
        bytes.reserveCapacity(256)
    }

    /// An output writing to an open file descriptor.
    package init(descriptor: Int32, path: String) {
        self.descriptor = descriptor
        self.path = path
        bytes.reserveCapacity(Self.flushThreshold + 4096)
    }

    /// The text written so far (in-memory outputs).
    package var text: String { String(decoding: bytes, as: UTF8.self) }

    package mutating func write(_ text: StaticString) {
        text.withUTF8Buffer { bytes.append(contentsOf: $0) }
    }

    package mutating func write(raw text: String) {
        bytes.append(contentsOf: text.utf8)
    }

    package mutating func write<Bytes: Collection<UInt8>>(bytes more: Bytes) {
        bytes.append(contentsOf: more)
    }

    package mutating func write(_ integer: Int64) {
        bytes.append(contentsOf: String(integer).utf8)
    }

    /// Writes a JSON string with minimal escaping: `"`, `\` and control characters; other text as raw UTF-8.
    package mutating func writeString(_ text: String) {
        var text = text
        text.withUTF8 { writeString(utf8: $0) }
    }

    /// Writes UTF-8 bytes as a JSON string (see ``writeString(_:)``).
    package mutating func writeString(utf8: UnsafeBufferPointer<UInt8>) {
        bytes.append(UInt8(ascii: "\""))
        var start = 0
        for index in 0..<utf8.count {
            let byte = utf8[index]
            guard byte < 0x20 || byte == UInt8(ascii: "\"") || byte == UInt8(ascii: "\\") else { continue }
            bytes.append(contentsOf: UnsafeBufferPointer(rebasing: utf8[start..<index]))
            start = index + 1
            switch byte {
            case UInt8(ascii: "\""): write("\\\"")
            case UInt8(ascii: "\\"): write("\\\\")
            default:
                write("\\u00")
                bytes.append(Self.hexDigits[Int(byte >> 4)])
                bytes.append(Self.hexDigits[Int(byte & 0xF)])
            }
        }
        bytes.append(contentsOf: UnsafeBufferPointer(rebasing: utf8[start..<utf8.count]))
        bytes.append(UInt8(ascii: "\""))
    }

    private static let hexDigits = Array("0123456789abcdef".utf8)

    /// Writes the buffer out when it is full enough.
    package mutating func flushIfNeeded() throws(RemodelError) {
        if descriptor != nil, bytes.count >= Self.flushThreshold { try flush() }
    }

    /// Writes everything buffered to the file descriptor.
    package mutating func flush() throws(RemodelError) {
        guard let descriptor else { return }
        var offset = 0
        while offset < bytes.count {
            let written = bytes[offset...].withUnsafeBytes { Foundation.write(descriptor, $0.baseAddress, $0.count) }
            if written < 0 {
                if errno == EINTR { continue }
                throw RemodelError(.io, "could not write: \(String(cString: strerror(errno)))", path: path)
            }
            offset += written
        }
        bytes.removeAll(keepingCapacity: true)
    }
}
