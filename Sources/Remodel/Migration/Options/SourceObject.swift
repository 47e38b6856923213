/// A source object as a ``EntityPolicy`` sees it: its `_pk` and every stored
/// attribute and to-one relationship, by name, in the store's encoding
/// (see docs/STORE-LAYOUT.md: Date as seconds since 1970, UUID as text, …).
///
/// For example:
/// ```swift
/// let policy = EntityPolicy(destination: "Person") { person in
///     guard case .text(let first) = person["firstName"] else { return [] }
///     return [DestinationObject(["fullName": .text(first), "age": person["age"]])]
/// }
/// ```
public struct SourceObject: Sendable {
    /// The object's `_pk` in the source store.
    public let primaryKey: Int64
    /// The object's entity in the source version.
    public let entity: String
    let names: NameIndex
    let values: [SQLiteValue]

    /// The stored value of an attribute (or the `_pk` a to-one relationship points to); `.null` when unknown.
    public subscript(_ name: String) -> SQLiteValue {
        guard let position = names.position(of: name) else { return .null }
        return values[position]
    }
}
