/// What each step of a pass is given of the pass, as a value: its number (for progress), the model's name (for
/// messages), the clock expressions read, the progress tracker, the options, and the tables the whole pass writes
/// (SQLite's checks at its last step), what was counted of its source on the way (its first step's). A step reads these; it never calls back into the ``PassExecutor``.
struct PassContext {
    let number: Int
    let modelName: String
    let environment: ExpressionEnvironment
    let tracker: ProgressTracker
    let options: MigrationOptions
    let writtenTables: [String]
    /// What was counted of the store the pass's first step reads as it was searched after the copy, if it was.
    let census: SourceCensus?
}
