extension NilValueCount {
    /// The values a step's expressions would turn into nil, counted on its source store before anything is
    /// written: each watched expression (as phase 1 watches it) evaluated on the source objects its mapping
    /// carries. A lossless downgrade refuses what this finds; a plan shown before migrating (`--dry-run`,
    /// `status`) shows it for its first step. Entity policies (Swift code) are counted only when they run.
    static func counted(
        _ plan: StepPlan, on connection: SQLiteConnection, tables: TableReferences, environment: ExpressionEnvironment
    ) throws(RemodelError) -> [DataLoss] {
        let compiler = ExpressionSQLCompiler(environment: environment)
        var registered = false
        var losses: [DataLoss] = []
        for resolved in plan.resolvedMappings
        where !resolved.sourceEntity.isAbstract && plan.changes.isRebuilt(resolved.destinationTable)
            && !plan.policies.contains(resolved.destinationEntity.name)
        {
            let source = SourceSQLContext(
                layout: plan.sourceLayout, entity: resolved.sourceEntity, tables: tables, alias: "s")
            let filter = resolved.checkedFilter.map { compiler.compile($0, context: source) }
            for attributeMapping in resolved.mapping.attributes {
                guard attributeMapping.value != nil,
                    resolved.copiedColumn(of: attributeMapping, layout: plan.sourceLayout) == nil,
                    let checked = resolved.checkedValues[attributeMapping.destination], checked.canTurnValuesIntoNil,
                    plan.step.destination.attribute(
                        named: attributeMapping.destination, in: resolved.destinationEntity)?.isStored == true
                else { continue }
                if !registered {
                    try ExpressionFunctions.register(on: connection)
                    registered = true
                }
                let expression = compiler.compile(checked, context: source)
                let sql =
                    "SELECT count(*), min(s.\(StoreColumn.pk)) FROM \(tables(resolved.sourceTable)) AS s WHERE s.\(StoreColumn.entity) = ?\(filter.map { " AND (\($0.sql))" } ?? "") AND (\(expression.sql)) IS NULL AND \(present(checked.inputs, source: source))"
                let parameters =
                    [.text(resolved.sourceEntity.name)] + (filter?.parameters ?? []) + expression.parameters
                guard let row = try connection.rows(sql, parameters).first, let count = row[0].integerValue, count > 0
                else { continue }
                let example = try row[1].integerValue.map { key throws(RemodelError) in
                    DataLoss.Example(
                        primaryKey: key,
                        values: try exampleValues(
                            of: checked.inputs, at: key, source: source, table: tables(resolved.sourceTable),
                            on: connection))
                }
                var loss = DataLoss(
                    sourceVersion: plan.step.source.name, destinationVersion: plan.step.destination.name,
                    entity: resolved.destinationEntity.name, property: attributeMapping.destination, count: Int(count))
                loss.cause = .becameNil(expression: attributeMapping.value?.text, example: example)
                losses.append(loss)
            }
        }
        return DataLoss.merged(losses)
    }
}
