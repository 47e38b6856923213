@testable import Remodel
@testable import RemodelModel

/// Writes binary property lists (`bplist00`), for tests only: hand-built
/// archives to read back. Every value is its own object (no sharing), in the
/// order met, the top object first.
enum PropertyListWriter {
    /// Options that make the writer use the less common encodings, to test that they read.
    struct Options {
        /// Write reals as 4-byte floats when they fit exactly.
        var floats = false
        /// Write every string as UTF-16.
        var utf16 = false
        /// The size of object references (1, 2, …); nil for the smallest that fits.
        var referenceSize: Int?
    }

    static func encode(_ value: PropertyListValue, options: Options = Options()) -> [UInt8] {
        func count(_ value: PropertyListValue) -> Int {
            switch value {
            case .array(let elements): return 1 + elements.map(count).reduce(0, +)
            case .dictionary(let entries): return 1 + entries.count + entries.values.map(count).reduce(0, +)
            default: return 1
            }
        }
        let total = count(value)
        let referenceSize = options.referenceSize ?? (total < 256 ? 1 : 2)
        var objects = Array(repeating: [UInt8](), count: total)
        var next = 0
        // Numbers each object as it is met (depth first), writing its body once its children have numbers.
        func write(_ value: PropertyListValue) -> Int {
            let index = next
            next += 1
            var references: [Int] = []
            switch value {
            case .array(let elements):
                for element in elements { references.append(write(element)) }
                objects[index] = header(0xA, elements.count)
            case .dictionary(let entries):
                let keys = entries.keys.sorted()
                for key in keys { references.append(write(.string(key))) }
                for key in keys { references.append(write(entries[key] ?? .null)) }
                objects[index] = header(0xD, keys.count)
            default:
                objects[index] = scalar(value, options: options)
            }
            objects[index] += references.flatMap { bigEndian(UInt64($0), size: referenceSize) }
            return index
        }
        _ = write(value)
        var bytes = Array("bplist00".utf8)
        var offsets: [Int] = []
        for object in objects {
            offsets.append(bytes.count)
            bytes += object
        }
        let tableOffset = bytes.count
        let offsetSize = tableOffset < 256 ? 1 : tableOffset < 65_536 ? 2 : 4
        for offset in offsets { bytes += bigEndian(UInt64(offset), size: offsetSize) }
        bytes += [0, 0, 0, 0, 0, 0, UInt8(offsetSize), UInt8(referenceSize)]
        bytes +=
            bigEndian(UInt64(objects.count), size: 8) + bigEndian(0, size: 8) + bigEndian(UInt64(tableOffset), size: 8)
        return bytes
    }

    private static func scalar(_ value: PropertyListValue, options: Options) -> [UInt8] {
        switch value {
        case .null: return [0x00]
        case .bool(let flag): return [flag ? 0x09 : 0x08]
        case .integer(let number): return integer(number)
        case .real(let number):
            if options.floats, let float = Float(exactly: number) {
                return [0x22] + bigEndian(UInt64(float.bitPattern), size: 4)
            }
            return [0x23] + bigEndian(number.bitPattern, size: 8)
        case .date(let seconds): return [0x33] + bigEndian(seconds.bitPattern, size: 8)
        case .data(let bytes): return header(0x4, bytes.count) + bytes
        case .string(let text):
            if !options.utf16, text.unicodeScalars.allSatisfy(\.isASCII) {
                return header(0x5, text.utf8.count) + Array(text.utf8)
            }
            let units = Array(text.utf16)
            return header(0x6, units.count) + units.flatMap { bigEndian(UInt64($0), size: 2) }
        case .uid(let index):
            let size = index < 256 ? 1 : index < 65_536 ? 2 : 4
            return [0x80 | UInt8(size - 1)] + bigEndian(UInt64(index), size: size)
        case .array, .dictionary: return []
        }
    }

    private static func integer(_ number: Int64) -> [UInt8] {
        if number >= 0 && number < 256 { return [0x10] + bigEndian(UInt64(number), size: 1) }
        if number >= 0 && number < 65_536 { return [0x11] + bigEndian(UInt64(number), size: 2) }
        if number >= 0 && number < 4_294_967_296 { return [0x12] + bigEndian(UInt64(number), size: 4) }
        return [0x13] + bigEndian(UInt64(bitPattern: number), size: 8)
    }

    /// A marker with a count: in the low nibble, or 15 and an integer object after it.
    private static func header(_ kind: UInt8, _ count: Int) -> [UInt8] {
        count < 15 ? [kind << 4 | UInt8(count)] : [kind << 4 | 0x0F] + integer(Int64(count))
    }

    static func bigEndian(_ value: UInt64, size: Int) -> [UInt8] {
        (0..<size).map { UInt8(truncatingIfNeeded: value >> (8 * UInt64(size - 1 - $0))) }
    }
}
