/// Positions of names in a list, found the way a `[String: Int]` finds them
/// (`String` equality, so canonically equivalent spellings match), the first
/// occurrence of a name winning. Built once per entity and shared by every
/// object a policy sees or makes, so it is made for many lookups: a name is
/// first looked for in a small open-addressing table by a cheap hash of its
/// UTF-8 length and end bytes, and compared with `==`; only a name not found
/// there (one that is not in the list, or spelled with other bytes) costs a
/// dictionary lookup.
final class NameIndex: Sendable {
    /// The names, in order.
    let names: [String]
    private let positions: [String: Int]
    /// Slots of the quick table: a position, or -1 for an empty slot. Only the first
    /// occurrence of each name is in it, so a name found there is what the dictionary would find.
    private let slots: [Int]

    init(_ names: [String]) {
        var positions: [String: Int] = [:]
        for (position, name) in names.enumerated() where positions[name] == nil { positions[name] = position }
        self.names = names
        self.positions = positions
        var capacity = 8
        while capacity < names.count * 2 { capacity *= 2 }
        var slots = [Int](repeating: -1, count: capacity)
        for position in names.indices where positions[names[position]] == position {
            var slot = Self.quickHash(of: names[position]) & (capacity - 1)
            while slots[slot] >= 0 { slot = (slot + 1) & (capacity - 1) }
            slots[slot] = position
        }
        self.slots = slots
    }

    /// The position of `name`, or nil when it is not in the list.
    func position(of name: String) -> Int? {
        let mask = slots.count - 1
        var slot = Self.quickHash(of: name) & mask
        while true {
            let position = slots[slot]
            if position < 0 { return positions[name] }
            if names[position] == name { return position }
            slot = (slot + 1) & mask
        }
    }

    /// A hash of the UTF-8 length, first and last bytes: a few instructions for the short ASCII
    /// names attributes have, and different for most names of one entity.
    private static func quickHash(of name: String) -> Int {
        // Typed step by step: the one-expression form took the type checker 180 ms (issue 30, the app's build).
        let hash = name.utf8.withContiguousStorageIfAvailable { (bytes: UnsafeBufferPointer<UInt8>) -> Int in
            guard let first = bytes.first, let last = bytes.last else { return 0 }
            let start: Int = (bytes.count &* 31 &+ Int(first)) &* 131
            return start &+ Int(last) &* 7
        }
        return hash ?? name.utf8.count
    }
}
