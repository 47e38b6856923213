/// Runs a policy on one source object at a time and inserts the objects it
/// makes, many rows a statement: each value is bound straight to its
/// parameter and `_entity` once, so an object costs no array, dictionary or
/// statement run of its own. Objects wait in the statement's parameters until
/// it is full or ``flush()`` is called (before a batch commits).
struct PolicyWriter {
    private let policy: EntityPolicy
    private let entityName: String
    private var attributes: AttributeParameters
    /// Inserts ``rows`` objects: `INSERT … SELECT * FROM (VALUES (…), …) WHERE column1 IS NOT NULL`,
    /// so rows whose `_pk` is bound to NULL are left out when it runs less than full.
    private let insert: SQLiteStatement
    private let rows: Int
    /// Parameters a row: `_pk`, `_entity`, then the attributes.
    private let width: Int32
    /// Rows bound and not yet inserted.
    private var pending = 0
    /// Records keys for phase 2 when the table does not keep source keys.
    private let key: SQLiteStatement?
    /// The last key handed to an object that does not take its source object's key.
    private(set) var nextKey: Int64

    init(
        context: StepContext, policy: EntityPolicy, mappingIndex: Int, sourceTable: String, destinationTable: String,
        entity: Entity, nextKey: Int64
    ) throws(RemodelError) {
        self.policy = policy
        self.entityName = entity.name
        self.nextKey = nextKey
        let stored = context.destination.attributes(of: entity).filter(\.isStored)
        width = Int32(stored.count + 2)
        rows = max(1, min(64, context.connection.parameterLimit / Int(width)))
        attributes = AttributeParameters(
            names: stored.map(\.name), defaults: stored.map { ModelDefaultValue.stored(for: $0) ?? .null }, rows: rows)
        let columns = (["_pk", "_entity"] + stored.map(\.name)).map(quoteIdentifier).joined(separator: ", ")
        let row = "(" + Array(repeating: "?", count: Int(width)).joined(separator: ", ") + ")"
        insert = try context.connection.prepare(
            "INSERT INTO main.\(quoteIdentifier(destinationTable)) (\(columns)) SELECT * FROM (VALUES \(Array(repeating: row, count: rows).joined(separator: ", "))) WHERE column1 IS NOT NULL"
        )
        for row in 0..<Int32(rows) { try insert.bind(.text(entity.name), at: row * width + 2) }
        if context.keys.mode(ofDestinationTable: destinationTable) == .remapped {
            let key = try context.connection.prepare(
                "INSERT OR IGNORE INTO \"_RemodelKeys\" (mapping, source_table, source_pk, destination_table, destination_pk) VALUES (?, ?, ?, ?, ?)"
            )
            try key.bind(.integer(Int64(mappingIndex)), at: 1)
            try key.bind(.text(sourceTable), at: 2)
            try key.bind(.text(destinationTable), at: 4)
            self.key = key
        } else {
            key = nil
        }
    }

    /// Runs the policy on `object` and binds what it makes: the first object takes the source
    /// key when the table keeps keys, every other one the next free key.
    mutating func write(_ object: SourceObject) throws(RemodelError) {
        let made: [DestinationObject]
        do {
            made = try policy.transform(object)
        } catch {
            throw RemodelError(
                .invalidValue,
                "the migration policy for \(entityName) failed on \(object.entity) _pk \(object.primaryKey): \(error)",
                entity: object.entity, primaryKey: object.primaryKey, cause: error as? RemodelError)
        }
        for position in made.indices {
            let primaryKey: Int64
            if key == nil && position == 0 {
                primaryKey = object.primaryKey
            } else {
                nextKey += 1
                primaryKey = nextKey
            }
            let first = Int32(pending) * width
            try insert.bind(.integer(primaryKey), at: first + 1)
            try attributes.bind(made[position], to: insert, row: pending, firstParameter: first + 3)
            pending += 1
            if pending == rows { try flush() }
            if let key {
                try key.bind(.integer(object.primaryKey), at: 3)
                try key.bind(.integer(primaryKey), at: 5)
                try key.step()
                key.reset()
            }
        }
    }

    /// Inserts the objects bound so far.
    mutating func flush() throws(RemodelError) {
        guard pending > 0 else { return }
        for row in Int32(pending)..<Int32(rows) { try insert.bind(.null, at: row * width + 1) }
        pending = 0
        do {
            try insert.step()
        } catch {
            var error = error
            error.entity = entityName
            throw error
        }
        insert.reset()
    }
}
