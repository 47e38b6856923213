/// Puts the store's keeping of derived attributes in place (docs/STORE-LAYOUT.md, "Derived attributes"): the
/// text folds its triggers read, every maintained column computed, every timestamp that has no time given the
/// time now, and the triggers that keep them from then on.
///
/// A bulk write (create with a seed, import, a migration, a Core Data import) runs with no trigger of the store's
/// and calls ``install(_:on:)`` once its rows and indexes are in: one `UPDATE` per derived attribute instead of a
/// trigger per row.
///
/// For example:
/// ```swift
/// try DerivedMaintenance.suspend(on: connection)
/// // … insert rows …
/// try DerivedMaintenance.install(layout, on: connection)
/// ```
package enum DerivedMaintenance {
    /// Drops every trigger of the store's own (``StoreLayout/derivedTriggerPrefix``), so that bulk writes fire none.
    package static func suspend(on connection: SQLiteConnection) throws(RemodelError) {
        for name in try triggerNames(on: connection) {
            try connection.execute("DROP TRIGGER IF EXISTS main.\(quoteIdentifier(name))")
        }
    }

    /// The store's own triggers, by name.
    package static func triggerNames(on connection: SQLiteConnection) throws(RemodelError) -> [String] {
        try connection.rows("SELECT name FROM main.sqlite_master WHERE type = 'trigger' ORDER BY name").compactMap {
            row in
            guard case .text(let name) = row[0], StoreLayout.isDerivedTrigger(name) else { return nil }
            return name
        }
    }

    /// Computes every derived attribute of `layout` and creates the triggers that keep them (dropping those of the
    /// store's own that were there): the text folds first when the version needs them.
    package static func install(_ layout: StoreLayout, on connection: SQLiteConnection) throws(RemodelError) {
        try suspend(on: connection)
        try recompute(layout, on: connection)
        try createTriggers(layout, on: connection)
    }

    /// Creates the triggers that keep the derived attributes of `layout` (the store has none of its own then).
    package static func createTriggers(_ layout: StoreLayout, on connection: SQLiteConnection) throws(RemodelError) {
        for trigger in triggers(of: layout) { try connection.execute(trigger.sql) }
    }

    /// Computes every maintained derived attribute of `layout` and gives every timestamp without a time the time
    /// now, with no trigger involved (the text folds are added when the version needs them).
    package static func recompute(_ layout: StoreLayout, on connection: SQLiteConnection) throws(RemodelError) {
        guard !layout.derivedColumns.isEmpty else { return }
        if layout.needsTextFolds { try addTextFolds(on: connection) }
        for derived in layout.derivedColumns {
            if let sql = DerivedSQL(layout: layout, column: derived).recomputeSQL { try connection.execute(sql) }
        }
    }

    /// The triggers `layout` keeps its derived attributes with, `(name, CREATE TRIGGER …)`.
    package static func triggers(of layout: StoreLayout) -> [(name: String, sql: String)] {
        layout.derivedColumns.flatMap { DerivedSQL(layout: layout, column: $0).triggers }
    }

    /// `CREATE TABLE` of the text folds (``TextFolds``).
    static let textFoldsTableSQL =
        "CREATE TABLE \(quoteIdentifier(StoreLayout.textFoldsTable)) (function TEXT NOT NULL, character TEXT NOT NULL, folded TEXT NOT NULL, PRIMARY KEY (function, character)) WITHOUT ROWID"

    /// Creates and fills the table of text folds, unless the store has it.
    static func addTextFolds(on connection: SQLiteConnection) throws(RemodelError) {
        guard try !connection.tableExists(StoreLayout.textFoldsTable) else { return }
        try connection.execute(textFoldsTableSQL)
        let insert = try connection.prepare(
            "INSERT INTO main.\(quoteIdentifier(StoreLayout.textFoldsTable)) (function, character, folded) VALUES (?, ?, ?)"
        )
        for function in Derivation.Function.allCases {
            for (character, folded) in TextFolds.pairs(function) {
                try insert.bind([.text(function.rawValue), .text(character), .text(folded)])
                try insert.step()
            }
        }
    }
}
