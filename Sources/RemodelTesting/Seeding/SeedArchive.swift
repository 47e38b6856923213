internal import Foundation
import Remodel
import RemodelModel

/// Keyed archives of a Transformable attribute's typed value (``ArchivedValueType``), as Core Data's
/// `NSSecureUnarchiveFromData` keeps them and the generated records read them: a few elements per collection,
/// every leaf within its Swift type. A set's members are distinct and a dictionary's keys too, in the order
/// Remodel's own encoder writes them, so the records write an unchanged value back to the same bytes.
enum SeedArchive {
    static func bytes(of type: ArchivedValueType, _ random: inout SeedRandom) -> Data {
        Data(PropertyListArchive(root: value(of: type, depth: 0, &random)).bytes)
    }

    private static func value(of type: ArchivedValueType, depth: Int, _ random: inout SeedRandom)
        -> PropertyListArchive.Value
    {
        // Nested collections hold fewer elements, so a deep type stays small.
        let count = random.index(depth == 0 ? 4 : 3)
        switch type {
        case .leaf(let type):
            return leaf(type, &random)
        case .array(let element):
            return .array((0..<count).map { _ in value(of: element, depth: depth + 1, &random) }, mutable: false)
        case .set(let element):
            var members: [PropertyListArchive.Value] = []
            for _ in 0..<count {
                let member = value(of: element, depth: depth + 1, &random)
                if !members.contains(member) { members.append(member) }
            }
            return .set(members.sorted { String(describing: $0) < String(describing: $1) }, mutable: false)
        case .dictionary(let valueType):
            var keys: Set<String> = []
            for index in 0..<count { keys.insert("key\(index)-\(random.index(100))") }
            let entries = keys.sorted { $0.utf8.lexicographicallyPrecedes($1.utf8) }.map {
                PropertyListArchive.Entry(.string($0), value(of: valueType, depth: depth + 1, &random))
            }
            return .dictionary(entries, mutable: false)
        }
    }

    private static func leaf(_ leaf: ArchivedValueType.Leaf, _ random: inout SeedRandom) -> PropertyListArchive.Value {
        switch leaf {
        case .string: .string("text \(random.index(10_000))")
        case .bool: .bool(random.chance(1, in: 2))
        case .int16: .integer(random.integer(in: -30_000...30_000))
        case .int32: .integer(random.integer(in: -2_000_000_000...2_000_000_000))
        case .int, .int64: .integer(random.integer(in: -1_000_000_000_000...1_000_000_000_000))
        // Halves and quarters: exact in a Float and a Double, so the value reads back as written.
        case .double, .float: .real(Double(random.integer(in: -400_000...400_000)) / 4)
        case .date: .date(Double(random.integer(in: -900_000_000...900_000_000)))
        case .data: .data((0..<random.index(9)).map { _ in UInt8(truncatingIfNeeded: random.next()) })
        case .url: .url("https://example.org/item/\(random.index(10_000))")
        case .uuid: .uuid((0..<16).map { _ in UInt8(truncatingIfNeeded: random.next()) })
        }
    }
}
