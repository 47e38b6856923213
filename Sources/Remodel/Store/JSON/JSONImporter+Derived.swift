extension JSONImporter {
    /// The temporary table of the values the file gives for derived attributes the store computes.
    static let derivedTable = "_remodel_import_derived"

    /// Creates the temporary table of given derived values and its insert.
    func prepareDerivedValues() throws(RemodelError) {
        try connection.execute(
            "CREATE TEMP TABLE \(quoteIdentifier(Self.derivedTable)) (entity TEXT NOT NULL, attribute TEXT NOT NULL, owner INTEGER NOT NULL, ordinal INTEGER NOT NULL, value)"
        )
        insertDerived = try connection.prepare(
            "INSERT INTO temp.\(quoteIdentifier(Self.derivedTable)) VALUES (?, ?, ?, ?, ?)")
    }

    /// Keeps the value the file gives for a derived attribute of the object `owner`, for the check once the store
    /// has computed it.
    func recordDerived(_ value: SQLiteValue, of attribute: String, entity: String, owner: Int64, ordinal: Int)
        throws(RemodelError)
    {
        guard let insertDerived else { return }
        try insertDerived.bind([.text(entity), .text(attribute), .integer(owner), .integer(Int64(ordinal)), value])
        try insertDerived.step()
    }

    /// Refuses the file when a value it gives for a derived attribute differs from what the store computed (call
    /// after ``/RemodelModel/DerivedMaintenance/install(_:on:)``): an export gives the store's values, so it imports
    /// back; any other value would be a value the store does not hold. Numbers are compared to a billionth of their
    /// size (an average summed in another order differs in its last bits).
    /// - Throws: ``/RemodelModel/RemodelError`` with ``/RemodelModel/RemodelError/Code/invalidValue`` naming the
    ///   entity, the `_pk` and the attribute of the first object whose value differs.
    func checkDerivedValues() throws(RemodelError) {
        let given = "temp.\(quoteIdentifier(Self.derivedTable))"
        let pairs = try connection.rows("SELECT DISTINCT entity, attribute FROM \(given) ORDER BY entity, attribute")
        for pair in pairs {
            guard case .text(let entity) = pair[0], case .text(let attribute) = pair[1],
                let derived = layout.derivedColumn(of: attribute, in: entity)
            else { continue }
            let stored = "t.\(quoteIdentifier(derived.column))"
            let sql = """
                SELECT g.owner, g.value, \(stored) FROM \(given) AS g JOIN main.\(quoteIdentifier(derived.table)) AS t ON t.\(StoreColumn.pk) = g.owner
                WHERE g.entity = ? AND g.attribute = ? AND g.value IS NOT \(stored) AND NOT (typeof(g.value) IN ('integer', 'real')
                AND typeof(\(stored)) IN ('integer', 'real') AND abs(g.value - \(stored)) <= 1e-9 * max(1.0, abs(g.value), abs(\(stored))))
                ORDER BY g.ordinal LIMIT 1
                """
            guard let row = try connection.rows(sql, [.text(entity), .text(attribute)]).first,
                case .integer(let owner) = row[0]
            else { continue }
            throw RemodelError(
                .invalidValue,
                "\(entity) _pk \(owner) attribute \"\(attribute)\": the file gives \(row[1]), but \(attribute) is derived (\(derived.resolved.derivation.text)) and the store computes \(row[2]); leave it out, or give what the store computes",
                path: path, entity: entity, property: attribute, primaryKey: owner)
        }
    }
}
