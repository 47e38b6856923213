/// A destination object a policy creates: attribute values by name, in the
/// store's encoding. Attributes it leaves out get the model's default, or nil;
/// names that are not stored attributes of the destination entity are ignored.
///
/// For example:
/// ```swift
/// var person = DestinationObject(["fullName": .text("Ada Lovelace")])
/// person["age"] = .integer(36)
/// ```
public struct DestinationObject: Sendable {
    /// One value and its attribute's name.
    struct Field: Sendable {
        var name: String
        var value: SQLiteValue
    }

    /// The values in the order they were given. A name may appear more than once
    /// (a literal that repeats a key): the last one counts.
    private(set) var fields: [Field]

    /// The values set so far, by attribute name.
    public var values: [String: SQLiteValue] {
        get { Dictionary(fields.map { ($0.name, $0.value) }, uniquingKeysWith: { _, last in last }) }
        set { fields = newValue.map { Field(name: $0.key, value: $0.value) } }
    }

    /// Creates an object with the values of a dictionary.
    ///
    /// For example:
    /// ```swift
    /// let values: [String: SQLiteValue] = ["fullName": .text("Ada Lovelace")]
    /// let person = DestinationObject(values)
    /// ```
    /// - Parameter values: Values by attribute name.
    @_disfavoredOverload
    public init(_ values: [String: SQLiteValue] = [:]) {
        fields = values.map { Field(name: $0.key, value: $0.value) }
    }

    /// Creates an object with the values of a literal, kept in order without
    /// building a dictionary (a policy makes one object per source object, so
    /// this is the fast way); when a name is repeated, its last value counts.
    ///
    /// For example:
    /// ```swift
    /// let person = DestinationObject(["fullName": .text("Ada Lovelace"), "age": .integer(36)])
    /// ```
    /// - Parameter values: Values by attribute name.
    public init(_ values: KeyValuePairs<String, SQLiteValue>) {
        var fields: [Field] = []
        fields.reserveCapacity(values.count)
        for (name, value) in values { fields.append(Field(name: name, value: value)) }
        self.fields = fields
    }

    /// Reads or sets one attribute's value; setting nil removes it, so the attribute gets its default.
    public subscript(_ name: String) -> SQLiteValue? {
        get { fields.last { $0.name == name }?.value }
        set {
            if let newValue {
                if let position = fields.lastIndex(where: { $0.name == name }) {
                    fields[position].value = newValue
                } else {
                    fields.append(Field(name: name, value: newValue))
                }
            } else {
                fields.removeAll { $0.name == name }
            }
        }
    }
}
