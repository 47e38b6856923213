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
