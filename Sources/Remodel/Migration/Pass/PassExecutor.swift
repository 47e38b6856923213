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

    /// Builds `destinationPath` from `sourcePath`: `copy` puts a byte copy of the source there, which the
    /// pass then changes in place. The destination is removed again on failure.
    /// - Returns: What the pass's steps dropped on purpose, counted on the data each step got.
    @discardableResult
    func run(
        sourcePath: String, destinationPath: String, copy: (String) throws(RemodelError) -> Void
    ) throws(RemodelError) -> [DataLoss] {
        StoreFiles.remove(destinationPath)
        do {
            try copy(destinationPath)
            FaultPoint.afterCopy.reach()
            return try build(sourcePath: sourcePath, destinationPath: destinationPath)
        } catch {
            // SQLite's words on the pass's copy are read before the copy goes, and told in the store's terms.
            let name = "\(steps.first?.step.source.name ?? "") → \(steps.last?.step.destination.name ?? "")"
            let explained = StepFailure.explained(error, copyPath: destinationPath, stepName: name)
            StoreFiles.remove(destinationPath)
            throw explained
        }
    }

    private func build(sourcePath: String, destinationPath: String) throws(RemodelError) -> [DataLoss] {
        guard let last = steps.last, let app = rehearsals.first?.app else { return [] }
        let connection = try SQLiteConnection(path: destinationPath, mode: .readWrite)
        // Nothing in this file matters until it is complete: no journal, no syncing until the final flush.
        try connection.execute("PRAGMA journal_mode = OFF; PRAGMA synchronous = OFF; PRAGMA temp_store = FILE")
        if let pages = options.maximumPageCount { try connection.execute("PRAGMA max_page_count = \(pages)") }
        try ExpressionFunctions.register(on: connection)
        try connection.attach(path: sourcePath, as: TableReferences.sourceSchema, readOnly: true)
        try connection.execute(PageCaches.stepPragmas(source: TableReferences.sourceSchema))
        var losses: [DataLoss] = []
        for (offset, plan) in steps.enumerated() {
            tracker.beginStep(offset, of: steps.count)
            let run = StepRun(
                plan: plan, rehearsal: rehearsals[offset], chained: offset > 0, isLast: offset == steps.count - 1,
                pass: self,
                connection: connection, destinationPath: destinationPath)
            losses += try run.run()
        }
        try connection.transaction { () throws(RemodelError) in
            try writeMetadata(on: connection, sourcePath: sourcePath, version: last.step.destination)
            try StoreRewrite.restoreAppObjects(app, on: connection)
        }
        FaultPoint.afterMetadata.reach()
        try connection.detach(TableReferences.sourceSchema)
        return losses
    }

    /// The tables the pass wrote, in the last version's names: those not carried byte for byte through every step.
    var writtenTables: [String] { Self.writtenTables(of: steps) }

    /// The tables a run of steps writes, in its last version's names.
    static func writtenTables(of steps: [StepPlan]) -> [String] {
        let cumulative = steps.dropFirst().reduce(steps.first?.changes ?? StorageChanges()) {
            $0.followed(by: $1.changes)
        }
        return steps.last.map { cumulative.writtenTables(of: $0.destinationLayout) } ?? []
    }

    private func writeMetadata(on connection: SQLiteConnection, sourcePath: String, version: ModelVersion)
        throws(RemodelError)
    {
        var history: [StoreMetadata.HistoryEntry] = []
        if case .success(let source) = try StoreMetadata.read(
            from: try SQLiteConnection(path: sourcePath, mode: .readOnly))
        {
            history = source.history
        }
        for done in steps.map(\.step) {
            let how = done.mapping.files.isEmpty ? "inferred" : done.mapping.files.joined(separator: ", ")
            history.append(StoreMetadata.entry(from: done.source.name, to: done.destination.name, mapping: how))
        }
        try StoreMetadata(modelName: modelName, version: version, history: history).write(to: connection)
    }

    static func validationError(_ failures: [ValidationFailure], step: MigrationStep) -> RemodelError {
        let lines = failures.map { "  - \($0)" }.joined(separator: "\n")
        // An app's foreign key is no rule of the model: the header names whose rules were broken.
        let app = failures.contains { $0.rule == MigrationRule.foreignKeyCheck.rawValue }
        let model = failures.contains { $0.rule != MigrationRule.foreignKeyCheck.rawValue }
        let rules =
            app && model
            ? "the model's rules and the app's foreign keys" : app ? "the app's foreign keys" : "the model's rules"
        var error = RemodelError(
            .validationFailed,
            "the data migrated from \(step.source.name) to \(step.destination.name) breaks \(rules), so the store was left as it was:\n\(lines)"
        )
        error.entity = failures.first?.entity
        error.property = failures.first?.property
        error.primaryKey = failures.first?.primaryKey
        return error
    }
}
