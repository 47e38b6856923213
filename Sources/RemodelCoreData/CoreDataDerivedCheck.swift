import Remodel

/// Compares the derived attributes a Core Data store holds with what the new store computes from the imported
/// objects (docs/CORE-DATA-STORES.md, "Derived attributes"): Core Data computes them in its store as Remodel's
/// store does, so a value that differs is refused, naming the entity, the object and the attribute, rather than
/// imported silently as something else.
enum CoreDataDerivedCheck {
    /// Refuses the import when a derived value of the Core Data store (schema `source`) differs from the new
    /// store's (call after ``DerivedMaintenance/install(_:on:)``). Numbers are compared to a billionth of their size.
    /// - Throws: ``RemodelError`` with ``RemodelError/Code/invalidValue`` naming the first object that differs.
    static func check(
        _ mapping: CoreDataMapping, layout: StoreLayout, on connection: SQLiteConnection, source: String
    ) throws(RemodelError) {
        for table in mapping.tables {
            for column in table.derived {
                for item in column.sources {
                    let converted = CoreDataTableCopier.convertedValue(of: item)
                    let stored = "t.\(quoteIdentifier(column.target))"
                    let sql = """
                        SELECT s.\(CoreDataName.primaryKey), \(converted), \(stored) FROM source.\(quoteIdentifier(table.source)) AS s
                        JOIN main.\(quoteIdentifier(table.target)) AS t ON t.\(StoreColumn.pk) = s.\(CoreDataName.primaryKey)
                        WHERE \(CoreDataTableCopier.entityTest(item.numbers)) AND (\(converted)) IS NOT \(stored)
                        AND NOT (typeof(\(converted)) IN ('integer', 'real') AND typeof(\(stored)) IN ('integer', 'real')
                        AND abs((\(converted)) - \(stored)) <= 1e-9 * max(1.0, abs(\(converted)), abs(\(stored))))
                        ORDER BY s.\(CoreDataName.primaryKey) LIMIT 1
                        """
                    guard let row = try connection.rows(sql).first, case .integer(let key) = row[0] else { continue }
                    let derivation =
                        layout.derivedColumn(of: item.property, in: item.entity)?.resolved.derivation.text ?? ""
                    throw RemodelError(
                        .invalidValue,
                        "\(item.entity) \(CoreDataName.primaryKey) \(key) attribute \"\(item.property)\": the Core Data store holds \(row[1]), but \(item.property) is derived (\(derivation)) and Remodel's store computes \(row[2]) from the imported objects; the store is damaged, or was written with another model version (choose it with --version)",
                        path: source, entity: item.entity, property: item.property, primaryKey: key)
                }
            }
        }
    }
}
