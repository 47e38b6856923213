/// Swift's `==` on a layout's values takes canonically equivalent names for one (`Café` and `Cafe`+U+0301); the
/// store's SQLite and Core Data take them for two. Where one layout's value stands in for another's (a chain's
/// versions share the tables they lay out alike), the two must also be spelled alike: every name the same scalars
/// (``SQLName/identical(_:_:)``).
extension StoreLayout {
    /// Whether the tables, join tables and indexes of the two layouts name everything with the same scalars.
    func isSpelled(as other: StoreLayout) -> Bool {
        zip(tables, other.tables).allSatisfy { $0.isSpelled(as: $1) }
            && Self.spelledAlike(joinTables.flatMap(\.names), other.joinTables.flatMap(\.names))
            && Self.spelledAlike(indexes.flatMap(\.names), other.indexes.flatMap(\.names))
    }

    /// Whether two lists of names are the same scalars, name by name.
    static func spelledAlike(_ a: [String], _ b: [String]) -> Bool {
        a.count == b.count && zip(a, b).allSatisfy { SQLName.identical($0, $1) }
    }
}

extension StoreLayout.Table {
    /// Every name the table holds, in order: its own, its entities', its columns' and theirs.
    var names: [String] { [name] + entities + columns.flatMap { [$0.name] + $0.content.names } }

    /// Whether `other` names everything with the same scalars.
    func isSpelled(as other: StoreLayout.Table) -> Bool { StoreLayout.spelledAlike(names, other.names) }
}

extension StoreLayout.Column.Content {
    /// The names of the entity, property and columns it holds.
    var names: [String] {
        switch self {
        case .primaryKey, .entityName: []
        case .attribute(let entity, let name, _): [entity, name]
        case .toOne(let entity, let relationship, let destination): [entity, relationship, destination]
        case .order(let owner, let relationship, let inverseColumn): [owner, relationship, inverseColumn]
        }
    }
}

extension StoreLayout.JoinTable {
    /// Its name and those of its entities and relationships.
    var names: [String] {
        [name, sourceEntity, sourceRelationship, destinationEntity, destinationRelationship ?? ""]
    }
}

extension StoreLayout.Index {
    /// Its name, its table's and its columns'.
    var names: [String] { [name, table] + keys.map(\.column) }
}
