/// Writes binary property lists (`bplist00`) byte for byte as Core Foundation's `CFPropertyListWrite` does, so a
/// keyed archive read from a store and written again is the same bytes (``PropertyListArchive``).
///
/// What Core Foundation does (`__CFBinaryPlistWrite`, and the archives of real stores and public fixtures): the
/// objects are listed depth first from the top, a dictionary's keys before its values; strings, numbers, dates
/// and data equal to one listed already are not listed again (numbers compare by value, so `1` and `1.0` are one);
/// every other object is listed each time it is met, but references go to the first equal one (an archive
/// reference met twice is written twice, the second copy unused). Integers take 1, 2 or 4 bytes when they fit
/// unsigned, else 8; negative ones 8. Strings are ASCII when they can be, else UTF-16. Offsets take as many bytes
/// as the offset table's own position needs; references as many as the number of objects needs.
package enum BinaryPropertyListEncoder {
    /// A property list to write: dictionaries keep their keys in the order given.
    package indirect enum Node: Sendable, Hashable {
        case string(String)
        case integer(Int64)
        case real(Double)
        case bool(Bool)
        /// Seconds since 2001-01-01 UTC.
        case date(Double)
        case data([UInt8])
        /// A keyed archive's reference to an object of its `$objects`.
        case uid(Int)
        case array([Node])
        case dictionary([Entry])

        /// One entry of a dictionary.
        package struct Entry: Sendable, Hashable {
            package var key: String
            package var value: Node

            package init(_ key: String, _ value: Node) {
                self.key = key
                self.value = value
            }
        }
    }

    /// The bytes of `top`.
    package static func encode(_ top: Node) -> [UInt8] {
        var flattening = Flattening()
        flattening.flatten(top)
        return flattening.write()
    }

    /// What the uniquing and the references compare: numbers by value, everything else by kind and content.
    private enum Key: Hashable {
        case string(String)
        /// A number a double holds exactly, by its double's bits (so `1` and `1.0` are one number).
        case number(UInt64)
        /// An integer no double holds exactly.
        case wideInteger(Int64)
        case bool(Bool)
        case date(UInt64)
        case data([UInt8])
        case uid(Int)

        init?(_ node: Node) {
            switch node {
            case .string(let text): self = .string(text)
            case .integer(let number):
                if let exact = Double(exactly: number) {
                    self = .number(exact.bitPattern)
                } else {
                    self = .wideInteger(number)
                }
            case .real(let number):
                // CFNumber compares values: an integral real is the integer, and -0.0 is 0.
                self = .number((number == 0 ? 0 : number).bitPattern)
            case .bool(let flag): self = .bool(flag)
            case .date(let seconds): self = .date(seconds.bitPattern)
            case .data(let bytes): self = .data(bytes)
            case .uid(let index): self = .uid(index)
            case .array, .dictionary: return nil
            }
        }

        /// Strings, numbers, dates and data are listed once.
        var isUniqued: Bool {
            switch self {
            case .string, .number, .wideInteger, .date, .data: return true
            case .bool, .uid: return false
            }
        }
    }

    private struct Flattening {
        var objects: [Node] = []
        /// The first listed object of each key (containers have none: each is its own).
        var first: [Key: Int] = [:]
        /// For each listed object, the object numbers of its children (a dictionary's keys, then its values).
        var children: [[Int]] = []

        /// Lists `node` and its children; returns the number references to it use.
        @discardableResult
        mutating func flatten(_ node: Node) -> Int {
            let key = Key(node)
            if let key, key.isUniqued, let known = first[key] { return known }
            let number = objects.count
            objects.append(node)
            children.append([])
            if let key, first[key] == nil { first[key] = number }
            var references: [Int] = []
            switch node {
            case .array(let elements):
                references = elements.map { flatten($0) }
            case .dictionary(let entries):
                let keys = entries.map { flatten(.string($0.key)) }
                references = keys + entries.map { flatten($0.value) }
            default:
                break
            }
            children[number] = references
            return key.flatMap { first[$0] } ?? number
        }

        func write() -> [UInt8] {
            let referenceSize = BinaryPropertyListEncoder.byteCount(UInt64(objects.count))
            var output = Array("bplist00".utf8)
            var offsets: [Int] = []
            offsets.reserveCapacity(objects.count)
            for (index, object) in objects.enumerated() {
                offsets.append(output.count)
                BinaryPropertyListEncoder.append(object, references: children[index], size: referenceSize, to: &output)
            }
            let table = output.count
            let offsetSize = BinaryPropertyListEncoder.byteCount(UInt64(table))
            for offset in offsets {
                BinaryPropertyListEncoder.appendBigEndian(UInt64(offset), size: offsetSize, to: &output)
            }
            output += [0, 0, 0, 0, 0, 0, UInt8(offsetSize), UInt8(referenceSize)]
            appendBigEndian(objects.count, &output)
            appendBigEndian(0, &output)
            appendBigEndian(table, &output)
            return output
        }

        private func appendBigEndian(_ value: Int, _ output: inout [UInt8]) {
            BinaryPropertyListEncoder.appendBigEndian(UInt64(value), size: 8, to: &output)
        }
    }

    /// The bytes a value needs (1 for 0…255), as Core Foundation's `_byteCount` counts them.
    static func byteCount(_ value: UInt64) -> Int {
        var size = 1
        var rest = value >> 8
        while rest != 0 {
            size += 1
            rest >>= 8
        }
        return size
    }

    static func appendBigEndian(_ value: UInt64, size: Int, to output: inout [UInt8]) {
        for shift in stride(from: (size - 1) * 8, through: 0, by: -8) {
            output.append(UInt8(truncatingIfNeeded: value >> UInt64(shift)))
        }
    }

    /// An integer object: 1, 2 or 4 bytes when it fits unsigned, else 8 (negative numbers always 8).
    static func appendInteger(_ number: Int64, to output: inout [UInt8]) {
        if number < 0 || number > 0xFFFF_FFFF {
            output.append(0x13)
            appendBigEndian(UInt64(bitPattern: number), size: 8, to: &output)
        } else if number > 0xFFFF {
            output.append(0x12)
            appendBigEndian(UInt64(number), size: 4, to: &output)
        } else if number > 0xFF {
            output.append(0x11)
            appendBigEndian(UInt64(number), size: 2, to: &output)
        } else {
            output.append(0x10)
            output.append(UInt8(number))
        }
    }

    /// A marker with a count: in its low four bits, or 15 and an integer object after it.
    static func appendMarker(_ kind: UInt8, count: Int, to output: inout [UInt8]) {
        if count < 15 {
            output.append(kind << 4 | UInt8(count))
        } else {
            output.append(kind << 4 | 0x0F)
            appendInteger(Int64(count), to: &output)
        }
    }

    private static func append(_ node: Node, references: [Int], size: Int, to output: inout [UInt8]) {
        switch node {
        case .string(let text):
            if text.utf8.allSatisfy({ $0 < 0x80 }) {
                appendMarker(0x5, count: text.utf8.count, to: &output)
                output += text.utf8
            } else {
                let units = Array(text.utf16)
                appendMarker(0x6, count: units.count, to: &output)
                for unit in units { output += [UInt8(unit >> 8), UInt8(unit & 0xFF)] }
            }
        case .integer(let number):
            appendInteger(number, to: &output)
        case .real(let number):
            output.append(0x23)
            appendBigEndian(number.bitPattern, size: 8, to: &output)
        case .bool(let flag):
            output.append(flag ? 0x09 : 0x08)
        case .date(let seconds):
            output.append(0x33)
            appendBigEndian(seconds.bitPattern, size: 8, to: &output)
        case .data(let bytes):
            appendMarker(0x4, count: bytes.count, to: &output)
            output += bytes
        case .uid(let index):
            let value = UInt64(max(0, index))
            let width = value <= 0xFF ? 1 : value <= 0xFFFF ? 2 : value <= 0xFFFF_FFFF ? 4 : 8
            output.append(0x80 | UInt8(width - 1))
            appendBigEndian(value, size: width, to: &output)
        case .array(let elements):
            appendMarker(0xA, count: elements.count, to: &output)
            for reference in references { appendBigEndian(UInt64(reference), size: size, to: &output) }
        case .dictionary(let entries):
            appendMarker(0xD, count: entries.count, to: &output)
            for reference in references { appendBigEndian(UInt64(reference), size: size, to: &output) }
        }
    }
}
