extension MigrationReport {
    /// An app full-text index a migration rebuilt (DESIGN.md, Migration 13).
    ///
    /// For example, `note_search` over `Note`, whose objects of a removed sub-entity the migration dropped:
    /// ```swift
    /// for index in report.rebuiltIndexes { print(index) }
    /// // Rebuilt the app's full-text index note_search: the migration rewrote the rows of Note, which it indexes.
    /// ```
    public struct RebuiltIndex: Sendable, Hashable, CustomStringConvertible {
        /// The index's name (its virtual table).
        public var name: String
        /// What it indexes (its `content=`): a model table, or a view of the app.
        public var content: String

        public var description: String {
            "Rebuilt the app's full-text index \(name): the migration rewrote the rows of \(content), which it indexes."
        }
    }

    /// An app trigger on a table a migration rewrote, which did not fire for the migration's writes.
    ///
    /// For example:
    /// ```swift
    /// for trigger in report.unfiredTriggers { print(trigger) }
    /// // The app's trigger note_count_ai (AFTER INSERT on Note) did not fire for the migration's writes: what it
    /// // writes (note_count) was not brought up to date.
    /// ```
    public struct UnfiredTrigger: Sendable, Hashable, CustomStringConvertible {
        /// The trigger's name.
        public var name: String
        /// The table it is on, as the target version names it.
        public var table: String
        /// What fires it (`AFTER INSERT`, `UPDATE OF`).
        public var event: String
        /// The tables its body writes.
        public var writes: [String]

        public var description: String {
            let what = writes.isEmpty ? "what it does" : "what it writes (\(writes.joined(separator: ", ")))"
            let on = event.isEmpty ? "on \(table)" : "\(event) on \(table)"
            return
                "The app's trigger \(name) (\(on)) did not fire for the migration's writes: \(what) was not brought up to date."
        }
    }
}
