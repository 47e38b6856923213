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
    /// The values in the order they were given. A name may appear more than once
    /// (a literal that repeats a key): the last one counts.
    private enum Fields: Sendable {
        /// A literal's values, kept as the literal made them.
        case literal(KeyValuePairs<String, SQLiteValue>)
        case list([(name: String, value: SQLiteValue)])
    }

    private var fields: Fields

    /// The values set so far, by attribute name.
    public var values: [String: SQLiteValue] {
        get {
            var values: [String: SQLiteValue] = [:]
            forEachField { _, name, value in values[name] = value }
            return values
        }
        set { fields = .list(newValue.map { (name: $0.key, value: $0.value) }) }
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
        fields = .list(values.map { (name: $0.key, value: $0.value) })
    }

    /// Creates an object with the values of a literal, kept as they are written
    /// without building a dictionary (a policy makes an object for every source
    /// object, so this is the fast way); when a name is repeated, its last value counts.
    ///
    /// For example:
    /// ```swift
    /// let person = DestinationObject(["fullName": .text("Ada Lovelace"), "age": .integer(36)])
    /// ```
    /// - Parameter values: Values by attribute name.
    public init(_ values: KeyValuePairs<String, SQLiteValue>) {
        fields = .literal(values)
    }

    /// Reads or sets one attribute's value; setting nil removes it, so the attribute gets its default.
    public subscript(_ name: String) -> SQLiteValue? {
        get {
            var found: SQLiteValue?
            forEachField { _, field, value in if field == name { found = value } }
            return found
        }
        set {
            var list: [(name: String, value: SQLiteValue)]
            switch fields {
            case .literal(let literal): list = literal.map { (name: $0.key, value: $0.value) }
            case .list(let existing): list = existing
            }
            fields = .list([])  // lets go of the list, so it changes in place
            if let newValue {
                if let position = list.lastIndex(where: { $0.name == name }) {
                    list[position].value = newValue
                } else {
                    list.append((name: name, value: newValue))
                }
            } else {
                list.removeAll { $0.name == name }
            }
            fields = .list(list)
        }
    }

    /// How many values there are (a repeated name counted each time).
    var fieldCount: Int {
        switch fields {
        case .literal(let literal): return literal.count
        case .list(let list): return list.count
        }
    }

    /// The name and value at `position`, in the order they were given.
    func field(at position: Int) -> (name: String, value: SQLiteValue) {
        switch fields {
        case .literal(let literal): return (literal[position].key, literal[position].value)
        case .list(let list): return list[position]
        }
    }

    /// Calls `body` with each value's position, name and value, in order.
    func forEachField<E: Error>(_ body: (Int, String, SQLiteValue) throws(E) -> Void) throws(E) {
        for position in 0..<fieldCount {
            let (name, value) = field(at: position)
            try body(position, name, value)
        }
    }
}
