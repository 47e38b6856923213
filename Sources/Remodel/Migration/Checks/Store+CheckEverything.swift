/// The full check of a store at rest: what `migrate --check-everything` runs on a migrated store, for any store.
extension Store {
    /// Checks every object of the store against its version's model — required values, storage classes, bounds,
    /// regular expressions, required and dangling links, relationship counts, uniqueness, join tables, the app's
    /// foreign keys — and runs SQLite's check of the whole file (`PRAGMA integrity_check`) beside it.
    ///
    /// Every write path Remodel has, and the generated records, leave a store that passes it; the property tests
    /// of those paths call it.
    ///
    /// For example:
    /// ```swift
    /// let failures = try Store.open(at: path, bundle: bundle).checkEverything()
    /// #expect(failures.isEmpty)
    /// ```
    /// - Returns: The failures found (at most a few per rule, as a migration names them); empty when the store is
    ///   true to its model.
    /// - Throws: ``/RemodelModel/RemodelError`` when the store cannot be read.
    package func checkEverything() throws(RemodelError) -> [ValidationFailure] {
        let validator = MigrationValidator(
            connection: connection, version: version, layout: layout, integrityPragmas: ["PRAGMA main.integrity_check"]
        ) { (_: Int, _: Int, _: String?) throws(RemodelError) in }
        return try validator.run()
    }
}

extension Store {
    /// The model's rules on every object of a store being built on `connection` (required values, storage
    /// classes, bounds, regular expressions, links, counts, uniqueness), without SQLite's check of the file: what
    /// a write path that does not go through Remodel's own checks (a Core Data store's import) runs before it
    /// keeps the objects, so that the store it makes passes ``checkEverything()``.
    /// - Returns: The failures found (at most a few per rule); empty when every object keeps the rules.
    package static func ruleFailures(on connection: SQLiteConnection, version: ModelVersion, layout: StoreLayout)
        throws(RemodelError) -> [ValidationFailure]
    {
        try MigrationValidator(connection: connection, version: version, layout: layout) {
            (_: Int, _: Int, _: String?) throws(RemodelError) in
        }.run()
    }
}
