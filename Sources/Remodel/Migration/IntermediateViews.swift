/// The result of a step that a composed pass does not write (see
/// ``StepComposition``), as temporary views over the step's source: one view
/// per table of the step's destination layout, with the same columns, computed
/// by the same SQL a written step would run. The next step reads them through
/// ``TableReferences`` as if they were a store.
enum IntermediateViews {
    /// Where a destination join table's rows come from: a source join table, read as it is.
    struct JoinSource: Equatable {
        var table: String
        /// The source join table's column that feeds the destination's `source` column.
        var sourceColumn: String
        /// The one that feeds its `destination` column.
        var destinationColumn: String
    }

    /// Creates the views of `context`'s destination version (its source read through `context.sourceTables`)
    /// and returns where they are. Parameters of the value SQL go to the connection's parameter table.
    static func create(
        for context: StepContext, number: Int, parameters: ViewParameters
    ) throws(RemodelError) -> TableReferences {
        let views = TableReferences(schema: "temp", prefix: "_remodel_v\(number)_")
        let copier = InstanceCopier(context: context)
        for table in context.destinationLayout.tables {
            var arms: [String] = []
            for resolved in context.resolvedMappings where !resolved.sourceEntity.isAbstract && resolved.destinationTable == table.name {
                let (sourceName, destinationName, sourceTable) = (resolved.sourceEntity.name, resolved.destinationEntity.name, resolved.sourceTable)
                let insert = try copier.valueColumns(resolved)
                var values: [String: String] = [:]
                var remaining = insert.parameters[...]
                for (column, sql) in zip(insert.columns, insert.values) {
                    values[column] = try parameters.inline(sql, &remaining)
                }
                let columns = table.columns.map { column -> String in
                    let value: String
                    switch column.content {
                    case .primaryKey: value = "s.\"_pk\""
                    case .entityName: value = quoteLiteral(destinationName)
                    default: value = values[column.name] ?? "NULL"
                    }
                    return "\(value) AS \(quoteIdentifier(column.name))"
                }
                arms.append(
                    "SELECT \(columns.joined(separator: ", ")) FROM \(context.sourceTables(sourceTable)) AS s WHERE s.\"_entity\" = \(quoteLiteral(sourceName))"
                )
            }
            if arms.isEmpty {
                let columns = table.columns.map { "NULL AS \(quoteIdentifier($0.name))" }.joined(separator: ", ")
                arms.append("SELECT \(columns) WHERE 0")
            }
            try context.connection.execute("CREATE TEMP VIEW \(views(table.name)) AS \(arms.joined(separator: " UNION ALL "))")
        }
        let sources = joinSources(in: context) ?? [:]
        for join in context.destinationLayout.joinTables {
            let select: String
            if let source = sources[join.name] {
                select =
                    "SELECT \(quoteIdentifier(source.sourceColumn)) AS \"source\", \(quoteIdentifier(source.destinationColumn)) AS \"destination\", NULL AS \"source_order\", NULL AS \"destination_order\" FROM \(context.sourceTables(source.table))"
            } else {
                select = "SELECT NULL AS \"source\", NULL AS \"destination\", NULL AS \"source_order\", NULL AS \"destination_order\" WHERE 0"
            }
            try context.connection.execute("CREATE TEMP VIEW \(views(join.name)) AS \(select)")
        }
        return views
    }

    /// The source join table a relationship write reads as it is, or nil when its links are not a plain copy.
    static func joinSource(of write: RelationshipBuilder.Write, in context: StepContext) -> JoinSource? {
        guard case .joinTable(_, let ownerIsSource, _) = write.storage,
            case .joinTable(let sourceTable, let sourceOwnerIsSource, _)? = context.sourceLayout.storage(
                of: write.sourceRelationship.name, in: write.sourceEntity.name)
        else { return nil }
        let owner = sourceOwnerIsSource ? "source" : "destination"
        let other = sourceOwnerIsSource ? "destination" : "source"
        return JoinSource(
            table: sourceTable, sourceColumn: ownerIsSource ? owner : other, destinationColumn: ownerIsSource ? other : owner)
    }

    /// The source of every destination join table that is written, or nil when one is fed
    /// inconsistently: from two sources, or from a relationship only some owners carry over,
    /// or to objects that arrive as another kind than the relationship's destination.
    static func joinSources(in context: StepContext) -> [String: JoinSource]? {
        var sources: [String: JoinSource] = [:]
        var owners: [String: Set<String>] = [:]
        for write in RelationshipBuilder(context: context).plannedWrites() {
            if case .column = write.storage { continue }
            guard !write.onlyPositions else { return nil }
            guard case .joinTable(let name, _, _) = write.storage, let source = joinSource(of: write, in: context),
                targetsKeepTheirKind(write.relationship, from: write.sourceRelationship, in: context)
            else { return nil }
            if let known = sources[name], known != source { return nil }
            sources[name] = source
            owners[name, default: []].insert(write.sourceEntity.name)
        }
        for (name, source) in sources {
            // Every concrete source entity whose objects hold links in that table must carry them over.
            let holders = context.source.entities.filter { entity in
                guard !entity.isAbstract else { return false }
                return context.source.relationships(of: entity).contains { relationship in
                    guard case .joinTable(let table, _, _)? = context.sourceLayout.storage(of: relationship.name, in: entity.name)
                    else { return false }
                    return table == source.table
                }
            }
            // A self-relationship's join table is held from both ends; only the owner side writes.
            guard let writtenOwners = owners[name], holders.allSatisfy({ writtenOwners.contains($0.name) || holdsOnlyAsInverse($0, source, context) })
            else { return nil }
        }
        return sources
    }

    /// Whether every source object a relationship may point to arrives as a kind of the destination relationship's target.
    static func targetsKeepTheirKind(_ relationship: Relationship, from sourceRelationship: Relationship, in context: StepContext) -> Bool {
        guard let sourceTarget = sourceRelationship.destinationEntity, let target = relationship.destinationEntity,
            let sourceTargetEntity = context.source.entity(named: sourceTarget),
            let targetEntity = context.destination.entity(named: target)
        else { return false }
        for kind in context.source.hierarchy(of: sourceTargetEntity) where !kind.isAbstract {
            guard let mapped = context.mapping.entities.first(where: { $0.source == kind.name })?.destination,
                let arrived = context.destination.entity(named: mapped),
                context.destination.entity(arrived, isKindOf: targetEntity.name)
            else { return false }
        }
        return true
    }

    /// Whether an entity holds a join table's links only through the side that is not written.
    private static func holdsOnlyAsInverse(_ entity: Entity, _ source: JoinSource, _ context: StepContext) -> Bool {
        context.source.relationships(of: entity).allSatisfy { relationship in
            guard case .joinTable(let table, let ownerIsSource, _)? = context.sourceLayout.storage(of: relationship.name, in: entity.name),
                table == source.table
            else { return true }
            return !ownerIsSource
        }
    }
}

/// The values bound as `?` in value SQL, kept in a temporary table so views
/// (which cannot have parameters) read them with their exact types.
final class ViewParameters {
    private let connection: SQLiteConnection
    private let insert: SQLiteStatement
    private var next: Int64 = 0

    static let table = "temp.\"_remodel_parameters\""

    init(connection: SQLiteConnection) throws(RemodelError) {
        self.connection = connection
        try connection.execute("CREATE TEMP TABLE IF NOT EXISTS \"_remodel_parameters\" (id INTEGER PRIMARY KEY, value)")
        insert = try connection.prepare("INSERT INTO \(Self.table) (id, value) VALUES (?, ?)")
    }

    /// `sql` with each `?` outside quotes replaced by a read of the next value of `values`.
    func inline(_ sql: String, _ values: inout ArraySlice<SQLiteValue>) throws(RemodelError) -> String {
        var result = ""
        var quote: Character?
        for character in sql {
            if let open = quote {
                if character == open { quote = nil }
                result.append(character)
            } else if character == "'" || character == "\"" {
                quote = character
                result.append(character)
            } else if character == "?", let value = values.popFirst() {
                next += 1
                try insert.bind([.integer(next), value])
                try insert.step()
                result += "(SELECT value FROM \(Self.table) WHERE id = \(next))"
            } else {
                result.append(character)
            }
        }
        return result
    }
}
