/// The step's index builds, reported as a phase of their own (``MigrationProgress/Phase/indexes``) since
/// they can take as long as the links: the non-unique indexes in one transaction, then the unique ones
/// (``UniqueIndexBuild``), each weighing the rows of its table.
struct IndexBuild {
    let connection: SQLiteConnection
    let plain: [StoreLayout.Index]
    let unique: [StoreLayout.Index]
    /// The weight of each index, `plain` then `unique`: the rows of its table (RelationshipBuilder counts them).
    let weights: [Int]

    /// Builds the indexes, reporting each one done.
    /// - Returns: The unique indexes that were built, which prove their constraints; the others met duplicates.
    func run(pass: Int, tracker: ProgressTracker) throws(RemodelError) -> [StoreLayout.Index] {
        let progress = try PhaseCounter(.indexes, pass: pass, weights: weights, tracker: tracker)
        try connection.transaction { () throws(RemodelError) in
            for index in plain {
                try connection.execute(index.createSQL)
                try progress.done(index.table)
            }
        }
        return try UniqueIndexBuild(connection: connection).run(unique) { (table) throws(RemodelError) in
            try progress.done(table)
        }
    }
}
