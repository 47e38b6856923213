internal import RemodelSQLite

/// Builds a step's new unique indexes at the end of the indexes phase, before phase 3 looks for duplicates.
///
/// SQLite sorts the rows to build a unique index and stops at the first two that are equal, so an index it
/// builds proves its uniqueness constraint holds: phase 3 then skips its own search for duplicates of that
/// constraint (a sort of the whole table, as long as the build itself). An index that meets duplicates is
/// rolled back to nothing, and phase 3 searches that constraint as before, to name every offender.
///
/// The step's store runs without a journal; these builds alone run with one in memory, so that a failed
/// build can be undone. It holds only pages the file had before, which an index build seldom rewrites.
struct UniqueIndexBuild {
    let connection: SQLiteConnection

    /// Builds `indexes` in order, calling `built` with each one's table once it is done.
    /// - Returns: The indexes that were built; the others met duplicates.
    func run(_ indexes: [StoreLayout.Index], built: (String) throws(RemodelError) -> Void) throws(RemodelError)
        -> [StoreLayout.Index]
    {
        guard !indexes.isEmpty else { return [] }
        _ = try connection.scalar("PRAGMA main.journal_mode = MEMORY")
        defer { _ = try? connection.scalar("PRAGMA main.journal_mode = OFF") }
        var proven: [StoreLayout.Index] = []
        try connection.transaction { () throws(RemodelError) in
            for index in indexes {
                do throws(RemodelError) {
                    try connection.savepoint("unique_index") { () throws(RemodelError) in
                        try connection.execute(index.createSQL)
                    }
                    proven.append(index)
                } catch  where error.sqliteCode.map({ $0 & 0xFF == SQLITE_CONSTRAINT }) == true {
                    // Duplicates: phase 3 finds and names them.
                }
                try built(index.table)
            }
        }
        return proven
    }
}

extension StoreLayout.Index {
    /// Whether this index, built, proves that no two objects of `entities` have the same `columns` (each a
    /// ``Key/term``: a column, or a composite member `column.member`) in `table`.
    func proves(columns: [String], of entities: [String], in table: String) -> Bool {
        // Unique over some of the keys is unique over all of them (the rows with one of them NULL count in neither).
        guard isUnique, self.table == table, !keys.isEmpty, Set(keys.map(\.term)).isSubset(of: columns) else {
            return false
        }
        guard let covered = self.entities else { return true }
        return Set(entities).isSubset(of: covered)
    }
}
