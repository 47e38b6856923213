/// Positions of names in a list, found the way a `[String: Int]` finds them
/// (`String` equality, so canonically equivalent spellings match), the first
/// occurrence of a name winning. Built once per entity and shared by every
/// object a policy sees or makes.
final class NameIndex: Sendable {
    /// The names, in order.
    let names: [String]
    private let positions: [String: Int]

    init(_ names: [String]) {
        var positions: [String: Int] = [:]
        for (position, name) in names.enumerated() where positions[name] == nil { positions[name] = position }
        self.names = names
        self.positions = positions
    }

    /// The position of `name`, or nil when it is not in the list.
    func position(of name: String) -> Int? {
        positions[name]
    }
}
