/// Decompresses a raw DEFLATE stream (RFC 1951, no zlib or gzip header), such as the compiled model
/// Core Data keeps in a store's `Z_MODELCACHE`.
///
/// Untrusted input is safe: every read is checked against the data, a code that names no symbol or a
/// distance before the start is an error, and the output may not grow past a limit.
///
/// For example:
/// ```swift
/// let bytes = try RawDeflate.inflate(compressed, limit: 1 << 20)   // the archive's bplist00… bytes
/// ```
package enum RawDeflate {
    /// Why data is not a DEFLATE stream Remodel can read.
    package struct Failure: Error, Sendable, Hashable {
        /// What is wrong, such as `a distance of 4000 bytes, but only 12 are decompressed`.
        package var message: String
    }

    /// Decompresses `bytes`, refusing output longer than `limit` bytes.
    package static func inflate(_ bytes: [UInt8], limit: Int) throws(Failure) -> [UInt8] {
        var reader = InflateReader(bytes: bytes, limit: limit)
        try reader.run()
        return reader.output
    }
}

/// A canonical Huffman code: how many codes of each length, and the symbols in code order; and, for
/// the codes of up to ``fastBits`` bits, a table read with the next bits of the stream.
private struct HuffmanCode {
    var counts: [Int] = Array(repeating: 0, count: 16)
    var symbols: [Int] = []
    /// How many bits the table reads at once: most literals and lengths of a model archive have codes of
    /// 9 bits or less; a longer code is read bit by bit (``InflateReader/decode(_:)``).
    static let fastBits = 9
    /// By the next ``fastBits`` bits (the stream's first bit the lowest): `symbol << 4 | length` of the
    /// code they begin with, or 0 where that code is longer or names no symbol.
    var fast: [UInt16] = Array(repeating: 0, count: 1 << HuffmanCode.fastBits)

    /// Builds the code from each symbol's code length (0: the symbol is not used). Incomplete codes are
    /// allowed (RFC 1951 allows one distance code); over-subscribed ones are refused.
    init(lengths: [Int]) throws(RawDeflate.Failure) {
        for length in lengths { counts[length] += 1 }
        var left = 1
        for length in 1..<16 {
            left <<= 1
            left -= counts[length]
            guard left >= 0 else { throw RawDeflate.Failure(message: "a Huffman code has more codes than it can hold") }
        }
        var offsets = Array(repeating: 0, count: 16)
        for length in 1..<15 { offsets[length + 1] = offsets[length] + counts[length] }
        symbols = Array(repeating: 0, count: lengths.count)
        for (symbol, length) in lengths.enumerated() where length != 0 {
            symbols[offsets[length]] = symbol
            offsets[length] += 1
        }
        // The canonical codes in order: each length's first code follows the previous length's last.
        // DEFLATE sends a code's most significant bit first, so the table is indexed by the code reversed.
        var code = 0
        var index = 0
        for length in 1...Self.fastBits {
            for symbol in symbols[index..<(index + counts[length])] {
                var reversed = 0
                for bit in 0..<length where code & (1 << bit) != 0 { reversed |= 1 << (length - 1 - bit) }
                let entry = UInt16(symbol << 4 | length)
                for rest in 0..<(1 << (Self.fastBits - length)) { fast[reversed | rest << length] = entry }
                code += 1
            }
            index += counts[length]
            code <<= 1
        }
    }
}

/// The decoder's state: the input, the bit position and the output so far.
private struct InflateReader {
    let bytes: [UInt8]
    let limit: Int
    var output: [UInt8] = []
    private var position = 0
    private var bitBuffer = 0
    private var bitCount = 0

    init(bytes: [UInt8], limit: Int) {
        self.bytes = bytes
        self.limit = limit
    }

    static let lengthBase = [
        3, 4, 5, 6, 7, 8, 9, 10, 11, 13, 15, 17, 19, 23, 27, 31, 35, 43, 51, 59, 67, 83, 99, 115, 131, 163, 195, 227,
        258,
    ]
    static let lengthExtra = [0, 0, 0, 0, 0, 0, 0, 0, 1, 1, 1, 1, 2, 2, 2, 2, 3, 3, 3, 3, 4, 4, 4, 4, 5, 5, 5, 5, 0]
    static let distanceBase = [
        1, 2, 3, 4, 5, 7, 9, 13, 17, 25, 33, 49, 65, 97, 129, 193, 257, 385, 513, 769, 1025, 1537, 2049, 3073, 4097,
        6145, 8193, 12289, 16385, 24577,
    ]
    static let distanceExtra = [
        0, 0, 0, 0, 1, 1, 2, 2, 3, 3, 4, 4, 5, 5, 6, 6, 7, 7, 8, 8, 9, 9, 10, 10, 11, 11, 12, 12, 13, 13,
    ]
    /// The order in which a dynamic block gives the code lengths of the code-length code.
    static let codeLengthOrder = [16, 17, 18, 0, 8, 7, 9, 6, 10, 5, 11, 4, 12, 3, 13, 2, 14, 1, 15]

    static let fixedCodes: (HuffmanCode, HuffmanCode)? = {
        var lengths = Array(repeating: 8, count: 288)
        for symbol in 144..<256 { lengths[symbol] = 9 }
        for symbol in 256..<280 { lengths[symbol] = 7 }
        guard let literals = try? HuffmanCode(lengths: lengths),
            let distances = try? HuffmanCode(lengths: Array(repeating: 5, count: 30))
        else { return nil }
        return (literals, distances)
    }()

    mutating func run() throws(RawDeflate.Failure) {
        var last = false
        while !last {
            last = try bits(1) == 1
            switch try bits(2) {
            case 0: try storedBlock()
            case 1:
                guard let (literals, distances) = Self.fixedCodes else {
                    throw RawDeflate.Failure(message: "the fixed Huffman codes cannot be built")
                }
                try codes(literals, distances)
            case 2:
                let (literals, distances) = try dynamicCodes()
                try codes(literals, distances)
            default:
                throw RawDeflate.Failure(message: "a block of type 3, which DEFLATE does not define")
            }
        }
    }

    private mutating func bits(_ count: Int) throws(RawDeflate.Failure) -> Int {
        while bitCount < count {
            guard position < bytes.count else {
                throw RawDeflate.Failure(message: "the data ends in the middle of a block (byte \(bytes.count))")
            }
            bitBuffer |= Int(bytes[position]) << bitCount
            position += 1
            bitCount += 8
        }
        let value = bitBuffer & ((1 << count) - 1)
        bitBuffer >>= count
        bitCount -= count
        return value
    }

    private mutating func append(_ byte: UInt8) throws(RawDeflate.Failure) {
        guard output.count < limit else {
            throw RawDeflate.Failure(message: "it decompresses to more than \(limit) bytes")
        }
        output.append(byte)
    }

    private mutating func storedBlock() throws(RawDeflate.Failure) {
        // The block starts at the next byte: the bits left of this one are skipped, and the whole bytes
        // read ahead into the buffer are given back.
        position -= bitCount / 8
        bitBuffer = 0
        bitCount = 0
        guard position + 4 <= bytes.count else {
            throw RawDeflate.Failure(message: "a stored block's length runs past the end of the data")
        }
        let length = Int(bytes[position]) | Int(bytes[position + 1]) << 8
        let complement = Int(bytes[position + 2]) | Int(bytes[position + 3]) << 8
        position += 4
        guard length == ~complement & 0xFFFF else {
            throw RawDeflate.Failure(message: "a stored block's length and its complement differ")
        }
        guard length <= bytes.count - position else {
            throw RawDeflate.Failure(message: "a stored block of \(length) bytes runs past the end of the data")
        }
        for byte in bytes[position..<(position + length)] { try append(byte) }
        position += length
    }

    /// The next symbol: looked up with the next ``HuffmanCode/fastBits`` bits where its code is that
    /// short, else read bit by bit, one code length after the other (as zlib's `puff.c` does).
    private mutating func decode(_ code: HuffmanCode) throws(RawDeflate.Failure) -> Int {
        while bitCount < HuffmanCode.fastBits, position < bytes.count {
            bitBuffer |= Int(bytes[position]) << bitCount
            position += 1
            bitCount += 8
        }
        let entry = Int(code.fast[bitBuffer & ((1 << HuffmanCode.fastBits) - 1)])
        let length = entry & 15
        if entry != 0, length <= bitCount {
            bitBuffer >>= length
            bitCount -= length
            return entry >> 4
        }
        var value = 0
        var first = 0
        var index = 0
        for length in 1..<16 {
            value |= try bits(1)
            let count = code.counts[length]
            if value - count < first { return code.symbols[index + (value - first)] }
            index += count
            first += count
            first <<= 1
            value <<= 1
        }
        throw RawDeflate.Failure(message: "a Huffman code that names no symbol")
    }

    private mutating func dynamicCodes() throws(RawDeflate.Failure) -> (HuffmanCode, HuffmanCode) {
        let literalCount = try bits(5) + 257
        let distanceCount = try bits(5) + 1
        let lengthCount = try bits(4) + 4
        guard literalCount <= 286, distanceCount <= 30 else {
            throw RawDeflate.Failure(
                message: "a block declares \(literalCount) literal and \(distanceCount) distance codes")
        }
        var codeLengths = Array(repeating: 0, count: 19)
        for index in 0..<lengthCount { codeLengths[Self.codeLengthOrder[index]] = try bits(3) }
        let lengthCode = try HuffmanCode(lengths: codeLengths)
        var lengths: [Int] = []
        while lengths.count < literalCount + distanceCount {
            let symbol = try decode(lengthCode)
            switch symbol {
            case 0..<16:
                lengths.append(symbol)
            case 16:
                guard let previous = lengths.last else {
                    throw RawDeflate.Failure(message: "a repeated code length with nothing before it")
                }
                lengths += Array(repeating: previous, count: 3 + (try bits(2)))
            case 17:
                lengths += Array(repeating: 0, count: 3 + (try bits(3)))
            default:
                lengths += Array(repeating: 0, count: 11 + (try bits(7)))
            }
        }
        guard lengths.count == literalCount + distanceCount else {
            throw RawDeflate.Failure(message: "code lengths run past the codes a block declares")
        }
        guard lengths[256] != 0 else { throw RawDeflate.Failure(message: "a block without an end-of-block code") }
        return (
            try HuffmanCode(lengths: Array(lengths[0..<literalCount])),
            try HuffmanCode(lengths: Array(lengths[literalCount...]))
        )
    }

    private mutating func codes(_ literals: HuffmanCode, _ distances: HuffmanCode) throws(RawDeflate.Failure) {
        while true {
            let symbol = try decode(literals)
            if symbol < 256 {
                try append(UInt8(symbol))
                continue
            }
            if symbol == 256 { return }
            let lengthIndex = symbol - 257
            guard lengthIndex < Self.lengthBase.count else {
                throw RawDeflate.Failure(message: "a length code \(symbol), which DEFLATE does not define")
            }
            let length = Self.lengthBase[lengthIndex] + (try bits(Self.lengthExtra[lengthIndex]))
            let distanceSymbol = try decode(distances)
            guard distanceSymbol < Self.distanceBase.count else {
                throw RawDeflate.Failure(message: "a distance code \(distanceSymbol), which DEFLATE does not define")
            }
            let distance = Self.distanceBase[distanceSymbol] + (try bits(Self.distanceExtra[distanceSymbol]))
            guard distance <= output.count else {
                throw RawDeflate.Failure(
                    message: "a distance of \(distance) bytes, but only \(output.count) are decompressed")
            }
            for _ in 0..<length { try append(output[output.count - distance]) }
        }
    }
}
