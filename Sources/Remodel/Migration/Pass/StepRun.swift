/// One step of a pass, on the pass's copy of the store: prepare the schema, phase 1 (instances), phase 2
/// (relationships), the indexes, phase 3 (checks). Each stage hands the next what it found.
struct StepRun {
    let plan: StepPlan
    let rehearsal: SchemaRehearsal
    /// Whether an earlier step of the pass ran on the copy: this one reads what it left there.
    let chained: Bool
    /// Whether this step ends the pass: SQLite checks what the whole pass wrote here.
    let isLast: Bool
    /// What the step is given of its pass.
    let pass: PassContext
    let connection: SQLiteConnection
    let destinationPath: String

    private var step: MigrationStep { plan.step }
    private var options: MigrationOptions { pass.options }

    /// Runs the step. - Returns: What it dropped on purpose, counted on the data it got, then the values its
    /// conversions, expressions and policies turned into nil.
    func run() throws(RemodelError) -> [DataLoss] {
        let (context, rewrite, chain, losses) = try prepare()
        let database = MigrationStepDatabase(step: step, connection: connection)
        try runHook(options.hooks.beforeStep, database, when: "before")
        let copied = try InstanceCopier(context: context).run()
        FaultPoint.afterInstances.reach()
        let (indexes, uniqueIndexes) = try indexesToBuild()
        let relationships = RelationshipBuilder(context: context, copied: copied.toOnes)
        // The rows each index build weighs, from the counts phase 2 asks anyway (each table is counted once).
        let indexWeights = try relationships.progressRows(of: indexes + uniqueIndexes)
        try relationships.run()
        FaultPoint.afterRelationships.reach()
        try rewrite.copyAppColumns(keys: plan.keys, from: context.sourceTables)
        if plan.keys.needsKeyTable {
            try connection.execute("DROP TABLE IF EXISTS main.\(quoteIdentifier(KeyPlan.keyTable))")
        }
        try rewrite.finishCarriedTables()
        if let chain { try rewrite.dropSetAside(chain) }
        try runHook(options.hooks.afterStep, database, when: "after")
        let provenUnique = try PageCaches.buildingIndexes(on: connection) { () throws(RemodelError) in
            try IndexBuild(
                connection: connection, plain: indexes, unique: uniqueIndexes, weights: indexWeights
            ).run(pass: pass.number, tracker: pass.tracker)
        }
        // The derived attributes of the step's version, computed on its rows (the indexes in place), so that its
        // checks and the next step read them as the store would keep them.
        try connection.transaction { () throws(RemodelError) in
            try DerivedMaintenance.recompute(plan.destinationLayout, on: connection)
        }
        try check(provenUnique: provenUnique)
        FaultPoint.afterValidation.reach()
        try PageCaches.buildingIndexes(on: connection) { () throws(RemodelError) in
            try connection.transaction { () throws(RemodelError) in
                // Built before phase 3 (UniqueIndexBuild) but for those that met duplicates, which phase 3 names. One
                // it did not search (a carried table whose store lacked the index) fails here rather than passing
                // without it.
                for index in plan.destinationLayout.indexes where index.isUnique {
                    try connection.execute(index.createSQL)
                }
            }
        }
        return losses + DataLoss.merged(copied.losses)
    }

    /// Screens the step's problems and counts its losses on the data it gets, then changes the schema.
    private func prepare() throws(RemodelError) -> (StepContext, StoreRewrite, StoreRewrite.ChainedSource?, [DataLoss])
    {
        var sources: TableReferences = chained ? .destination : .source
        try screenProblems(on: sources)
        var losses: [DataLoss] = []
        // The first step reads the store the census counted; a later one reads what the step before it left.
        let census = chained ? nil : pass.census
        for loss in plan.losses {
            losses.append(
                try loss.counted(on: connection, layout: plan.sourceLayout, tables: sources, census: census))
        }
        let rewrite = StoreRewrite(
            connection: connection, source: plan.sourceLayout, destination: plan.destinationLayout,
            changes: plan.changes,
            app: rehearsal.app, rehearsal: rehearsal, chained: chained)
        var chain = chained ? try rewrite.setAside() : nil
        if chained { FaultPoint.afterSetAside.reach() }
        try rewrite.prepare()
        if var read = chain {
            try rewrite.readCarriedTables(&read)
            chain = read
            sources = read.tables
        }
        FaultPoint.afterSchema.reach()
        let context = StepContext(
            connection: connection, pass: pass.number, plan: plan, environment: pass.environment, tracker: pass.tracker,
            batchSize: options.batchSize, policies: options.policies, sourceTables: sources, census: census)
        return (context, rewrite, chain, losses)
    }

    /// The indexes to build: those of rebuilt tables, and those a carried table does not have yet.
    private func indexesToBuild() throws(RemodelError) -> (plain: [StoreLayout.Index], unique: [StoreLayout.Index]) {
        let existing = Set(
            try connection.rows("SELECT name FROM main.sqlite_master WHERE type = 'index'").compactMap {
                row -> SQLName? in
                if case .text(let name) = row[0] { return SQLName(name) }
                return nil
            })
        let missing = plan.destinationLayout.indexes.filter { !existing.contains(SQLName($0.name)) }
        return (missing.filter { !$0.isUnique }, missing.filter(\.isUnique))
    }

    /// Phase 3: the step's rules on what it wrote; SQLite's check of what the pass wrote on its last step.
    private func check(provenUnique: [StoreLayout.Index]) throws(RemodelError) {
        // The last step's store is the one flushed before it replaces the original: start now.
        let flush =
            isLast && destinationPath.hasSuffix(StoreFiles.temporarySuffix)
                && EarlyFlush.isWorthwhile(for: destinationPath)
            ? EarlyFlush(path: destinationPath) : nil
        defer { flush?.wait() }
        let scope = options.checksWhatPassesWrite ? plan.checks : nil
        // SQLite's check of the file covers what the whole pass wrote, once, at its end (where the store being
        // migrated is checked whole beside the passes, each pass checks what it wrote); the app's foreign keys
        // are checked on what each step wrote, so that a row a step leaves dangling is named with that step.
        let pragmas =
            isLast
            ? options.integrityCheck.pragmas(
                writtenTables: pass.writtenTables, wholeFile: options.originalFileCheck == nil) : []
        let written = plan.changes.writtenTables(of: plan.destinationLayout)
        let (tracker, number, step) = (pass.tracker, pass.number, step)
        let validator = MigrationValidator(
            connection: connection, version: step.destination, layout: plan.destinationLayout, scope: scope,
            integrityPragmas: pragmas,
            writtenTables: written, checksWholeFile: !options.checksWhatPassesWrite,
            provenUnique: provenUnique,
            customValidations: options.validations.map { validation in
                { (connection: SQLiteConnection) throws -> [ValidationFailure] in
                    try validation(MigrationStepDatabase(step: step, connection: connection))
                }
            },
            weights: try ValidationWeights(
                connection: connection, layout: plan.destinationLayout, skipping: scope?.untouched ?? [])
        ) { (completed: Int, total: Int, entity: String?) throws(RemodelError) in
            try tracker.report(.validation, pass: number, entity: entity, completed: completed, total: total)
        }
        let failures = try validator.run()
        if !failures.isEmpty { throw Self.validationError(failures, step: step) }
        try flush?.finish()
    }

    /// Stops the step when its problems that depend on the data bite the data it gets. (The plan's first step was
    /// screened when it was planned; later ones could not be, since earlier steps may fill the nils they would meet.)
    private func screenProblems(on tables: TableReferences) throws(RemodelError) {
        guard !step.mapping.problems.isEmpty else { return }
        let screened = try ProblemScreen(connection: connection, tables: tables).screen(
            step.mapping, layout: plan.sourceLayout)
        guard let first = screened.problems.first else { return }
        let lines = screened.problems.map { "\(plan.name): \($0)" }
        var error = RemodelError(
            .migrationNotPlannable,
            "cannot migrate \(pass.modelName) from \(step.source.name) to \(step.destination.name) with the data this step gets:\n"
                + lines.joined(separator: "\n"))
        error.entity = first.entity
        error.property = first.property
        throw error
    }

    private func runHook(
        _ hook: (@Sendable (MigrationStepDatabase) throws -> Void)?, _ database: MigrationStepDatabase, when: String
    ) throws(RemodelError) {
        guard let hook else { return }
        do {
            try hook(database)
        } catch {
            throw RemodelError(
                .validationFailed,
                "the hook run \(when) step \(step.source.name) → \(step.destination.name) failed: \(error)",
                cause: error)
        }
    }
}

extension StepRun {
    /// The error of a step whose data breaks rules: the rules broken, and the first offenders.
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
