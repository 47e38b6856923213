/// Binds the values of ``DestinationObject``s to the parameters of prepared
/// `INSERT`s whose rows are `_pk`, `_entity`, then the attributes, object after
/// object, without clearing bindings:
///
/// - a value's attribute is found by name once, then guessed from the value's
///   position in the object (a policy writes its values in the same order
///   every time), the guess checked with one string comparison;
/// - an attribute the object leaves out gets its model default, bound again
///   only when the parameter holds something else (a binding stays until
///   replaced), so each parameter's state is kept: by "slot", one a statement row.
struct AttributeParameters {
    private let names: NameIndex
    private let defaults: [SQLiteValue]
    /// The attribute the value at each position of the last object went to, or -1.
    private var guesses: [Int] = []
    /// The object (counted from 1) that last set each attribute.
    private var setBy: [Int]
    /// Whether each slot's parameter for each attribute holds the attribute's default now.
    private var holdsDefault: [Bool]
    private var objects = 0

    /// - Parameters:
    ///   - names: The attributes, in the order of their parameters in a row.
    ///   - defaults: Each attribute's default.
    ///   - slots: How many statement rows keep their bindings between objects.
    init(names: [String], defaults: [SQLiteValue], slots: Int) {
        self.names = NameIndex(names)
        self.defaults = defaults
        setBy = Array(repeating: 0, count: names.count)
        holdsDefault = Array(repeating: false, count: names.count * slots)
    }

    /// Parameters a row: `_pk`, `_entity` and the attributes.
    var width: Int { setBy.count + 2 }

    /// Binds `_entity` in every row of a statement of `rows` rows.
    func bindEntity(_ entity: String, to statement: SQLiteStatement, rows: Int) throws(RemodelError) {
        for row in 0..<rows { try statement.bind(.text(entity), at: Int32(row * width + 2)) }
    }

    /// Binds one row of `statement` for `object` with key `primaryKey`: its values (the last one of a
    /// repeated name counting), and the default for each attribute it leaves out.
    /// - Parameters:
    ///   - row: The row of the statement, from 0.
    ///   - slot: The slot that keeps that row's state.
    mutating func bind(
        _ object: DestinationObject, primaryKey: Int64, to statement: SQLiteStatement, row: Int, slot: Int
    ) throws(RemodelError) {
        objects += 1
        let first = Int32(row * width)
        try statement.bind(.integer(primaryKey), at: first + 1)
        let base = slot * setBy.count
        for position in 0..<object.fieldCount {
            let (name, value) = object.field(at: position)
            guard let attribute = attribute(named: name, at: position) else { continue }
            setBy[attribute] = objects
            holdsDefault[base + attribute] = false
            try statement.bind(value, at: first + 3 + Int32(attribute))
        }
        for attribute in setBy.indices where setBy[attribute] != objects && !holdsDefault[base + attribute] {
            try statement.bind(defaults[attribute], at: first + 3 + Int32(attribute))
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
