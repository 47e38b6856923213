extension MigrationOptions {
    /// How much of SQLite's own consistency check a migration runs.
    ///
    /// ``quick`` and ``full`` check the store being migrated as a whole, on a thread of their own beside
    /// the passes (which carry its pages byte for byte), and each pass's new store in the schema and the
    /// tables the pass wrote; with a hook or ``MigrationOptions/checksEverything``, each pass's store is
    /// checked whole instead. What a check finds fails the migration under the rule `integrity-check`.
    /// ``quick`` and ``full`` differ in whether indexes are compared with their tables.
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
        /// did not already rule out: every index the step builds is built by SQLite from its table's
        /// content on the step's own connection, and `CREATE UNIQUE INDEX` refuses duplicates (phase 3's
        /// `unique` rule then names them). It costs a fraction of ``full``. `remodel migrate
        /// --integrity-check quick`.
        case quick
        /// `PRAGMA integrity_check`: everything ``quick`` checks, and that every index holds exactly the
        /// rows of its table. Much slower on large stores; choose it when you suspect the SQLite library,
        /// the file system or the disk the store is built on. `--integrity-check full`.
        case full
        /// `PRAGMA quick_check` of the tables whose pages each pass wrote — rebuilt, new, or carried with
        /// columns dropped or filled — with their indexes, and of the schema; the store being migrated is
        /// not read as a whole, nor the pages of tables carried byte for byte (a rename or a new empty
        /// column changes the schema alone). A step then costs what it changes even in SQLite's own check,
        /// and a damaged page in a carried table is found by the next check that reads it rather than by
        /// the migration (``quick`` reads every page; on a 92 MiB store it took 0.3–0.4 s, most of a step
        /// that adds one column). `--integrity-check written`.
        case writtenTables

        /// The pragma that runs this check (on a whole file, or given a table on that table and its indexes).
        private var pragma: String { self == .full ? "integrity_check" : "quick_check" }

        /// The pragmas that run this check on the store a pass built, given the tables it wrote: the whole
        /// file, or, when `wholeFile` is false (the store being migrated is checked as a whole beside the
        /// passes, see ``MigrationOptions/originalFileCheck``) or for ``writtenTables``, the schema and the
        /// written tables only.
        func pragmas(writtenTables tables: [String], wholeFile: Bool = true) -> [String] {
            guard wholeFile, self != .writtenTables else {
                return (["sqlite_schema"] + tables).map { "PRAGMA main.\(pragma)(\(quoteLiteral($0)))" }
            }
            return ["PRAGMA main.\(pragma)"]
        }
    }

    /// The check of the whole store being migrated that runs beside the passes, whose pages they carry byte
    /// for byte, so that each pass checks only what it wrote; nil when each pass's store is checked whole
    /// (a hook or ``checksEverything``) and for ``IntegrityCheck/writtenTables``, which reads no carried page.
    var originalFileCheck: String? {
        guard checksWhatPassesWrite, integrityCheck != .writtenTables else { return nil }
        return integrityCheck.pragmas(writtenTables: []).first
    }

    /// Whether phase 3 may limit its checks to what each pass wrote: not when the caller asks for
    /// everything, nor with a hook (a hook may change anything).
    var checksWhatPassesWrite: Bool {
        !checksEverything && hooks.beforeStep == nil && hooks.afterStep == nil
    }
}
