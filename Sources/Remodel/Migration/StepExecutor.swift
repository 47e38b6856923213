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

    /// Builds `destinationPath` from `sourcePath`: `copy` puts a byte copy of the source there, which the
    /// step then changes in place. The destination is removed again on failure.
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
            let explained = StepFailure.explained(error, copyPath: destinationPath, stepName: "\(passSource.name) → \(step.destination.name)")
            StoreFiles.remove(destinationPath)
            throw explained
        }
    }

    /// What the pass does to each table, from its source to each version it goes through, in order; the
    /// last is the version it writes.
    var storageChanges: [StorageChanges] {
        StorageChanges.cumulative(passedThrough + [step], policies: Set(options.policies.map(\.destination)))
    }

    /// The version the pass reads.
    private var passSource: ModelVersion { passedThrough.first?.source ?? step.source }

    private func build(sourcePath: String, destinationPath: String) throws(RemodelError) -> [DataLoss] {
        let connection = try SQLiteConnection(path: destinationPath, mode: .readWrite)
        // Nothing in this file matters until it is complete: no journal, no syncing until the final flush. A 4 MiB
        // cache is as fast as 16 MiB on the benchmark (within its noise) and keeps 12 MiB off the peak.
        try connection.execute("PRAGMA journal_mode = OFF; PRAGMA synchronous = OFF; PRAGMA cache_size = -4096; PRAGMA temp_store = FILE")
        if let pages = options.maximumPageCount { try connection.execute("PRAGMA max_page_count = \(pages)") }
        try ExpressionFunctions.register(on: connection)
        try connection.attach(path: sourcePath, as: StepContext.sourceSchema, readOnly: true)
        let cumulative = storageChanges
        let changes = cumulative.last ?? StorageChanges()
        let sourceLayout = StoreLayout(version: passSource)
        let app = try AppSchema.read(from: connection, schema: "main", layout: sourceLayout)
        let rehearsal = SchemaRehearsal(
            app: app, destination: StoreLayout(version: step.destination), changes: changes,
            stepName: "\(passSource.name) → \(step.destination.name)")
        try rehearsal.run()
        let intermediates = try createViews(on: connection)
        try screenProblems(intermediates, on: connection)
        let losses = try countLosses(intermediates, on: connection)
        let context = StepContext(
            connection: connection, step: index, source: step.source, destination: step.destination, mapping: step.mapping,
            environment: environment, tracker: tracker, batchSize: options.batchSize, policies: options.policies,
            sourceTables: intermediates.last?.tables ?? .source)
        context.changes = changes
        let rewrite = StoreRewrite(
            connection: connection, source: sourceLayout, destination: context.destinationLayout, changes: changes, app: app,
            rehearsal: rehearsal)
        try rewrite.prepare()
        FaultPoint.afterSchema.reach()

        let database = MigrationStepDatabase(step: step, connection: connection)
        try runHook(options.hooks.beforeStep, database, when: "before")
        let copied = try InstanceCopier(context: context).run()
        FaultPoint.afterInstances.reach()
        // The indexes to build: those of rebuilt tables, and those a carried table does not have yet.
        let existing = Set(try connection.rows("SELECT name FROM main.sqlite_master WHERE type = 'index'").compactMap { row -> String? in
            if case .text(let name) = row[0] { return name.lowercased() }
            return nil
        })
        let missing = context.destinationLayout.indexes.filter { !existing.contains($0.name.lowercased()) }
        let indexes = missing.filter { !$0.isUnique }
        let uniqueIndexes = missing.filter(\.isUnique)
        // Building the indexes is the end of phase 2 for progress: it can take as long as the links.
        let relationships = try RelationshipBuilder(context: context, copied: copied).run(followedBy: indexes + uniqueIndexes)
        FaultPoint.afterRelationships.reach()
        try rewrite.copyAppColumns(keys: context.keys)
        if context.keys.needsKeyTable {
            try connection.execute("DROP TABLE IF EXISTS \"_RemodelKeys\"")
        }
        try runHook(options.hooks.afterStep, database, when: "after")
        try connection.transaction { () throws(RemodelError) in
            for index in indexes {
                try connection.execute(index.createSQL)
                try relationships.done(index.table)
            }
        }
        let provenUnique = try UniqueIndexBuild(connection: connection).run(uniqueIndexes) { (table) throws(RemodelError) in
            try relationships.done(table)
        }

        // The last step's store is the one flushed before it replaces the original: start now.
        let flush = destinationPath.hasSuffix(StoreFiles.temporarySuffix) && EarlyFlush.isWorthwhile(for: destinationPath)
            ? EarlyFlush(path: destinationPath) : nil
        defer { flush?.wait() }
        let scopes = checkScopes(cumulative)
        // Progress counts the rows every validation of the pass checks, its own and those of the versions passed through.
        let weights = try ValidationWeights(connection: connection, layout: context.destinationLayout)
        let rows = intermediates.map { weights.units(of: $0.step.destination, layout: $0.layout, customValidations: 0).total }
            + [weights.units(of: step.destination, layout: context.destinationLayout, customValidations: options.validations.count).total]
        let phaseRows = rows.reduce(0, +)
        for (offset, intermediate) in intermediates.enumerated() {
            let next = offset + 1 < intermediates.count ? intermediates[offset + 1].step : step
            let implied = ImpliedChecks(version: intermediate.step.destination, next: next, nextIsPassedThrough: offset + 1 < intermediates.count)
            let progress = PassProgress(before: rows[..<offset].reduce(0, +), total: phaseRows)
            try validate(intermediate, implied: implied, scope: scopes[offset], weights: weights, progress: progress, on: connection)
        }
        let before = phaseRows - rows[rows.count - 1]
        var validator = MigrationValidator(
            connection: connection, version: step.destination, layout: context.destinationLayout,
            integrityCheck: options.integrityCheck,
            customValidations: options.validations.map { validation in
                { (connection: SQLiteConnection) throws -> [ValidationFailure] in
                    try validation(MigrationStepDatabase(step: step, connection: connection))
                }
            }
        ) { (completed: Int, _: Int, entity: String?) throws(RemodelError) in
            try tracker.report(.validation, step: index, entity: entity, completed: before + completed, total: phaseRows)
        }
        validator.scope = scopes.last ?? nil
        validator.weights = weights
        validator.writtenTables = changes.writtenTables(of: context.destinationLayout)
        // Where the store being migrated is checked whole beside the passes, each pass checks what it wrote.
        validator.checksWholeFile = options.originalFileCheck == nil
        validator.provenUnique = provenUnique
        let failures = try validator.run()
        if !failures.isEmpty {
            throw Self.validationError(failures, step: step)
        }
        try flush?.finish()
        FaultPoint.afterValidation.reach()
        try connection.transaction { () throws(RemodelError) in
            // Built before phase 3 (UniqueIndexBuild) but for those that met duplicates, which phase 3 names. One it
            // did not search (a carried table whose store lacked the index) fails here rather than passing without it.
            for index in context.destinationLayout.indexes where index.isUnique { try connection.execute(index.createSQL) }
            try writeMetadata(on: connection, sourcePath: sourcePath)
            try rewrite.restoreAppObjects()
        }
        FaultPoint.afterMetadata.reach()
        try connection.detach(StepContext.sourceSchema)
        return losses
    }

    /// What each step of the pass drops, counted on the data it gets.
    private func countLosses(_ intermediates: [Intermediate], on connection: SQLiteConnection) throws(RemodelError) -> [DataLoss] {
        let policies = Set(options.policies.map(\.destination))
        var losses: [DataLoss] = []
        for (offset, each) in (passedThrough + [step]).enumerated() {
            let tables = offset == 0 ? TableReferences.source : intermediates[offset - 1].tables
            let layout = offset == 0 ? StoreLayout(version: each.source) : intermediates[offset - 1].layout
            for loss in DataLoss.planned(by: each, policies: policies) {
                losses.append(try loss.counted(on: connection, layout: layout, tables: tables))
            }
        }
        return losses
    }

    /// Stops the pass when a step's problems that depend on the data bite the data as that step sees it:
    /// the pass's source for its first step, the views of the version before for the others. (The plan's
    /// first step was screened when it was planned; later ones could not be, since earlier steps may fill
    /// the nils they would meet.)
    private func screenProblems(_ intermediates: [Intermediate], on connection: SQLiteConnection) throws(RemodelError) {
        for (offset, each) in (passedThrough + [step]).enumerated() where !each.mapping.problems.isEmpty {
            let tables = offset == 0 ? TableReferences.source : intermediates[offset - 1].tables
            let screened = try ProblemScreen(connection: connection, tables: tables).screen(each.mapping, source: each.source)
            guard let first = screened.problems.first else { continue }
            let lines = screened.problems.map { "\(each.source.name) → \(each.destination.name): \($0)" }
            var error = RemodelError(
                .migrationNotPlannable,
                "cannot migrate \(modelName) from \(each.source.name) to \(each.destination.name) with the data this step gets:\n" + lines.joined(separator: "\n"))
            error.entity = first.entity
            error.property = first.property
            throw error
        }
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

    /// The checks each version of the pass needs (its steps' versions in order), or nils to check everything.
    private func checkScopes(_ cumulative: [StorageChanges]) -> [CheckScope?] {
        let steps = passedThrough + [step]
        guard options.checksWhatPassesWrite else { return steps.map { _ in nil } }
        return zip(steps, cumulative).map { step, changes in CheckScope(version: step.destination, source: passSource, changes: changes) }
    }

    /// Checks a version passed through against its model's rules, on its views.
    private func validate(
        _ intermediate: Intermediate, implied: ImpliedChecks, scope: CheckScope?, weights: ValidationWeights, progress: PassProgress,
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
        validator.scope = scope
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
                cause: error)
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
