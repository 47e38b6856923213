/// The writing half of a policy's copy, on the migration's thread: gives the
/// objects a policy made their keys and inserts them, 64 rows a statement
/// (`INSERT … VALUES (…), (…), …`), each value bound straight to its parameter
/// and `_entity` once, so an object costs no array, dictionary or statement run
/// of its own. Objects wait until 64 are ready or ``flush()`` is called (before
/// a batch commits); the rest of a batch goes in one row at a time.
struct PolicyWriter {
    private let entityName: String
    private var attributes: AttributeParameters
    /// Inserts `rows` objects; its rows keep their state in slots `0..<rows`.
    private let full: SQLiteStatement
    private let rows: Int
    /// Inserts one object; its row keeps its state in slot `rows`.
    private let single: SQLiteStatement
    /// Objects waiting for a full statement, with their keys.
    private var pending: [(primaryKey: Int64, object: DestinationObject)] = []
    /// Records keys for phase 2 when the table does not keep source keys.
    private let key: SQLiteStatement?
    /// Whether the objects are those of the table that stays in a table others are merged into (``KeyPlan``).
    private let keepsSourceKeys: Bool
    /// The last key handed to an object that does not take its source object's key.
    private(set) var nextKey: Int64

    init(
        context: StepContext, mappingIndex: Int, sourceTable: String, destinationTable: String, entity: Entity,
        nextKey: Int64
    ) throws(RemodelError) {
        self.entityName = entity.name
        self.nextKey = nextKey
        keepsSourceKeys = context.keys.keepingMappings.contains(mappingIndex)
        let stored = context.destination.attributes(of: entity).filter {
            $0.isStored && !context.destinationLayout.storeComputes($0.name, in: entity.name)
        }
        let width = stored.count + 2
        let rows = max(1, min(64, context.connection.parameterLimit / width))
        self.rows = rows
        attributes = AttributeParameters(
            names: stored.map(\.name), defaults: stored.map { ModelDefaultValue.stored(for: $0) ?? .null },
            slots: rows + 1)
        let layout = context.destinationLayout
        let columns =
            ([StoreColumn.pk, StoreColumn.entity]
            + stored.map { layout.columnName(of: $0.name, in: entity.name) ?? $0.name })
            .map(quoteIdentifier).joined(separator: ", ")
        let row = "(" + placeholders(width) + ")"
        let insert = "INSERT INTO main.\(quoteIdentifier(destinationTable)) (\(columns)) VALUES "
        full = try context.connection.prepare(insert + Array(repeating: row, count: rows).joined(separator: ", "))
        single = try context.connection.prepare(insert + row)
        try attributes.bindEntity(entity.name, to: full, rows: rows)
        try attributes.bindEntity(entity.name, to: single, rows: 1)
        pending.reserveCapacity(rows)
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

    /// Takes the objects made from one source object: the first takes the source key when the
    /// table keeps keys (or stays, in a table that others are merged into), every other one the next free key.
    mutating func write(_ made: MadeObjects) throws(RemodelError) {
        for position in made.objects.indices {
            let primaryKey: Int64
            if (key == nil || keepsSourceKeys) && position == 0 {
                primaryKey = made.sourceKey
            } else {
                nextKey += 1
                primaryKey = nextKey
            }
            pending.append((primaryKey, made.objects[position]))
            if pending.count == rows { try insertFull() }
            if let key {
                try key.bind(.integer(made.sourceKey), at: 3)
                try key.bind(.integer(primaryKey), at: 5)
                try key.step()
                key.reset()
            }
        }
    }

    /// Inserts the objects still waiting.
    mutating func flush() throws(RemodelError) {
        for waiting in pending {
            try attributes.bind(waiting.object, primaryKey: waiting.primaryKey, to: single, row: 0, slot: rows)
            try run(single)
        }
        pending.removeAll(keepingCapacity: true)
    }

    /// Inserts a full statement's worth of waiting objects.
    private mutating func insertFull() throws(RemodelError) {
        for row in pending.indices {
            try attributes.bind(pending[row].object, primaryKey: pending[row].primaryKey, to: full, row: row, slot: row)
        }
        try run(full)
        pending.removeAll(keepingCapacity: true)
    }

    private func run(_ statement: SQLiteStatement) throws(RemodelError) {
        do {
            try statement.step()
        } catch {
            var error = error
            error.entity = entityName
            throw error
        }
        statement.reset()
    }
}
