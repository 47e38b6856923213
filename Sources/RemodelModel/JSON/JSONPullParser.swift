internal import Foundation

/// A pull parser over JSON text read in chunks, so a file of any size is parsed
/// with constant memory: the caller walks containers with ``beginObject()``,
/// ``nextKey()``, ``beginArray()``, ``hasNextElement()`` and reads small values
/// whole with ``readValue()``.
///
/// Errors name the file, line and column.
package struct JSONPullParser {
    private var buffer: [UInt8] = []
    private var index = 0
    private var consumedBefore = 0
    private var line = 1
    private var lineStart = 0
    private let handle: FileHandle?
    private let path: String
    private var atEnd = false
    /// Whether the container being walked has produced an element yet, one entry per open container.
    private var started: [Bool] = []
    /// Where the key ``nextKey()`` read last begins (its opening quote), for messages about it.
    package private(set) var keyLocation = SourceLocation(file: "", line: 1, column: 1)

    private static let chunkSize = 1 << 20

    /// A parser over a file, read in chunks.
    package init(path: String) throws(RemodelError) {
        guard let handle = FileHandle(forReadingAtPath: path) else {
            throw RemodelError(.io, "could not open the JSON file for reading", path: path)
        }
        self.handle = handle
        self.path = path
    }

    /// A parser over bytes in memory.
    package init(bytes: [UInt8], path: String = "<memory>") {
        self.handle = nil
        self.path = path
        self.buffer = bytes
        self.atEnd = true
    }

    // MARK: - Bytes

    private mutating func refill() throws(RemodelError) -> Bool {
        guard !atEnd, let handle else { return false }
        let data: Data
        do {
            data = try handle.read(upToCount: Self.chunkSize) ?? Data()
        } catch {
            throw RemodelError(.io, "could not read the JSON file: \(error.localizedDescription)", path: path)
        }
        if data.isEmpty {
            atEnd = true
            return false
        }
        consumedBefore += index
        lineStart -= index
        buffer.removeSubrange(0..<index)
        buffer.append(contentsOf: data)
        index = 0
        return true
    }

    private mutating func peek() throws(RemodelError) -> UInt8? {
        if index < buffer.count { return buffer[index] }
        return try refill() ? buffer[index] : nil
    }

    private mutating func advance() { index += 1 }

    private mutating func skipWhitespace() throws(RemodelError) {
        while let byte = try peek() {
            switch byte {
            case UInt8(ascii: "\n"):
                index += 1
                line += 1
                lineStart = index
            case UInt8(ascii: " "), UInt8(ascii: "\t"), UInt8(ascii: "\r"):
                index += 1
            default:
                return
            }
        }
    }

    /// An error at the current position.
    package func failure(_ message: String) -> RemodelError {
        let column = index - lineStart + 1
        return RemodelError(.invalidValue, message, location: SourceLocation(file: path, line: line, column: column))
    }

    private mutating func expect(_ byte: UInt8, _ what: String) throws(RemodelError) {
        try skipWhitespace()
        guard try peek() == byte else { throw failure("expected \(what), found \(try describeNext())") }
        advance()
    }

    private mutating func describeNext() throws(RemodelError) -> String {
        guard let byte = try peek() else { return "the end of the file" }
        if byte >= 0x20 && byte < 0x7F { return "'\(Character(Unicode.Scalar(byte)))'" }
        return "byte \(byte)"
    }

    // MARK: - Containers

    /// How deep containers may nest: deeper text is refused, never read by recursion until the stack runs out.
    static let maximumDepth = 512

    /// Reads `{`.
    package mutating func beginObject() throws(RemodelError) {
        try expect(UInt8(ascii: "{"), "'{'")
        try open()
    }

    private mutating func open() throws(RemodelError) {
        guard started.count < Self.maximumDepth else {
            throw failure("objects and arrays nest more than \(Self.maximumDepth) deep")
        }
        started.append(false)
    }

    /// Reads the next key and its `:`, or the closing `}` (returning `nil`).
    package mutating func nextKey() throws(RemodelError) -> String? {
        try skipWhitespace()
        if try peek() == UInt8(ascii: "}") {
            advance()
            started.removeLast()
            return nil
        }
        if started[started.count - 1] {
            try expect(UInt8(ascii: ","), "',' or '}'")
            try skipWhitespace()
        }
        started[started.count - 1] = true
        guard try peek() == UInt8(ascii: "\"") else {
            throw failure("expected a key in quotes, found \(try describeNext())")
        }
        keyLocation = location
        let key = try readString()
        try expect(UInt8(ascii: ":"), "':'")
        return key
    }

    /// Reads `[`.
    package mutating func beginArray() throws(RemodelError) {
        try expect(UInt8(ascii: "["), "'['")
        try open()
    }

    /// Whether another element follows in the array (reading its `,`), or reads the closing `]`.
    package mutating func hasNextElement() throws(RemodelError) -> Bool {
        try skipWhitespace()
        if try peek() == UInt8(ascii: "]") {
            advance()
            started.removeLast()
            return false
        }
        if started[started.count - 1] {
            try expect(UInt8(ascii: ","), "',' or ']'")
        }
        started[started.count - 1] = true
        return true
    }

    /// Whether the next value is `{`, without consuming it.
    package mutating func nextIsObject() throws(RemodelError) -> Bool {
        try skipWhitespace()
        return try peek() == UInt8(ascii: "{")
    }

    /// Whether the next value is `[`, without consuming it.
    mutating func nextIsArray() throws(RemodelError) -> Bool {
        try skipWhitespace()
        return try peek() == UInt8(ascii: "[")
    }

    /// Where the next value begins, past whitespace: for messages about the value read next.
    package mutating func nextValueLocation() throws(RemodelError) -> SourceLocation {
        try skipWhitespace()
        return location
    }

    /// Checks that nothing but whitespace follows the top-level value.
    package mutating func expectEnd() throws(RemodelError) {
        try skipWhitespace()
        if try peek() != nil { throw failure("expected the end of the file, found \(try describeNext())") }
    }

    /// The current position (1-based line and column), for messages.
    /// Bytes of the text read so far.
    package var bytesRead: Int { consumedBefore + index }

    package var location: SourceLocation { SourceLocation(file: path, line: line, column: index - lineStart + 1) }

    // MARK: - Values

    /// Reads one whole value.
    package mutating func readValue() throws(RemodelError) -> JSONValue {
        try skipWhitespace()
        guard let byte = try peek() else { throw failure("expected a value, found the end of the file") }
        switch byte {
        case UInt8(ascii: "\""):
            return .string(try readString())
        case UInt8(ascii: "{"):
            try beginObject()
            var members: [(key: String, value: JSONValue)] = []
            while let key = try nextKey() {
                members.append((key, try readValue()))
            }
            return .object(members)
        case UInt8(ascii: "["):
            try beginArray()
            var values: [JSONValue] = []
            while try hasNextElement() {
                values.append(try readValue())
            }
            return .array(values)
        case UInt8(ascii: "t"):
            try readLiteral("true")
            return .bool(true)
        case UInt8(ascii: "f"):
            try readLiteral("false")
            return .bool(false)
        case UInt8(ascii: "n"):
            try readLiteral("null")
            return .null
        case UInt8(ascii: "-"), UInt8(ascii: "0")...UInt8(ascii: "9"):
            return .number(try readNumber())
        default:
            throw failure("expected a value, found \(try describeNext())")
        }
    }

    private mutating func readLiteral(_ word: StaticString) throws(RemodelError) {
        let expected = word.withUTF8Buffer { Array($0) }
        for byte in expected {
            guard try peek() == byte else { throw failure("expected '\(word)', found \(try describeNext())") }
            advance()
        }
    }

    private mutating func readNumber() throws(RemodelError) -> String {
        var text: [UInt8] = []
        func isDigit(_ byte: UInt8?) -> Bool { byte.map { $0 >= 0x30 && $0 <= 0x39 } ?? false }
        if try peek() == UInt8(ascii: "-") { text.append(UInt8(ascii: "-")); advance() }
        guard let first = try peek(), isDigit(first) else {
            throw failure("expected a digit, found \(try describeNext())")
        }
        text.append(first)
        advance()
        if first != UInt8(ascii: "0") {
            while let byte = try peek(), isDigit(byte) { text.append(byte); advance() }
        }
        if try peek() == UInt8(ascii: ".") {
            text.append(UInt8(ascii: "."))
            advance()
            guard isDigit(try peek()) else { throw failure("expected a digit after '.', found \(try describeNext())") }
            while let byte = try peek(), isDigit(byte) { text.append(byte); advance() }
        }
        if let byte = try peek(), byte == UInt8(ascii: "e") || byte == UInt8(ascii: "E") {
            text.append(byte)
            advance()
            if let sign = try peek(), sign == UInt8(ascii: "+") || sign == UInt8(ascii: "-") {
                text.append(sign); advance()
            }
            guard isDigit(try peek()) else {
                throw failure("expected a digit in the exponent, found \(try describeNext())")
            }
            while let byte = try peek(), isDigit(byte) { text.append(byte); advance() }
        }
        return String(decoding: text, as: UTF8.self)
    }

    private mutating func readString() throws(RemodelError) -> String {
        advance()  // the opening quote
        var bytes: [UInt8] = []
        var isASCII = true
        while true {
            guard let byte = try peek() else { throw failure("the file ends inside a string") }
            advance()
            switch byte {
            case UInt8(ascii: "\""):
                if isASCII { return String(decoding: bytes, as: UTF8.self) }
                guard let text = String(bytes: bytes, encoding: .utf8) else {
                    throw failure("the string is not valid UTF-8")
                }
                return text
            case UInt8(ascii: "\\"):
                try readEscape(into: &bytes)
            case 0..<0x20:
                index -= 1
                throw failure("control characters must be escaped in strings (found byte \(byte))")
            default:
                if byte >= 0x80 { isASCII = false }
                bytes.append(byte)
            }
        }
    }

    private mutating func readEscape(into bytes: inout [UInt8]) throws(RemodelError) {
        guard let byte = try peek() else { throw failure("the file ends inside a string") }
        advance()
        switch byte {
        case UInt8(ascii: "\""), UInt8(ascii: "\\"), UInt8(ascii: "/"): bytes.append(byte)
        case UInt8(ascii: "b"): bytes.append(0x08)
        case UInt8(ascii: "f"): bytes.append(0x0C)
        case UInt8(ascii: "n"): bytes.append(0x0A)
        case UInt8(ascii: "r"): bytes.append(0x0D)
        case UInt8(ascii: "t"): bytes.append(0x09)
        case UInt8(ascii: "u"):
            var scalar = try readHex4()
            if (0xD800..<0xDC00).contains(scalar) {
                guard try peek() == UInt8(ascii: "\\") else { throw failure("a lone surrogate in a \\u escape") }
                advance()
                guard try peek() == UInt8(ascii: "u") else { throw failure("a lone surrogate in a \\u escape") }
                advance()
                let low = try readHex4()
                guard (0xDC00..<0xE000).contains(low) else { throw failure("a lone surrogate in a \\u escape") }
                scalar = 0x10000 + ((scalar - 0xD800) << 10) + (low - 0xDC00)
            }
            guard let unicode = Unicode.Scalar(scalar) else { throw failure("a lone surrogate in a \\u escape") }
            bytes.append(contentsOf: String(Character(unicode)).utf8)
        default:
            throw failure("unknown escape '\\\(Character(Unicode.Scalar(byte)))'")
        }
    }

    private mutating func readHex4() throws(RemodelError) -> UInt32 {
        var value: UInt32 = 0
        for _ in 0..<4 {
            guard let byte = try peek() else { throw failure("the file ends inside a string") }
            let digit: UInt32
            switch byte {
            case UInt8(ascii: "0")...UInt8(ascii: "9"): digit = UInt32(byte - UInt8(ascii: "0"))
            case UInt8(ascii: "a")...UInt8(ascii: "f"): digit = UInt32(byte - UInt8(ascii: "a") + 10)
            case UInt8(ascii: "A")...UInt8(ascii: "F"): digit = UInt32(byte - UInt8(ascii: "A") + 10)
            default: throw failure("expected a hex digit in a \\u escape, found \(try describeNext())")
            }
            value = value * 16 + digit
            advance()
        }
        return value
    }
}
