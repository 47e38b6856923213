extension MigrationOptions {
    /// How much of SQLite's own consistency check phase 3 runs on each step's new store.
    ///
    /// Either check reads every page of the store, and what it finds fails the step under the rule
    /// `integrity-check`; they differ in whether indexes are compared with their tables.
    ///
    /// For example:
    /// ```swift
    /// var options = MigrationOptions()
    /// options.integrityCheck = .full  // also compare every index with its table
    /// ```
    public enum IntegrityCheck: Sendable, Hashable {
        /// `PRAGMA quick_check`, the default: the structure of every b-tree (pages, links, cell order,
        /// free pages), the format of every record, and NOT NULL constraints. It does not compare index
        /// entries with table rows, nor check UNIQUE constraints. Neither can find anything the step
        /// did not already rule out: every index of the new store was built by SQLite from its table's
        /// content on the step's own connection, and uniqueness is checked by phase 3's `unique` rule and
        /// again by `CREATE UNIQUE INDEX`. It costs a fraction of ``full``.
        case quick
        /// `PRAGMA integrity_check`: everything ``quick`` checks, and that every index holds exactly the
        /// rows of its table. Much slower on large stores; choose it when you suspect the SQLite library,
        /// the file system or the disk the store is built on.
        case full

        /// The pragma that runs this check on the store being built.
        var pragma: String {
            switch self {
            case .quick: return "PRAGMA main.quick_check"
            case .full: return "PRAGMA main.integrity_check"
            }
        }
    }
}
