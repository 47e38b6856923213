import Foundation

/// Writes the binary property lists (`bplist00`) that tests put in `Z_METADATA.Z_PLIST` and, as keyed
/// archives, in `Z_MODELCACHE`: dictionaries, arrays, ASCII strings, data, integers, reals, Booleans and
/// archive references, as Core Foundation lays them out (objects, offset table, 32-byte trailer).
enum BinaryPropertyListWriter {
    indirect enum Value {
        case string(String)
        case data([UInt8])
        case integer(Int64)
        case real(Double)
        case bool(Bool)
        case uid(Int)
        case array([Value])
        case dictionary([(String, Value)])
    }

    static func encode(_ top: Value) -> [UInt8] {
        var objects: [[UInt8]] = []
        var references: [[Int]] = []
        func header(_ kind: UInt8, _ count: Int) -> [UInt8] {
            if count < 15 { return [kind << 4 | UInt8(count)] }
            return [kind << 4 | 0x0F, 0x13] + withUnsafeBytes(of: UInt64(count).bigEndian, Array.init)
        }
        /// Adds a value (children first) and returns its object number; containers keep their children's
        /// numbers aside, written once the reference size is known.
        func add(_ value: Value) -> Int {
            var bytes: [UInt8]
            var children: [Int] = []
            switch value {
            case .string(let text): bytes = header(0x5, text.utf8.count) + Array(text.utf8)
            case .data(let data): bytes = header(0x4, data.count) + data
            case .integer(let number): bytes = [0x13] + withUnsafeBytes(of: number.bigEndian, Array.init)
            case .real(let number): bytes = [0x23] + withUnsafeBytes(of: number.bitPattern.bigEndian, Array.init)
            case .bool(let flag): bytes = [flag ? 0x09 : 0x08]
            case .uid(let index): bytes = [0x83] + withUnsafeBytes(of: UInt32(index).bigEndian, Array.init)
            case .array(let items):
                children = items.map(add)
                bytes = header(0xA, items.count)
            case .dictionary(let entries):
                let keys = entries.map { add(.string($0.0)) }
                children = keys + entries.map { add($0.1) }
                bytes = header(0xD, entries.count)
            }
            objects.append(bytes)
            references.append(children)
            return objects.count - 1
        }
        let topIndex = add(top)
        let referenceSize = objects.count < 256 ? 1 : 2
        var output = Array("bplist00".utf8)
        var offsets: [Int] = []
        for (object, children) in zip(objects, references) {
            offsets.append(output.count)
            output += object
            for child in children {
                output += referenceSize == 1 ? [UInt8(child)] : [UInt8(child >> 8), UInt8(child & 0xFF)]
            }
        }
        let tableOffset = output.count
        for offset in offsets { output += withUnsafeBytes(of: UInt32(offset).bigEndian, Array.init) }
        output += [0, 0, 0, 0, 0, 0, 4, UInt8(referenceSize)]
        output += withUnsafeBytes(of: UInt64(objects.count).bigEndian, Array.init)
        output += withUnsafeBytes(of: UInt64(topIndex).bigEndian, Array.init)
        output += withUnsafeBytes(of: UInt64(tableOffset).bigEndian, Array.init)
        return output
    }

    /// `bytes` as a raw DEFLATE stream of stored (uncompressed) blocks, which any inflater reads.
    static func storedDeflate(_ bytes: [UInt8]) -> [UInt8] {
        var output: [UInt8] = []
        var start = 0
        repeat {
            let length = min(65_535, bytes.count - start)
            let last = start + length == bytes.count
            output.append(last ? 1 : 0)
            output += [UInt8(length & 0xFF), UInt8(length >> 8), UInt8(~length & 0xFF), UInt8((~length >> 8) & 0xFF)]
            output += bytes[start..<(start + length)]
            start += length
        } while start < bytes.count
        return output
    }
}
