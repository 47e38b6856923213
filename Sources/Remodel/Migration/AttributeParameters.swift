/// Binds the values of ``DestinationObject``s to the attribute parameters of a
/// prepared `INSERT` that takes several rows, object after object, without
/// clearing bindings:
///
/// - a value's attribute is found by name once, then guessed from the value's
///   position in the object (a policy writes its values in the same order
///   every time), the guess checked with one string comparison;
/// - an attribute the object leaves out gets its model default, bound again
///   only when the parameter holds something else (a binding stays until replaced).
struct AttributeParameters {
    private let names: NameIndex
    private let defaults: [SQLiteValue]
    /// The attribute the value at each position of the last object went to, or -1.
    private var guesses: [Int] = []
    /// The object (counted from 1) that last set each attribute.
    private var setBy: [Int]
    /// Whether each parameter (row by row, attribute by attribute) holds its attribute's default now.
    private var holdsDefault: [Bool]
    private var objects = 0

    /// - Parameters:
    ///   - names: The attributes, in the order of their parameters in a row.
    ///   - defaults: Each attribute's default.
    ///   - rows: How many rows the statement inserts.
    init(names: [String], defaults: [SQLiteValue], rows: Int) {
        self.names = NameIndex(names)
        self.defaults = defaults
        setBy = Array(repeating: 0, count: names.count)
        holdsDefault = Array(repeating: false, count: names.count * rows)
    }

    /// Binds the attribute parameters of one row of `statement` for `object`: its values (the last
    /// one of a repeated name counting), and the default for each attribute it leaves out.
    /// - Parameters:
    ///   - row: The row, from 0.
    ///   - firstParameter: The row's first attribute parameter (1-based).
    mutating func bind(_ object: DestinationObject, to statement: SQLiteStatement, row: Int, firstParameter: Int32) throws(RemodelError) {
        objects += 1
        let base = row * setBy.count
        let fields = object.fields
        for position in fields.indices {
            guard let attribute = attribute(named: fields[position].name, at: position) else { continue }
            setBy[attribute] = objects
            holdsDefault[base + attribute] = false
            try statement.bind(fields[position].value, at: firstParameter + Int32(attribute))
        }
        for attribute in setBy.indices where setBy[attribute] != objects && !holdsDefault[base + attribute] {
            try statement.bind(defaults[attribute], at: firstParameter + Int32(attribute))
            holdsDefault[base + attribute] = true
        }
    }

    /// The attribute a value named `name` at `position` of an object goes to; nil for a name
    /// that is not a stored attribute.
    private mutating func attribute(named name: String, at position: Int) -> Int? {
        if position < guesses.count {
            let guess = guesses[position]
            if guess >= 0 && names.names[guess] == name { return guess }
        } else {
            guesses.append(contentsOf: repeatElement(-1, count: position + 1 - guesses.count))
        }
        let found = names.position(of: name)
        guesses[position] = found ?? -1
        return found
    }
}
