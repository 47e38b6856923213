/// Phase 1 for an entity mapping with a Swift policy: streams the source
/// objects in batches and lets the policy make the destination objects.
///
/// Where the destination table keeps source keys, the first object made from
/// a source object takes its `_pk` (so relationships follow it without a key
/// table) and further objects get keys above every source key; otherwise all
/// get new keys, recorded in the key table for phase 2. Objects are written as
/// they are read, one transaction a batch, so memory does not grow with the store.
struct PolicyCopier {
    let context: StepContext
    let policy: EntityPolicy

    func copy(
        _ mapping: EntityMapping, index: Int, sourceEntity: Entity, destinationEntity: Entity, nextKey: inout Int64,
        progress: inout InstanceCopier.PhaseProgress
    ) throws(RemodelError) {
        guard let sourceTable = context.sourceLayout.table(forEntity: sourceEntity.name),
            let destinationTable = context.destinationLayout.table(forEntity: destinationEntity.name)?.name
        else { return }
        let connection = context.connection
        let readable = sourceTable.columns.filter {
            switch $0.content {
            case .attribute, .toOne: return true
            default: return false
            }
        }.map(\.name)
        let names = ValueNames(readable)
        let filter = try mapping.filter.map { expression throws(RemodelError) in
            try context.compile(expression, over: sourceEntity, into: nil)
        }
        let select = try connection.prepare(
            "SELECT s.\"_pk\"\(readable.map { ", s." + quoteIdentifier($0) }.joined()) FROM \(StepContext.sourceSchema).\(quoteIdentifier(sourceTable.name)) AS s WHERE s.\"_entity\" = ? AND s.\"_pk\" > ?\(filter.map { " AND (\($0.sql))" } ?? "") ORDER BY s.\"_pk\" LIMIT ?"
        )
        var writer = try Writer(
            context: context, policy: policy, mappingIndex: index, sourceTable: sourceTable.name,
            destinationTable: destinationTable, entity: destinationEntity, nextKey: nextKey)
        var after = Int64.min
        var finished = false
        while !finished {
            var read = 0
            try connection.transaction { () throws(RemodelError) in
                try select.bind([.text(sourceEntity.name), .integer(after)] + (filter?.parameters ?? []) + [.integer(Int64(context.batchSize))])
                while try select.step() {
                    guard case .integer(let pk) = select.value(at: 0) else { continue }
                    let values = (1..<select.columnCount).map { select.value(at: $0) }
                    after = pk
                    read += 1
                    try writer.write(SourceObject(primaryKey: pk, entity: sourceEntity.name, names: names, values: values))
                }
            }
            finished = read < context.batchSize
            progress.completed += read
            try context.tracker.report(
                .instances, step: context.step, entity: destinationEntity.name, completed: progress.completed, total: progress.total)
            FaultPoint.afterBatch.reach()
        }
        nextKey = writer.nextKey
    }

    /// Runs the policy on one source object and inserts what it makes.
    private struct Writer {
        let policy: EntityPolicy
        let mappingIndex: Int
        let sourceTable: String
        let destinationTable: String
        let entity: Entity
        let attributes: [Attribute]
        let defaults: [SQLiteValue]
        let insert: SQLiteStatement
        /// Records keys for phase 2 when the table does not keep source keys.
        let key: SQLiteStatement?
        var nextKey: Int64

        init(
            context: StepContext, policy: EntityPolicy, mappingIndex: Int, sourceTable: String, destinationTable: String,
            entity: Entity, nextKey: Int64
        ) throws(RemodelError) {
            self.policy = policy
            self.mappingIndex = mappingIndex
            self.sourceTable = sourceTable
            self.destinationTable = destinationTable
            self.entity = entity
            self.nextKey = nextKey
            attributes = context.destination.attributes(of: entity).filter(\.isStored)
            defaults = attributes.map { ModelDefaultValue.stored(for: $0) ?? .null }
            let columns = (["_pk", "_entity"] + attributes.map(\.name)).map(quoteIdentifier).joined(separator: ", ")
            insert = try context.connection.prepare(
                "INSERT INTO main.\(quoteIdentifier(destinationTable)) (\(columns)) VALUES (\(Array(repeating: "?", count: attributes.count + 2).joined(separator: ", ")))"
            )
            key = context.keys.mode(ofDestinationTable: destinationTable) == .remapped
                ? try context.connection.prepare(
                    "INSERT OR IGNORE INTO \"_RemodelKeys\" (mapping, source_table, source_pk, destination_table, destination_pk) VALUES (?, ?, ?, ?, ?)"
                ) : nil
        }

        mutating func write(_ object: SourceObject) throws(RemodelError) {
            let made: [DestinationObject]
            do {
                made = try policy.transform(object)
            } catch {
                throw RemodelError(
                    .invalidValue,
                    "the migration policy for \(entity.name) failed on \(object.entity) _pk \(object.primaryKey): \(error)",
                    entity: object.entity, primaryKey: object.primaryKey, cause: error as? RemodelError)
            }
            for (position, destination) in made.enumerated() {
                let primaryKey: Int64
                if key == nil && position == 0 {
                    primaryKey = object.primaryKey
                } else {
                    nextKey += 1
                    primaryKey = nextKey
                }
                var values: [SQLiteValue] = [.integer(primaryKey), .text(entity.name)]
                values.reserveCapacity(attributes.count + 2)
                for (index, attribute) in attributes.enumerated() {
                    values.append(destination.values[attribute.name] ?? defaults[index])
                }
                try insert.bind(values)
                try insert.step()
                if let key {
                    try key.bind([
                        .integer(Int64(mappingIndex)), .text(sourceTable), .integer(object.primaryKey), .text(destinationTable),
                        .integer(primaryKey),
                    ])
                    try key.step()
                }
            }
        }
    }
}
