/// Phase 1 for an entity mapping with a Swift policy: streams the source
/// objects in batches and lets the policy make the destination objects.
///
/// Two threads share the work: a ``PolicyReader`` reads the source (through a
/// connection of its own) and runs the policy, one object after another in `_pk`
/// order, while this thread inserts what it made with a ``PolicyWriter``, a few
/// chunks behind at most, one transaction a batch, so memory does not grow with
/// the store.
///
/// Where the destination table keeps source keys, the first object made from
/// a source object takes its `_pk` (so relationships follow it without a key
/// table) and further objects get keys above every source key; otherwise all
/// get new keys, recorded in the key table for phase 2.
struct PolicyCopier {
    let context: StepContext
    let policy: EntityPolicy

    /// Copies the objects of one entity mapping; `checkedFilter` is its filter as planning checked it.
    func copy(
        _ mapping: EntityMapping, index: Int, sourceEntity: Entity, destinationEntity: Entity,
        checkedFilter: CheckedExpression?, nextKey: inout Int64, progress: inout InstanceCopier.PhaseProgress
    ) throws(RemodelError) {
        guard let sourceTable = context.sourceLayout.table(forEntity: sourceEntity.name),
            let destinationTable = context.destinationLayout.table(forEntity: destinationEntity.name)?.name
        else { return }
        let connection = context.connection
        // The source object's values by property name: its attributes and to-ones, each from its own column.
        let layout = context.sourceLayout
        let properties =
            layout.storedAttributes(of: sourceEntity).map(\.name)
            + context.source.relationships(of: sourceEntity).filter { !$0.isToMany }.map(\.name)
        let readable = properties.compactMap { property in
            layout.columnName(of: property, in: sourceEntity.name).map { (property, $0) }
        }
        let names = NameIndex(readable.map(\.0))
        let filter = try mapping.filter.map { expression throws(RemodelError) in
            try context.compile(expression, checked: checkedFilter, over: sourceEntity, into: nil)
        }
        let select = try connection.prepare(
            "SELECT s.\(StoreColumn.pk)\(readable.map { ", s." + quoteIdentifier($0.1) }.joined()) FROM \(TableReferences.sourceSchema).\(quoteIdentifier(sourceTable.name)) AS s WHERE s.\(StoreColumn.entity) = ? AND s.\(StoreColumn.pk) > ?\(filter.map { " AND (\($0.sql))" } ?? "") ORDER BY s.\(StoreColumn.pk) LIMIT ?"
        )
        var writer = try PolicyWriter(
            context: context, mappingIndex: index, sourceTable: sourceTable.name, destinationTable: destinationTable,
            entity: destinationEntity, nextKey: nextKey)
        let sourceSchema = TableReferences.sourceSchema
        guard let sourcePath = connection.filename(ofSchema: sourceSchema) else {
            throw RemodelError(
                .sqlite, "the source store of a migration policy must be a file", entity: sourceEntity.name)
        }
        let reader = PolicyReader(
            sourcePath: sourcePath, sourceSchema: sourceSchema, sql: select.sql, entity: sourceEntity.name,
            filterParameters: filter?.parameters ?? [], names: names, policy: policy, batchSize: context.batchSize,
            chunkSize: min(context.batchSize, 256))
        let channel = PolicyChannel(capacity: 8)
        reader.start(sending: channel)
        defer {
            channel.close()
            channel.waitForReader()
        }
        var finished = false
        while !finished {
            let read = try connection.transaction { () throws(RemodelError) -> Int in
                while true {
                    switch channel.receive() {
                    case .objects(let chunk):
                        for made in chunk { try writer.write(made) }
                        channel.recycle(chunk)
                    case .batchEnd(let read, let last):
                        try writer.flush()
                        finished = last
                        return read
                    case .failed(let error):
                        throw error
                    }
                }
            }
            progress.completed += read
            try context.tracker.report(
                .instances, pass: context.pass, entity: destinationEntity.name, completed: progress.completed,
                total: progress.total)
            FaultPoint.afterBatch.reach()
        }
        nextKey = writer.nextKey
    }
}
