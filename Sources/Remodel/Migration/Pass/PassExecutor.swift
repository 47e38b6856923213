/// Runs one pass of a plan: the store is copied once, and the pass's steps change the copy one after the
/// other, each in three phases (instances, relationships, validation) and each costing what it changes
/// (see ``StepComposition``). The first step reads the store being migrated, attached read-only; a later
/// step reads what the step before it left in the copy. Every step's rules are checked on its own result,
/// as if every version were written to a file of its own.
struct PassExecutor {
    /// The pass's steps, planned.
    let steps: [StepPlan]
    /// What the app added to the store, rehearsed for each step (see ``PlanRehearsal``).
    let rehearsals: [SchemaRehearsal]
    /// The pass's number, for progress.
    let number: Int
    let modelName: String
    let environment: ExpressionEnvironment
    let tracker: ProgressTracker
    let options: MigrationOptions
    /// The tables the pass writes, in its last version's names (worked out with the plan).
    let writtenTables: [String]
    /// The history of the store the pass reads, when the plan knows it (read under the lock); the pass writes
    /// it on with its own steps. Nil: the pass reads it from its source.
    let history: [StoreMetadata.HistoryEntry]?

    /// What a pass did: what its steps dropped on purpose, counted on the data each step got, and the history
    /// it wrote into the store it built.
    struct Outcome {
        var losses: [DataLoss]
        var history: [StoreMetadata.HistoryEntry]
    }

    /// Builds `destinationPath` from `sourcePath`: `copy` puts a byte copy of the source there, which the
    /// pass then changes in place, and returns what it counted of the source on the way (see ``SourceCensus``).
    /// The destination is removed again on failure.
    @discardableResult
    func run(
        sourcePath: String, destinationPath: String, copy: (String) throws(RemodelError) -> SourceCensus?
    ) throws(RemodelError) -> Outcome {
        StoreFiles.remove(destinationPath)
        // The step at work, named in a failure as it is when every step is a pass of its own.
        var running = steps.first?.name ?? ""
        do {
            let census = try copy(destinationPath)
            FaultPoint.afterCopy.reach()
            return try build(
                sourcePath: sourcePath, destinationPath: destinationPath, census: census, running: &running)
        } catch {
            // SQLite's words on the pass's copy are read before the copy goes, and told in the store's terms.
            let explained = StepFailure.explained(error, copyPath: destinationPath, stepName: running)
            StoreFiles.remove(destinationPath)
            throw explained
        }
    }

    private func build(
        sourcePath: String, destinationPath: String, census: SourceCensus?, running: inout String
    ) throws(RemodelError) -> Outcome {
        // The app's objects are created again as the pass's last step leaves them (renames followed).
        guard let last = steps.last, let app = rehearsals.last?.appAfter else {
            return Outcome(losses: [], history: [])
        }
        let connection = try SQLiteConnection(path: destinationPath, mode: .readWrite)
        // Nothing in this file matters until it is complete: no journal, no syncing until the final flush.
        try connection.execute("PRAGMA journal_mode = OFF; PRAGMA synchronous = OFF; PRAGMA temp_store = FILE")
        if let pages = options.maximumPageCount { try connection.execute("PRAGMA max_page_count = \(pages)") }
        try ExpressionFunctions.register(on: connection)
        try connection.attach(path: sourcePath, as: TableReferences.sourceSchema, readOnly: true)
        try connection.execute(PageCaches.stepPragmas(source: TableReferences.sourceSchema))
        var losses: [DataLoss] = []
        for (offset, plan) in steps.enumerated() {
            running = plan.name
            tracker.beginStep(offset, of: steps.count)
            let run = StepRun(
                plan: plan, rehearsal: rehearsals[offset], chained: offset > 0, isLast: offset == steps.count - 1,
                pass: context(census: census), connection: connection, destinationPath: destinationPath)
            losses += try run.run()
        }
        let history = try connection.transaction { () throws(RemodelError) -> [StoreMetadata.HistoryEntry] in
            let history = try writeMetadata(on: connection, sourcePath: sourcePath, version: last.step.destination)
            try DerivedMaintenance.createTriggers(last.destinationLayout, on: connection)
            try StoreRewrite.restoreAppObjects(app, on: connection)
            try AppUpkeep.rebuild(rehearsals.map(\.upkeep), on: connection)
            return history
        }
        FaultPoint.afterMetadata.reach()
        try connection.detach(TableReferences.sourceSchema)
        return Outcome(losses: losses, history: history)
    }

    /// What the pass's steps are given of it.
    private func context(census: SourceCensus?) -> PassContext {
        PassContext(
            number: number, modelName: modelName, environment: environment, tracker: tracker, options: options,
            writtenTables: writtenTables, census: census)
    }

    /// The tables a run of steps writes, in its last version's names.
    static func writtenTables(of steps: [StepPlan]) -> [String] {
        let cumulative = steps.dropFirst().reduce(steps.first?.changes ?? StorageChanges()) {
            $0.followed(by: $1.changes)
        }
        return steps.last.map { cumulative.writtenTables(of: $0.destinationLayout) } ?? []
    }

    /// Writes the metadata of the pass's last version, with the source's history and the pass's steps.
    /// - Returns: The history written.
    private func writeMetadata(on connection: SQLiteConnection, sourcePath: String, version: ModelVersion)
        throws(RemodelError) -> [StoreMetadata.HistoryEntry]
    {
        var history: [StoreMetadata.HistoryEntry] = self.history ?? []
        if self.history == nil,
            case .success(let source) = try StoreMetadata.read(
                from: try SQLiteConnection(path: sourcePath, mode: .readOnly))
        {
            history = source.history
        }
        for done in steps.map(\.step) {
            let how = done.mapping.files.isEmpty ? "inferred" : done.mapping.files.joined(separator: ", ")
            history.append(StoreMetadata.entry(from: done.source.name, to: done.destination.name, mapping: how))
        }
        try StoreMetadata(modelName: modelName, version: version, history: history).write(to: connection)
        return history
    }
}
