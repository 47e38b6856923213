/// Runs one migration step: builds the destination store in a new file from
/// the source store (attached read-only) in three phases. Steps the pass goes
/// through first are read as views (see ``StepComposition``): their rules are
/// checked on the views in phase 3, and their results are never written.
struct StepExecutor {
    let step: MigrationStep
    /// The steps before `step` that this pass reads through as views, in order.
    var passedThrough: [MigrationStep] = []
    /// The pass's number, for progress.
    let index: Int
    let modelName: String
    let environment: ExpressionEnvironment
    let tracker: ProgressTracker
    let options: MigrationOptions

    /// Builds `destinationPath` from `sourcePath`; the destination is removed again on failure.
    func run(sourcePath: String, destinationPath: String) throws(RemodelError) {
        StoreFiles.remove(destinationPath)
        do {
            try build(sourcePath: sourcePath, destinationPath: destinationPath)
        } catch {
            StoreFiles.remove(destinationPath)
            throw error
        }
    }

    private func build(sourcePath: String, destinationPath: String) throws(RemodelError) {
        let connection = try SQLiteConnection(path: destinationPath, mode: .create)
        // Nothing in this file matters until it is complete: no journal, no syncing until the final flush.
        try connection.execute("PRAGMA journal_mode = OFF; PRAGMA synchronous = OFF; PRAGMA cache_size = -16384; PRAGMA temp_store = FILE")
        if let pages = options.maximumPageCount { try connection.execute("PRAGMA max_page_count = \(pages)") }
        try ExpressionFunctions.register(on: connection)
        try connection.attach(path: sourcePath, as: StepContext.sourceSchema, readOnly: true)
        let intermediates = try createViews(on: connection)
        let context = StepContext(
            connection: connection, step: index, source: step.source, destination: step.destination, mapping: step.mapping,
            environment: environment, tracker: tracker, batchSize: options.batchSize, policies: options.policies,
            sourceTables: intermediates.last?.tables ?? .source)
        try connection.transaction { () throws(RemodelError) in
            for sql in context.destinationLayout.createTablesSQL { try connection.execute(sql) }
        }

        let database = MigrationStepDatabase(step: step, connection: connection)
        try runHook(options.hooks.beforeStep, database, when: "before")
        try InstanceCopier(context: context).run()
        FaultPoint.afterInstances.reach()
        let indexes = context.destinationLayout.indexes.filter { !$0.isUnique }
        // Building the indexes is the end of phase 2 for progress: it can take as long as the links.
        let relationships = try RelationshipBuilder(context: context).run(followedBy: indexes)
        FaultPoint.afterRelationships.reach()
        if context.keys.needsKeyTable {
            try connection.execute("DROP TABLE \"_RemodelKeys\"")
        }
        try runHook(options.hooks.afterStep, database, when: "after")
        try connection.transaction { () throws(RemodelError) in
            for index in indexes {
                try connection.execute(index.createSQL)
                try relationships.done(index.table)
            }
        }

        // The last step's store is the one flushed before it replaces the original: start now.
        let flush = destinationPath.hasSuffix(StoreFiles.temporarySuffix) ? EarlyFlush(path: destinationPath) : nil
        defer { flush?.wait() }
        // Progress counts the rows every validation of the pass checks, its own and those of the versions passed through.
        let weights = try ValidationWeights(connection: connection, layout: context.destinationLayout)
        let rows = intermediates.map { weights.units(of: $0.step.destination, layout: $0.layout, customValidations: 0).total }
            + [weights.units(of: step.destination, layout: context.destinationLayout, customValidations: options.validations.count).total]
        let phaseRows = rows.reduce(0, +)
        for (offset, intermediate) in intermediates.enumerated() {
            let next = offset + 1 < intermediates.count ? intermediates[offset + 1].step : step
            let implied = ImpliedChecks(version: intermediate.step.destination, next: next, nextIsPassedThrough: offset + 1 < intermediates.count)
            let progress = PassProgress(before: rows[..<offset].reduce(0, +), total: phaseRows)
            try validate(intermediate, implied: implied, weights: weights, progress: progress, on: connection)
        }
        let before = phaseRows - rows[rows.count - 1]
        var validator = MigrationValidator(
            connection: connection, version: step.destination, layout: context.destinationLayout,
            integrityCheck: options.integrityCheck, customValidations: options.validations
        ) { (completed: Int, _: Int, entity: String?) throws(RemodelError) in
            try tracker.report(.validation, step: index, entity: entity, completed: before + completed, total: phaseRows)
        }
        validator.weights = weights
        let failures = try validator.run()
        if !failures.isEmpty {
            throw Self.validationError(failures, step: step)
        }
        try flush?.finish()
        FaultPoint.afterValidation.reach()
        try connection.transaction { () throws(RemodelError) in
            for index in context.destinationLayout.indexes where index.isUnique { try connection.execute(index.createSQL) }
            try writeMetadata(on: connection, sourcePath: sourcePath)
        }
        FaultPoint.afterMetadata.reach()
        try connection.detach(StepContext.sourceSchema)
    }

    /// A version the pass goes through, as views.
    private struct Intermediate {
        var step: MigrationStep
        var tables: TableReferences
        var layout: StoreLayout
    }

    /// Where one validation's rows fall among the pass's phase 3.
    private struct PassProgress {
        var before: Int
        var total: Int
    }

    /// Checks a version passed through against its model's rules, on its views.
    private func validate(
        _ intermediate: Intermediate, implied: ImpliedChecks, weights: ValidationWeights, progress: PassProgress,
        on connection: SQLiteConnection
    ) throws(RemodelError) {
        let tracker = tracker
        let index = index
        var validator = MigrationValidator(
            connection: connection, version: intermediate.step.destination, layout: intermediate.layout, tables: intermediate.tables,
            customValidations: []
        ) { (completed: Int, _: Int, entity: String?) throws(RemodelError) in
            try tracker.report(.validation, step: index, entity: entity, completed: progress.before + completed, total: progress.total)
        }
        validator.implied = implied
        validator.weights = weights
        let failures = try validator.run()
        if !failures.isEmpty { throw Self.validationError(failures, step: intermediate.step) }
    }

    /// Creates the views of every step passed through, each reading the previous one's.
    private func createViews(on connection: SQLiteConnection) throws(RemodelError) -> [Intermediate] {
        guard !passedThrough.isEmpty else { return [] }
        let parameters = try ViewParameters(connection: connection)
        var intermediates: [Intermediate] = []
        for (offset, through) in passedThrough.enumerated() {
            let context = StepContext(
                connection: connection, step: index, source: through.source, destination: through.destination,
                mapping: through.mapping, environment: environment, tracker: tracker, batchSize: options.batchSize,
                sourceTables: intermediates.last?.tables ?? .source)
            let tables = try IntermediateViews.create(for: context, number: offset + 1, parameters: parameters)
            intermediates.append(Intermediate(step: through, tables: tables, layout: context.destinationLayout))
        }
        return intermediates
    }

    private func writeMetadata(on connection: SQLiteConnection, sourcePath: String) throws(RemodelError) {
        var history: [StoreMetadata.HistoryEntry] = []
        if case .success(let source) = try StoreMetadata.read(from: try SQLiteConnection(path: sourcePath, mode: .readOnly)) {
            history = source.history
        }
        for done in passedThrough + [step] {
            let how = done.mapping.files.isEmpty ? "inferred" : done.mapping.files.joined(separator: ", ")
            history.append(StoreMetadata.entry(from: done.source.name, to: done.destination.name, mapping: how))
        }
        try StoreMetadata(modelName: modelName, version: step.destination, history: history).write(to: connection)
    }

    private func runHook(
        _ hook: (@Sendable (MigrationStepDatabase) throws -> Void)?, _ database: MigrationStepDatabase, when: String
    ) throws(RemodelError) {
        guard let hook else { return }
        do {
            try hook(database)
        } catch {
            throw RemodelError(
                .validationFailed, "the hook run \(when) step \(step.source.name) → \(step.destination.name) failed: \(error)",
                cause: error as? RemodelError)
        }
    }

    static func validationError(_ failures: [ValidationFailure], step: MigrationStep) -> RemodelError {
        let lines = failures.map { "  - \($0)" }.joined(separator: "\n")
        var error = RemodelError(
            .validationFailed,
            "the data migrated from \(step.source.name) to \(step.destination.name) breaks the model's rules, so the store was left as it was:\n\(lines)")
        error.entity = failures.first?.entity
        error.property = failures.first?.property
        error.primaryKey = failures.first?.primaryKey
        return error
    }
}
