/// Phase 3's progress in rows: an entity's checks weigh the rows of its table (they scan it once), the
/// checks of the whole store (join-table probes and SQLite's check, on a second thread meanwhile) a
/// quarter of the store's rows, a custom validation the rows of an average table.
struct ValidationWeights {
    /// Rows by table name, of the store the step writes.
    private var rows: [String: Int] = [:]

    /// Weights of one unit each, as when nothing is counted.
    init() {}

    /// Estimates the rows of the tables of `layout` in the store being built by their largest `_pk` (one
    /// descent of its b-tree): counting them would read every carried table the step otherwise leaves alone.
    /// A table all of whose entities are `skipping` (phase 3 passes them by) is not asked.
    init(connection: SQLiteConnection, layout: StoreLayout, skipping: Set<String> = []) throws(RemodelError) {
        for table in layout.tables where !table.entities.allSatisfy(skipping.contains) {
            let largest = try connection.scalar(
                "SELECT max(\(StoreColumn.pk)) FROM main.\(quoteIdentifier(table.name))")
            rows[table.name] = Int(largest?.integerValue ?? 0)
        }
    }

    /// What one validation reports, in the order it reports it.
    struct Units {
        /// Each concrete entity's, in the version's order.
        var entities: [Int]
        var storeChecks: Int
        var customValidation: Int
        var customValidations: Int

        var total: Int { entities.reduce(0, +) + storeChecks + customValidation * customValidations }
    }

    /// The units of a validation of `version`. A version a composed pass goes through has no table of its
    /// own: where the written store has none of the same name, its tables weigh as the average one.
    func units(of version: ModelVersion, layout: StoreLayout, customValidations: Int) -> Units {
        let average = rows.isEmpty ? 1 : max(1, rows.values.reduce(0, +) / rows.count)
        let entities = version.entities.filter { !$0.isAbstract }.map { entity in
            max(1, layout.table(forEntity: entity.name).flatMap { rows[$0.name] } ?? average)
        }
        return Units(
            entities: entities, storeChecks: max(1, rows.values.reduce(0, +) / 4), customValidation: average,
            customValidations: customValidations)
    }
}
