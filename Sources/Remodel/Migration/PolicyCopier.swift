/// Phase 1 for an entity mapping with a Swift policy: streams the source
/// objects in batches, lets the policy make the destination objects, and
/// records keys so phase 2 can rebuild relationships.
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
        let attributes = context.destination.attributes(of: destinationEntity).filter(\.isStored)
        let filter = try mapping.filter.map { expression throws(RemodelError) in
            try context.compile(expression, over: sourceEntity, into: nil)
        }
        let select = try connection.prepare(
            "SELECT s.\"_pk\"\(readable.map { ", s." + quoteIdentifier($0) }.joined()) FROM \(StepContext.sourceSchema).\(quoteIdentifier(sourceTable.name)) AS s WHERE s.\"_entity\" = ? AND s.\"_pk\" > ?\(filter.map { " AND (\($0.sql))" } ?? "") ORDER BY s.\"_pk\" LIMIT ?"
        )
        let columns = (["_pk", "_entity"] + attributes.map(\.name)).map(quoteIdentifier).joined(separator: ", ")
        let insert = try connection.prepare(
            "INSERT INTO main.\(quoteIdentifier(destinationTable)) (\(columns)) VALUES (\(Array(repeating: "?", count: attributes.count + 2).joined(separator: ", ")))"
        )
        let key = try connection.prepare(
            "INSERT OR IGNORE INTO \"_RemodelKeys\" (mapping, source_table, source_pk, destination_table, destination_pk) VALUES (?, ?, ?, ?, ?)"
        )
        let defaults = attributes.map { ModelDefaultValue.stored(for: $0) ?? .null }
        var after = Int64.min
        while true {
            var batch: [SourceObject] = []
            try select.bind([.text(sourceEntity.name), .integer(after)] + (filter?.parameters ?? []) + [.integer(Int64(context.batchSize))])
            while try select.step() {
                let row = select.row()
                guard case .integer(let pk) = row[0] else { continue }
                batch.append(SourceObject(primaryKey: pk, entity: sourceEntity.name, names: names, values: Array(row.dropFirst())))
            }
            guard let last = batch.last else { break }
            after = last.primaryKey
            try connection.transaction { () throws(RemodelError) in
                for object in batch {
                    let made: [DestinationObject]
                    do {
                        made = try policy.transform(object)
                    } catch {
                        throw RemodelError(
                            .invalidValue, "the migration policy for \(destinationEntity.name) failed on \(sourceEntity.name) _pk \(object.primaryKey): \(error)",
                            entity: sourceEntity.name, primaryKey: object.primaryKey, cause: error as? RemodelError)
                    }
                    for destination in made {
                        nextKey += 1
                        var values: [SQLiteValue] = [.integer(nextKey), .text(destinationEntity.name)]
                        for (position, attribute) in attributes.enumerated() {
                            values.append(destination.values[attribute.name] ?? defaults[position])
                        }
                        try insert.bind(values)
                        try insert.step()
                        try key.bind([
                            .integer(Int64(index)), .text(sourceTable.name), .integer(object.primaryKey), .text(destinationTable),
                            .integer(nextKey),
                        ])
                        try key.step()
                    }
                }
            }
            progress.completed += batch.count
            try context.tracker.report(
                .instances, step: context.step, entity: destinationEntity.name, completed: progress.completed, total: progress.total)
            FaultPoint.afterBatch.reach()
        }
    }
}
