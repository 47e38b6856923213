import Foundation

/// Writes the binary property lists (`bplist00`) that tests put in `Z_METADATA.Z_PLIST`: dictionaries,
/// arrays, ASCII strings, data and integers, as Core Foundation lays them out (objects, offset table,
/// 32-byte trailer).
enum BinaryPropertyListWriter {
    indirect enum Value {
        case string(String)
        case data([UInt8])
        case integer(Int64)
        case array([Value])
        case dictionary([(String, Value)])
    }

    static func encode(_ top: Value) -> [UInt8] {
        var objects: [[UInt8]] = []
        func header(_ kind: UInt8, _ count: Int) -> [UInt8] {
            if count < 15 { return [kind << 4 | UInt8(count)] }
            return [kind << 4 | 0x0F, 0x13] + withUnsafeBytes(of: UInt64(count).bigEndian, Array.init)
        }
        /// Adds a value (children first) and returns its object number.
        func add(_ value: Value) -> Int {
            var bytes: [UInt8]
            switch value {
            case .string(let text): bytes = header(0x5, text.utf8.count) + Array(text.utf8)
            case .data(let data): bytes = header(0x4, data.count) + data
            case .integer(let number): bytes = [0x13] + withUnsafeBytes(of: number.bigEndian, Array.init)
            case .array(let items):
                let references = items.map(add)
                bytes = header(0xA, items.count) + references.map { UInt8($0) }
            case .dictionary(let entries):
                let keys = entries.map { add(.string($0.0)) }
                let values = entries.map { add($0.1) }
                bytes = header(0xD, entries.count) + (keys + values).map { UInt8($0) }
            }
            objects.append(bytes)
            return objects.count - 1
        }
        let topIndex = add(top)
        var output = Array("bplist00".utf8)
        var offsets: [Int] = []
        for object in objects {
            offsets.append(output.count)
            output += object
        }
        let tableOffset = output.count
        for offset in offsets { output += withUnsafeBytes(of: UInt32(offset).bigEndian, Array.init) }
        output += [0, 0, 0, 0, 0, 0, 4, 1]
        output += withUnsafeBytes(of: UInt64(objects.count).bigEndian, Array.init)
        output += withUnsafeBytes(of: UInt64(topIndex).bigEndian, Array.init)
        output += withUnsafeBytes(of: UInt64(tableOffset).bigEndian, Array.init)
        return output
    }
}
