/// Reads binary property lists (`bplist00`), as Core Foundation writes them:
/// an 8-byte header, the objects, a table of their offsets and a 32-byte
/// trailer giving the sizes of offsets and object references, the number of
/// objects, the top object and where the offset table starts.
///
/// Untrusted input is safe: every offset, count and reference is checked
/// against the data, a reference cycle is an error, and an object shared by
/// several containers is decoded once.
///
/// For example:
/// ```swift
/// let value = try BinaryPropertyList.decode(Array(data))   // .dictionary(["$archiver": .string("NSKeyedArchiver"), …])
/// ```
package enum BinaryPropertyList {
    /// Why data is not a binary property list Remodel can read.
    package struct Failure: Error, Sendable, Hashable {
        /// What is wrong, such as `object 3 at byte 120: unknown marker 0x70`.
        package var message: String
    }

    /// The deepest nesting of arrays and dictionaries accepted (keyed archives nest only a few levels).
    static let maximumDepth = 256

    /// Decodes the top object of a binary property list.
    package static func decode(_ bytes: [UInt8]) throws(Failure) -> PropertyListValue {
        var reader = try BinaryPropertyListReader(bytes: bytes)
        return try reader.object(reader.topObject, depth: 0)
    }
}

/// The decoder's state: the trailer's figures and the objects decoded so far.
struct BinaryPropertyListReader {
    private let bytes: [UInt8]
    private let offsetSize: Int
    private let referenceSize: Int
    private let objectCount: Int
    private let offsetTable: Int
    let topObject: Int
    private var decoded: [PropertyListValue?]
    private var inProgress: [Bool]

    init(bytes: [UInt8]) throws(BinaryPropertyList.Failure) {
        self.bytes = bytes
        guard bytes.count >= 8 + 32, bytes.prefix(8).elementsEqual("bplist00".utf8) else {
            throw BinaryPropertyList.Failure(
                message: "the data does not start with 'bplist00', or is too short to be a binary property list")
        }
        let trailer = bytes.count - 32
        offsetSize = Int(bytes[trailer + 6])
        referenceSize = Int(bytes[trailer + 7])
        guard (1...8).contains(offsetSize), (1...8).contains(referenceSize) else {
            throw BinaryPropertyList.Failure(
                message:
                    "the trailer gives offsets of \(offsetSize) bytes and references of \(referenceSize) bytes (1 to 8 expected)"
            )
        }
        let count = Self.unsigned(bytes, at: trailer + 8, size: 8)
        let top = Self.unsigned(bytes, at: trailer + 16, size: 8)
        let table = Self.unsigned(bytes, at: trailer + 24, size: 8)
        guard count > 0, top < count, table >= 8, table < UInt64(trailer),
            (UInt64(trailer) - table) / UInt64(offsetSize) >= count
        else {
            throw BinaryPropertyList.Failure(
                message:
                    "the trailer is inconsistent (\(count) objects, top object \(top), offset table at byte \(table) of \(bytes.count))"
            )
        }
        objectCount = Int(count)
        topObject = Int(top)
        offsetTable = Int(table)
        decoded = Array(repeating: nil, count: objectCount)
        inProgress = Array(repeating: false, count: objectCount)
    }

    /// A big-endian unsigned integer of `size` bytes (at most 8) at `offset`; the caller checks bounds.
    private static func unsigned(_ bytes: [UInt8], at offset: Int, size: Int) -> UInt64 {
        var value: UInt64 = 0
        for index in offset..<(offset + size) { value = value << 8 | UInt64(bytes[index]) }
        return value
    }

    private func failure(_ message: String, object: Int) -> BinaryPropertyList.Failure {
        BinaryPropertyList.Failure(message: "object \(object): \(message)")
    }

    /// `size` bytes at `offset`, or an error when they run past the objects.
    private func read(_ offset: Int, _ size: Int, object: Int) throws(BinaryPropertyList.Failure) -> ArraySlice<UInt8> {
        guard offset >= 8, size >= 0, offset <= offsetTable, size <= offsetTable - offset else {
            throw failure("its bytes run past the end of the objects (byte \(offset), \(size) bytes)", object: object)
        }
        return bytes[offset..<(offset + size)]
    }

    /// Decodes object `index`, each object once.
    mutating func object(_ index: Int, depth: Int) throws(BinaryPropertyList.Failure) -> PropertyListValue {
        guard index >= 0, index < objectCount else {
            throw BinaryPropertyList.Failure(
                message: "a reference to object \(index), but there are \(objectCount) objects")
        }
        if let value = decoded[index] { return value }
        guard !inProgress[index] else { throw failure("it contains itself", object: index) }
        guard depth <= BinaryPropertyList.maximumDepth else {
            throw failure("containers nest more than \(BinaryPropertyList.maximumDepth) levels deep", object: index)
        }
        inProgress[index] = true
        let entry = offsetTable + index * offsetSize
        // An 8-byte offset may be past what an Int holds: out of the data, like any offset past its end.
        guard let offset = Int(exactly: Self.unsigned(bytes, at: entry, size: offsetSize)) else {
            throw failure("its offset is past the end of the data", object: index)
        }
        let value = try parse(index, at: offset, depth: depth)
        inProgress[index] = false
        decoded[index] = value
        return value
    }

    private mutating func parse(_ index: Int, at offset: Int, depth: Int) throws(BinaryPropertyList.Failure)
        -> PropertyListValue
    {
        let marker = try read(offset, 1, object: index).first ?? 0
        let high = marker >> 4, low = Int(marker & 0x0F)
        switch high {
        case 0x0:
            switch marker {
            case 0x00: return .null
            case 0x08: return .bool(false)
            case 0x09: return .bool(true)
            default: throw failure("unknown marker 0x\(String(marker, radix: 16))", object: index)
            }
        case 0x1:
            return .integer(try integer(at: offset + 1, sizeExponent: low, object: index))
        case 0x2:
            return .real(try real(at: offset + 1, sizeExponent: low, object: index))
        case 0x3:
            guard marker == 0x33 else { throw failure("unknown marker 0x\(String(marker, radix: 16))", object: index) }
            return .date(try real(at: offset + 1, sizeExponent: 3, object: index))
        case 0x4, 0x5, 0x6:
            let (count, start) = try length(low, at: offset + 1, object: index)
            let unit = high == 0x6 ? 2 : 1
            guard count <= Int.max / 2 else { throw failure("its length \(count) is too large", object: index) }
            let payload = try read(start, count * unit, object: index)
            if high == 0x4 { return .data(Array(payload)) }
            if high == 0x5 {
                guard payload.allSatisfy({ $0 < 0x80 }) else {
                    throw failure("an ASCII string holds a byte above 127", object: index)
                }
                return .string(String(decoding: payload, as: UTF8.self))
            }
            var units: [UInt16] = []
            units.reserveCapacity(count)
            var position = payload.startIndex
            while position < payload.endIndex {
                units.append(UInt16(payload[position]) << 8 | UInt16(payload[position + 1]))
                position += 2
            }
            return .string(String(decoding: units, as: UTF16.self))
        case 0x8:
            guard low < 8 else { throw failure("an archive reference of \(low + 1) bytes", object: index) }
            let payload = try read(offset + 1, low + 1, object: index)
            let value = Self.unsigned(bytes, at: payload.startIndex, size: low + 1)
            guard value <= UInt64(Int32.max) else {
                throw failure("the archive reference \(value) is too large", object: index)
            }
            return .uid(Int(value))
        case 0xA, 0xC:
            let references = try self.references(low, at: offset + 1, object: index, multiplier: 1)
            var elements: [PropertyListValue] = []
            elements.reserveCapacity(references.count)
            for reference in references { elements.append(try object(reference, depth: depth + 1)) }
            return .array(elements)
        case 0xD:
            let references = try self.references(low, at: offset + 1, object: index, multiplier: 2)
            let half = references.count / 2
            var entries: [String: PropertyListValue] = [:]
            for position in 0..<half {
                guard case .string(let key) = try object(references[position], depth: depth + 1) else {
                    throw failure("a dictionary key is not a string", object: index)
                }
                entries[key] = try object(references[half + position], depth: depth + 1)
            }
            return .dictionary(entries)
        default:
            throw failure("unknown marker 0x\(String(marker, radix: 16))", object: index)
        }
    }

    /// An integer of 2^`sizeExponent` bytes: 1, 2 and 4 bytes are unsigned, 8 signed, 16 signed when it fits in 64 bits.
    private func integer(at offset: Int, sizeExponent: Int, object: Int) throws(BinaryPropertyList.Failure) -> Int64 {
        guard sizeExponent <= 4 else { throw failure("an integer of 2^\(sizeExponent) bytes", object: object) }
        let size = 1 << sizeExponent
        let payload = try read(offset, size, object: object)
        if size == 16 {
            let upper = Self.unsigned(bytes, at: payload.startIndex, size: 8)
            let lower = Self.unsigned(bytes, at: payload.startIndex + 8, size: 8)
            guard upper == 0 && lower <= UInt64(Int64.max) || upper == UInt64.max && lower > UInt64(Int64.max) else {
                throw failure("a 128-bit integer that does not fit in 64 bits", object: object)
            }
            return Int64(bitPattern: lower)
        }
        let value = Self.unsigned(bytes, at: payload.startIndex, size: size)
        return size == 8 ? Int64(bitPattern: value) : Int64(value)
    }

    private func real(at offset: Int, sizeExponent: Int, object: Int) throws(BinaryPropertyList.Failure) -> Double {
        switch sizeExponent {
        case 2:
            let payload = try read(offset, 4, object: object)
            return Double(Float(bitPattern: UInt32(Self.unsigned(bytes, at: payload.startIndex, size: 4))))
        case 3:
            let payload = try read(offset, 8, object: object)
            return Double(bitPattern: Self.unsigned(bytes, at: payload.startIndex, size: 8))
        default:
            throw failure("a real number of 2^\(sizeExponent) bytes", object: object)
        }
    }

    /// The count of a variable-length object (in the marker, or an integer after it when the marker says 15) and where its payload starts.
    private func length(_ low: Int, at offset: Int, object: Int) throws(BinaryPropertyList.Failure) -> (Int, Int) {
        guard low == 0x0F else { return (low, offset) }
        let marker = try read(offset, 1, object: object).first ?? 0
        guard marker >> 4 == 0x1 else { throw failure("its length is not an integer", object: object) }
        let exponent = Int(marker & 0x0F)
        let count = try integer(at: offset + 1, sizeExponent: exponent, object: object)
        guard count >= 0, count <= Int64(bytes.count) else {
            throw failure("its length \(count) is impossible", object: object)
        }
        return (Int(count), offset + 1 + (1 << exponent))
    }

    /// The object references of an array (`multiplier` 1) or a dictionary (2: keys, then values).
    private func references(_ low: Int, at offset: Int, object: Int, multiplier: Int) throws(BinaryPropertyList.Failure)
        -> [Int]
    {
        let (count, start) = try length(low, at: offset, object: object)
        let total = count * multiplier
        let payload = try read(start, total * referenceSize, object: object)
        var result: [Int] = []
        result.reserveCapacity(total)
        var position = payload.startIndex
        for _ in 0..<total {
            let reference = Self.unsigned(bytes, at: position, size: referenceSize)
            guard reference < UInt64(objectCount) else {
                throw failure("it refers to object \(reference), but there are \(objectCount) objects", object: object)
            }
            result.append(Int(reference))
            position += referenceSize
        }
        return result
    }
}
