import Remodel

/// Compares a migrated store with a copy of the store it was made from, in
/// SQL (the copy attached read-only as `before`), against what the plan says:
/// objects of each head entity (as many as the plan carries; each one that
/// keeps its `_pk` still there), carried attribute values equal object by
/// object, and carried relationships with the same links (in the same order
/// when ordered throughout), leaving out links to objects that did not arrive.
struct StoreComparison {
    let lineage: MigrationLineage
    let connection: SQLiteConnection
    /// Caller's code that may add objects (hooks): counts are then not compared, only what arrived.
    let objectsMayBeAdded: Bool
    let intended: Set<String>
    /// Findings per check, at most.
    static let limit = 5

    func findings() throws(RemodelError) -> [MigrationCheckFailure] {
        let sourceLayout = lineage.sourceLayout
        let headLayout = lineage.headLayout
        var findings = try countFindings(sourceLayout, headLayout)
        for stream in lineage.streams where stream.keysKept {
            guard let entity = stream.headEntity, !intended.contains(entity), !intended.contains(stream.sourceEntity),
                let sourceTable = sourceLayout.table(forEntity: stream.sourceEntity)?.name,
                let headTable = headLayout.table(forEntity: entity)?.name
            else { continue }
            let tables = Tables(
                source: sourceTable, head: headTable, sourceEntity: stream.sourceEntity, headEntity: entity)
            if !stream.filtered && !stream.policy {
                findings += try arrivalFindings(tables)
            }
            for attribute in stream.attributes where !isIntended(tables, attribute.head, attribute.source) {
                findings += try valueFindings(tables, attribute)
            }
            for relationship in stream.relationships where !isIntended(tables, relationship.head, relationship.source) {
                findings += try linkFindings(tables, relationship, sourceLayout, headLayout)
            }
        }
        return findings
    }

    /// The two tables and entities one stream of objects is compared in.
    private struct Tables {
        var source: String
        var head: String
        var sourceEntity: String
        var headEntity: String
    }

    private func isIntended(_ tables: Tables, _ head: String, _ source: String) -> Bool {
        intended.contains("\(tables.headEntity).\(head)") || intended.contains("\(tables.sourceEntity).\(source)")
    }

    // MARK: - Objects

    private func count(_ schema: String, _ table: String, _ entity: String) throws(RemodelError) -> Int64 {
        try connection.scalar(
            "SELECT count(*) FROM \(schema).\(quoteIdentifier(table)) WHERE \(StoreColumn.entity) = ?", [.text(entity)]
        )?.integerValue ?? 0
    }

    private func countFindings(_ sourceLayout: StoreLayout, _ headLayout: StoreLayout) throws(RemodelError)
        -> [MigrationCheckFailure]
    {
        var findings: [MigrationCheckFailure] = []
        for entity in lineage.head.entities where !entity.isAbstract && !intended.contains(entity.name) {
            guard let table = headLayout.table(forEntity: entity.name)?.name else { continue }
            let arriving = lineage.streams.filter { $0.headEntity == entity.name }
            guard !arriving.contains(where: \.policy) else { continue }
            var expected: Int64 = 0
            var origins: [String] = []
            for stream in arriving {
                guard let sourceTable = sourceLayout.table(forEntity: stream.sourceEntity)?.name else { continue }
                let objects = try count("before", sourceTable, stream.sourceEntity)
                expected += objects
                origins.append("\(objects) \(stream.sourceEntity)")
            }
            let found = try count("main", table, entity.name)
            let filtered = arriving.contains(where: \.filtered)
            let from =
                origins.isEmpty
                ? "the plan makes it empty"
                : "the plan carries \(origins.joined(separator: " + ")) of \(lineage.source.name)"
            if found > expected && !objectsMayBeAdded {
                findings.append(
                    MigrationCheckFailure(
                        entity: entity.name,
                        message:
                            "has \(found) objects, and \(from)\(filtered ? " (at most \(expected), as a filter may leave some out)" : "")"
                    ))
            } else if found < expected && !filtered {
                findings.append(
                    MigrationCheckFailure(entity: entity.name, message: "has \(found) objects, and \(from)"))
            }
        }
        return findings
    }

    private func arrivalFindings(_ tables: Tables) throws(RemodelError) -> [MigrationCheckFailure] {
        let rows = try connection.rows(
            "SELECT s.\(StoreColumn.pk) FROM before.\(quoteIdentifier(tables.source)) AS s WHERE s.\(StoreColumn.entity) = ? AND NOT EXISTS "
                + "(SELECT 1 FROM main.\(quoteIdentifier(tables.head)) AS h WHERE h.\(StoreColumn.pk) = s.\(StoreColumn.pk) AND h.\(StoreColumn.entity) = ?) "
                + "ORDER BY s.\(StoreColumn.pk) LIMIT \(Self.limit)",
            [.text(tables.sourceEntity), .text(tables.headEntity)])
        return rows.map { row in
            MigrationCheckFailure(
                entity: tables.headEntity, primaryKey: row[0].integerValue,
                message:
                    "the \(tables.sourceEntity) object with this _pk did not arrive, and the plan carries every one")
        }
    }

    // MARK: - Values

    private func valueFindings(_ tables: Tables, _ attribute: MigrationLineage.CarriedAttribute) throws(RemodelError)
        -> [MigrationCheckFailure]
    {
        // Columns as the layouts name them (a name SQLite cannot tell from another's gets a suffix).
        let sourceColumn =
            lineage.sourceLayout.columnName(of: attribute.source, in: tables.sourceEntity) ?? attribute.source
        let headColumn = lineage.headLayout.columnName(of: attribute.head, in: tables.headEntity) ?? attribute.head
        let source = "s.\(quoteIdentifier(sourceColumn))"
        let expected = attribute.nilBecomes == nil ? source : "coalesce(\(source), ?)"
        let rows = try connection.rows(
            "SELECT s.\(StoreColumn.pk), \(source), h.\(quoteIdentifier(headColumn)) FROM before.\(quoteIdentifier(tables.source)) AS s "
                + "JOIN main.\(quoteIdentifier(tables.head)) AS h ON h.\(StoreColumn.pk) = s.\(StoreColumn.pk) WHERE s.\(StoreColumn.entity) = ? AND h.\(StoreColumn.entity) = ? "
                + "AND h.\(quoteIdentifier(headColumn)) IS NOT \(expected) ORDER BY s.\(StoreColumn.pk) LIMIT \(Self.limit)",
            [.text(tables.sourceEntity), .text(tables.headEntity)] + (attribute.nilBecomes.map { [$0] } ?? []))
        let origin =
            attribute.source == attribute.head && tables.sourceEntity == tables.headEntity
            ? "" : " (\(tables.sourceEntity).\(attribute.source) of \(lineage.source.name))"
        return rows.map { row in
            MigrationCheckFailure(
                entity: tables.headEntity, property: attribute.head, primaryKey: row[0].integerValue,
                message: "was \(row[1])\(origin), is \(row[2]); the plan carries it unchanged")
        }
    }

    // MARK: - Links

    private func linkFindings(
        _ tables: Tables, _ relationship: MigrationLineage.CarriedRelationship, _ sourceLayout: StoreLayout,
        _ headLayout: StoreLayout
    ) throws(RemodelError) -> [MigrationCheckFailure] {
        guard let sourceEntity = lineage.source.entity(named: tables.sourceEntity),
            let headEntity = lineage.head.entity(named: tables.headEntity),
            let sourceRelationship = lineage.source.relationship(named: relationship.source, in: sourceEntity),
            let headRelationship = lineage.head.relationship(named: relationship.head, in: headEntity),
            let sourceTarget = sourceRelationship.destinationEntity.flatMap({ sourceLayout.table(forEntity: $0)?.name }
            ),
            let headTarget = headRelationship.destinationEntity.flatMap({ headLayout.table(forEntity: $0)?.name }),
            lineage.origin(ofHeadTable: headTarget) == sourceTarget,
            let before = LinkQuery(
                layout: sourceLayout, schema: "before", entity: tables.sourceEntity, relationship: sourceRelationship),
            let after = LinkQuery(
                layout: headLayout, schema: "main", entity: tables.headEntity, relationship: headRelationship)
        else { return [] }
        let kinds = headLayout.kinds(of: headRelationship.destinationEntity ?? "")
        let order = relationship.ordered ? "l.position, l.target" : "l.target"
        let expected = try connection.prepare(
            "SELECT l.owner, l.target FROM (\(before.sql)) AS l WHERE EXISTS (SELECT 1 FROM main.\(quoteIdentifier(tables.head)) AS h "
                + "WHERE h.\(StoreColumn.pk) = l.owner AND h.\(StoreColumn.entity) = ?) AND EXISTS (SELECT 1 FROM main.\(quoteIdentifier(headTarget)) AS t "
                + "WHERE t.\(StoreColumn.pk) = l.target AND t.\(StoreColumn.entity) IN (\(placeholders(kinds.count)))) ORDER BY l.owner, \(order)"
        )
        try expected.bind(before.parameters + [.text(tables.headEntity)] + kinds.map(SQLiteValue.text))
        let actual = try connection.prepare(
            "SELECT l.owner, l.target FROM (\(after.sql)) AS l WHERE EXISTS (SELECT 1 FROM before.\(quoteIdentifier(tables.source)) AS s "
                + "WHERE s.\(StoreColumn.pk) = l.owner AND s.\(StoreColumn.entity) = ?) ORDER BY l.owner, \(order)")
        try actual.bind(after.parameters + [.text(tables.sourceEntity)])
        var findings: [MigrationCheckFailure] = []
        var left = try LinkGroups(expected)
        var right = try LinkGroups(actual)
        while findings.count < Self.limit, let owner = [left.owner, right.owner].compactMap({ $0 }).min() {
            let had = left.owner == owner ? try left.take() : []
            let has = right.owner == owner ? try right.take() : []
            guard had != has else { continue }
            let origin =
                relationship.source == relationship.head && tables.sourceEntity == tables.headEntity
                ? "" : " (\(tables.sourceEntity).\(relationship.source) of \(lineage.source.name))"
            findings.append(
                MigrationCheckFailure(
                    entity: tables.headEntity, property: relationship.head, primaryKey: owner,
                    message:
                        "linked \(had)\(origin), links \(has); the plan carries the links\(relationship.ordered ? " in their order" : "") (those to objects that arrived)"
                ))
        }
        return findings
    }
}

/// Reads a statement's `(owner, target)` rows, sorted by owner, one owner's targets at a time.
private struct LinkGroups {
    let statement: SQLiteStatement
    private(set) var owner: Int64?
    private var target: Int64 = 0

    init(_ statement: SQLiteStatement) throws(RemodelError) {
        self.statement = statement
        try advance()
    }

    private mutating func advance() throws(RemodelError) {
        if try statement.step() {
            owner = statement.int64(at: 0)
            target = statement.int64(at: 1)
        } else {
            owner = nil
        }
    }

    /// The targets of the current owner, moving on to the next owner.
    mutating func take() throws(RemodelError) -> [Int64] {
        guard let current = owner else { return [] }
        var targets: [Int64] = []
        while owner == current {
            targets.append(target)
            try advance()
        }
        return targets
    }
}
