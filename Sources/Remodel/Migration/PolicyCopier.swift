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
        let names = NameIndex(readable)
        let filter = try mapping.filter.map { expression throws(RemodelError) in
            try context.compile(expression, over: sourceEntity, into: nil)
        }
        let select = try connection.prepare(
            "SELECT s.\"_pk\"\(readable.map { ", s." + quoteIdentifier($0) }.joined()) FROM \(StepContext.sourceSchema).\(quoteIdentifier(sourceTable.name)) AS s WHERE s.\"_entity\" = ? AND s.\"_pk\" > ?\(filter.map { " AND (\($0.sql))" } ?? "") ORDER BY s.\"_pk\" LIMIT ?"
        )
        var writer = try PolicyWriter(
            context: context, policy: policy, mappingIndex: index, sourceTable: sourceTable.name,
            destinationTable: destinationTable, entity: destinationEntity, nextKey: nextKey)
        // One array for every row: once the policy has let go of a row's object, the next row
        // is read into the same storage (a policy that keeps an object keeps its own copy).
        var row = [SQLiteValue](repeating: .null, count: readable.count)
        var after = Int64.min
        var finished = false
        while !finished {
            var read = 0
            try connection.transaction { () throws(RemodelError) in
                try select.bind([.text(sourceEntity.name), .integer(after)] + (filter?.parameters ?? []) + [.integer(Int64(context.batchSize))])
                while try select.step() {
                    let pk = select.int64(at: 0)
                    for column in row.indices { row[column] = select.value(at: column + 1) }
                    after = pk
                    read += 1
                    try writer.write(SourceObject(primaryKey: pk, entity: sourceEntity.name, names: names, values: row))
                }
                try writer.flush()
            }
            finished = read < context.batchSize
            progress.completed += read
            try context.tracker.report(
                .instances, step: context.step, entity: destinationEntity.name, completed: progress.completed, total: progress.total)
            FaultPoint.afterBatch.reach()
        }
        nextKey = writer.nextKey
    }
}
