/// Reconciles relationship values given on either side (or both) in SQL:
/// every value is a row of the temporary links table `(rel, owner, target,
/// position)`, plus one row with a `NULL` target marking that the object gave
/// the relationship at all. Both sides must agree; then the pairs are written
/// to columns, order columns and join tables with one statement each.
extension JSONImporter {
    private var links: String { "temp.\(quoteIdentifier(Self.linksTable))" }
    private var pairs: String { "temp.\(quoteIdentifier(Self.pairsTable))" }

    /// Checks and stores every relationship value loaded.
    func reconcileRelationships() throws(RemodelError) {
        try connection.execute(
            "CREATE TEMP TABLE \(quoteIdentifier(Self.pairsTable)) (a INTEGER NOT NULL, b INTEGER NOT NULL, PRIMARY KEY (a, b)) WITHOUT ROWID"
        )
        for (key, id) in relationshipIDs.sorted(by: { $0.value < $1.value }) {
            guard let entity = layout.version.entity(named: key.entity),
                let relationship = entity.relationship(named: key.name)
            else { continue }
            try checkTargets(id: id, entity: entity, relationship: relationship)
        }
        var orderUnits: [(Entity, Relationship)] = []
        for entity in layout.version.entities {
            for relationship in entity.relationships where layout.isStored(relationship) {
                guard let storage = layout.storage(of: relationship.name, in: entity.name) else { continue }
                let forward = id(relationship, declaredBy: entity)
                let inverse = layout.storedInverse(of: relationship, in: entity.name)
                let inverseID = inverse.flatMap { inverse in
                    inverseOwner(of: relationship).flatMap { id(inverse, declaredBy: $0) }
                }
                guard forward != nil || inverseID != nil else { continue }
                switch storage {
                case .column(let table, let column):
                    try checkAgreement(forward, inverseID, entity: entity, relationship: relationship, inverse: inverse)
                    try fillPairs(forward, inverseID)
                    try storeColumn(table: table, column: column, entity: entity, relationship: relationship)
                case .inverseColumn:
                    if relationship.isOrdered { orderUnits.append((entity, relationship)) }
                case .joinTable(let name, let ownerIsSource, _):
                    guard ownerIsSource, let join = layout.joinTable(named: name) else { continue }
                    try checkAgreement(forward, inverseID, entity: entity, relationship: relationship, inverse: inverse)
                    try fillPairs(forward, inverseID)
                    try storeJoin(join, forward: forward, inverse: inverseID)
                }
            }
        }
        for (entity, relationship) in orderUnits {
            try storeOrder(entity: entity, relationship: relationship)
        }
    }

    private func id(_ relationship: Relationship, declaredBy entity: Entity) -> Int64? {
        relationshipIDs[
            RelationshipID(
                entity: layout.version.declaringEntity(of: relationship, in: entity).name, name: relationship.name)]
    }

    private func inverseOwner(of relationship: Relationship) -> Entity? {
        relationship.destinationEntity.flatMap(layout.version.entity(named:))
    }

    /// `Person _pk 3`, naming the object's concrete entity.
    func describe(_ primaryKey: Int64, inTableOf entityName: String) throws(RemodelError) -> String {
        "\(try concreteEntity(of: primaryKey, inTableOf: entityName)) _pk \(primaryKey)"
    }

    /// The concrete entity of an object, found in the table of `entityName`'s hierarchy.
    func concreteEntity(of primaryKey: Int64, inTableOf entityName: String) throws(RemodelError) -> String {
        let table = layout.table(forEntity: entityName)?.name ?? entityName
        let sql = "SELECT \(StoreColumn.entity) FROM \(quoteIdentifier(table)) WHERE \(StoreColumn.pk) = ?"
        if case .text(let name) = try connection.scalar(sql, [.integer(primaryKey)]) { return name }
        return entityName
    }

    func relationshipFailure(
        _ subject: String, entity: String, _ relationship: String, primaryKey: Int64, _ message: String
    ) -> RemodelError {
        RemodelError(
            .invalidValue, "\(subject) relationship \"\(relationship)\": \(message)", path: path, entity: entity,
            property: relationship,
            primaryKey: primaryKey)
    }

    private func integers(_ row: [SQLiteValue]) -> [Int64] {
        row.map { if case .integer(let value) = $0 { return value } else { return 0 } }
    }

    /// No `_pk` listed twice, and every `_pk` names an object of the destination entity (or a sub-entity).
    private func checkTargets(id: Int64, entity: Entity, relationship: Relationship) throws(RemodelError) {
        let duplicate = try connection.rows(
            "SELECT owner, target FROM \(links) WHERE rel = ? AND target IS NOT NULL GROUP BY owner, target HAVING count(*) > 1 ORDER BY owner LIMIT 1",
            [.integer(id)])
        if let row = duplicate.first {
            let values = integers(row)
            let subject = try describe(values[0], inTableOf: entity.name)
            throw relationshipFailure(
                subject, entity: entity.name, relationship.name, primaryKey: values[0], "lists _pk \(values[1]) twice")
        }
        let destination = relationship.destinationEntity ?? ""
        let kinds = layout.kinds(of: destination)
        let table = layout.table(forEntity: destination)?.name ?? destination
        let sql =
            "SELECT l.owner, l.target FROM \(links) AS l WHERE l.rel = ? AND l.target IS NOT NULL AND NOT EXISTS "
            + "(SELECT 1 FROM \(quoteIdentifier(table)) AS d WHERE d.\(StoreColumn.pk) = l.target AND d.\(StoreColumn.entity) IN (\(placeholders(kinds.count)))) "
            + "ORDER BY l.owner LIMIT 1"
        if let row = try connection.rows(sql, [.integer(id)] + kinds.map(SQLiteValue.text)).first {
            let values = integers(row)
            let subject = try describe(values[0], inTableOf: entity.name)
            throw relationshipFailure(
                subject, entity: entity.name, relationship.name, primaryKey: values[0],
                "names _pk \(values[1]), but there is no \(destination) with that _pk")
        }
    }

    /// Where both sides were given, they must name each other.
    private func checkAgreement(
        _ forward: Int64?, _ inverseID: Int64?, entity: Entity, relationship: Relationship, inverse: Relationship?
    ) throws(RemodelError) {
        guard let forward, let inverseID, let inverse else { return }
        let destination = relationship.destinationEntity ?? ""
        let sql =
            "SELECT l.owner, l.target FROM \(links) AS l WHERE l.rel = ? AND l.target IS NOT NULL "
            + "AND EXISTS (SELECT 1 FROM \(links) AS g WHERE g.rel = ? AND g.owner = l.target AND g.target IS NULL) "
            + "AND NOT EXISTS (SELECT 1 FROM \(links) AS m WHERE m.rel = ? AND m.owner = l.target AND m.target = l.owner) "
            + "ORDER BY l.owner LIMIT 1"
        let sides: [(Int64, Int64, String, String, Relationship, Relationship)] = [
            (inverseID, forward, destination, entity.name, inverse, relationship),
            (forward, inverseID, entity.name, destination, relationship, inverse),
        ]
        for (given, other, givenEntity, otherEntity, givenRelationship, otherRelationship) in sides {
            guard let row = try connection.rows(sql, [.integer(given), .integer(other), .integer(other)]).first else {
                continue
            }
            let values = integers(row)
            let concrete = try concreteEntity(of: values[0], inTableOf: givenEntity)
            let object = try describe(values[1], inTableOf: otherEntity)
            throw relationshipFailure(
                "\(concrete) _pk \(values[0])", entity: concrete, givenRelationship.name, primaryKey: values[0],
                "names \(object), but that object's \"\(otherRelationship.name)\" does not name _pk \(values[0])")
        }
    }

    private func fillPairs(_ forward: Int64?, _ inverseID: Int64?) throws(RemodelError) {
        try connection.execute("DELETE FROM \(pairs)")
        let forwardValue = forward.map(SQLiteValue.integer) ?? .null
        let inverseValue = inverseID.map(SQLiteValue.integer) ?? .null
        try connection.run(
            "INSERT OR IGNORE INTO \(pairs) (a, b) SELECT owner, target FROM \(links) WHERE rel = ? AND target IS NOT NULL",
            [forwardValue])
        try connection.run(
            "INSERT OR IGNORE INTO \(pairs) (a, b) SELECT target, owner FROM \(links) WHERE rel = ? AND target IS NOT NULL",
            [inverseValue])
    }

    private func storeColumn(table: String, column: String, entity: Entity, relationship: Relationship)
        throws(RemodelError)
    {
        if let row = try connection.rows(
            "SELECT a, min(b), max(b) FROM \(pairs) GROUP BY a HAVING count(*) > 1 ORDER BY a LIMIT 1"
        ).first {
            let values = integers(row)
            let subject = try describe(values[0], inTableOf: entity.name)
            throw relationshipFailure(
                subject, entity: entity.name, relationship.name, primaryKey: values[0],
                "is to-one, but both _pk \(values[1]) and _pk \(values[2]) name this object as theirs")
        }
        let quotedTable = quoteIdentifier(table)
        try connection.execute(
            "UPDATE \(quotedTable) SET \(quoteIdentifier(column)) = (SELECT b FROM \(pairs) WHERE a = \(quotedTable).\(StoreColumn.pk)) "
                + "WHERE \(StoreColumn.pk) IN (SELECT a FROM \(pairs))")
    }

    private func storeJoin(_ join: StoreLayout.JoinTable, forward: Int64?, inverse: Int64?) throws(RemodelError) {
        typealias J = StoreLayout.JoinTable
        let sourceOrder =
            join.sourceIsOrdered
            ? "coalesce((SELECT position FROM \(links) WHERE rel = ? AND owner = p.a AND target = p.b), row_number() OVER (PARTITION BY p.a ORDER BY p.b) - 1)"
            : "NULL"
        let destinationOrder =
            join.destinationIsOrdered
            ? "coalesce((SELECT position FROM \(links) WHERE rel = ? AND owner = p.b AND target = p.a), row_number() OVER (PARTITION BY p.b ORDER BY p.a) - 1)"
            : "NULL"
        var values: [SQLiteValue] = []
        if join.sourceIsOrdered { values.append(forward.map(SQLiteValue.integer) ?? .null) }
        if join.destinationIsOrdered { values.append(inverse.map(SQLiteValue.integer) ?? .null) }
        let columns = [J.sourceColumn, J.destinationColumn, J.sourceOrderColumn, J.destinationOrderColumn].map(
            quoteIdentifier)
        try connection.run(
            "INSERT INTO \(quoteIdentifier(join.name)) (\(columns.joined(separator: ", "))) "
                + "SELECT p.a, p.b, \(sourceOrder), \(destinationOrder) FROM \(pairs) AS p ORDER BY p.a, p.b", values)
    }

    /// Positions of an ordered to-many whose inverse is a to-one column: as listed by the owner when it
    /// gave the relationship, else by `_pk`.
    private func storeOrder(entity: Entity, relationship: Relationship) throws(RemodelError) {
        guard
            case .inverseColumn(let table, let column, let orderColumn?) = layout.storage(
                of: relationship.name, in: entity.name)
        else { return }
        let forward = id(relationship, declaredBy: entity).map(SQLiteValue.integer) ?? .null
        let inverse = layout.storedInverse(of: relationship, in: entity.name)
        let inverseID = inverse.flatMap { inverse in
            inverseOwner(of: relationship).flatMap { id(inverse, declaredBy: $0) }
        }
        let kinds = layout.kinds(of: relationship.destinationEntity ?? "")
        let quotedTable = quoteIdentifier(table)
        let quotedColumn = quoteIdentifier(column)
        let sql =
            "UPDATE \(quotedTable) SET \(quoteIdentifier(orderColumn)) = x.pos FROM ("
            + "SELECT d.\(StoreColumn.pk) AS pk, coalesce(l.position, row_number() OVER (PARTITION BY d.\(quotedColumn) ORDER BY d.\(StoreColumn.pk)) - 1) AS pos "
            + "FROM \(quotedTable) AS d LEFT JOIN \(links) AS l ON l.rel = ? AND l.owner = d.\(quotedColumn) AND l.target = d.\(StoreColumn.pk) "
            + "WHERE d.\(quotedColumn) IS NOT NULL AND d.\(StoreColumn.entity) IN (\(placeholders(kinds.count))) "
            + "AND (d.\(quotedColumn) IN (SELECT owner FROM \(links) WHERE rel = ?) OR d.\(StoreColumn.pk) IN (SELECT owner FROM \(links) WHERE rel = ?))"
            + ") AS x WHERE \(quotedTable).\(StoreColumn.pk) = x.pk"
        try connection.run(
            sql, [forward] + kinds.map(SQLiteValue.text) + [forward, inverseID.map(SQLiteValue.integer) ?? .null])
    }
}
