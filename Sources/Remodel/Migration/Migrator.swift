import Foundation

/// Migrates stores of one model to a newer version: plans every step before
/// writing anything, builds the new store in a temporary file beside the
/// original (three phases per step: instances, relationships, validation),
/// and atomically replaces the original only when everything checked out.
///
/// A crash at any moment leaves the old store or the new one, whole; the next
/// run removes what an interrupted one left behind. While a migration runs,
/// no other writer can change the original; readers keep reading it.
///
/// For example:
/// ```swift
/// let bundle = try ModelBundle(contentsOf: "Models/Library.xcdatamodeld")
/// let migrator = Migrator(bundle: bundle, options: MigrationOptions(mappingsDirectory: "Mappings"))
/// let report = try await migrator.migrate(storeAt: "library.sqlite") { progress in
///     print(progress.phase, progress.fraction)
/// }
/// print("now at \(report.targetVersion)")
/// ```
public struct Migrator: Sendable {
    /// The model the store belongs to.
    public let bundle: ModelBundle
    /// How to migrate.
    public var options: MigrationOptions

    /// Creates a migrator.
    public init(bundle: ModelBundle, options: MigrationOptions = MigrationOptions()) {
        self.bundle = bundle
        self.options = options
    }

    /// Plans the migration of a store without changing anything.
    /// - Throws: ``RemodelError``: ``RemodelError/Code/incompatibleStore`` when the file is not an
    ///   older or current store of this model, ``RemodelError/Code/migrationNotPlannable`` when a step
    ///   cannot be inferred and has no mapping file, ``RemodelError/Code/invalidMapping`` for a wrong mapping file.
    public func plan(storeAt path: String) throws(RemodelError) -> MigrationPlan {
        let inspection = try StoreInspector.inspect(path: path, bundle: bundle)
        let version = try Self.migratableVersion(inspection)
        return try makePlan(from: version, store: try SQLiteConnection(path: path, mode: .readOnly))
    }

    /// How a plan runs: the step numbers (1-based) of each pass over the store. Consecutive steps
    /// share a pass where the earlier ones can be read as views (see ``MigrationOptions/composesSteps``).
    public func passes(of plan: MigrationPlan) -> [ClosedRange<Int>] {
        StepComposition.passes(of: plan.steps, options: options.composing(plan)).map { ($0.number - $0.passedThrough.count)...$0.number }
    }

    /// One line saying how a plan runs, e.g. `Runs as 1 pass over the store (steps 1–3 in one).`
    public func passSummary(of plan: MigrationPlan) -> String {
        let passes = passes(of: plan)
        let composed = passes.filter { $0.count > 1 }.map { "steps \($0.lowerBound)–\($0.upperBound) in one" }
        let detail = composed.isEmpty ? "" : " (\(composed.joined(separator: ", ")))"
        return "Runs as \(passes.count) pass\(passes.count == 1 ? "" : "es") over the store\(detail)."
    }

    /// Plans from a version, dropping first-step problems that cannot bite the store on `store`.
    private func makePlan(from version: String, store: SQLiteConnection) throws(RemodelError) -> MigrationPlan {
        let catalog = MappingCatalog(directory: options.mappingsDirectory, bundle: bundle)
        var plan = try MigrationPlanner.plan(
            bundle: bundle, from: version, to: options.targetVersion, catalog: catalog
        ) { (step: MigrationStep) throws(RemodelError) -> MappingModel in
            try ProblemScreen(connection: store, schema: "main").screen(step.mapping, source: step.source)
        }
        try MappingChecker.check(&plan)
        try options.checkClassPolicies(plan)
        return plan
    }

    static func migratableVersion(_ inspection: StoreInspection) throws(RemodelError) -> String {
        switch inspection.state {
        case .older(let version, _), .current(let version):
            return version
        case .missing:
            throw RemodelError(
                .incompatibleStore,
                "there is no store at \(inspection.path), so there is nothing to migrate; create one with `remodel create` (or let Store.launch create it at the current version)",
                path: inspection.path)
        default:
            throw RemodelError(.incompatibleStore, inspection.message, path: inspection.path)
        }
    }

    /// Migrates the store at `path` to the target version, reporting progress to `progress`.
    ///
    /// Cancelling the task cancels the migration and leaves the store as it was.
    /// - Returns: What was done; a store already at the target is left alone (0 steps).
    /// - Throws: ``RemodelError`` naming the file, entity, object and property at fault; the
    ///   store is then exactly as it was.
    public func migrate(
        storeAt path: String, progress: @escaping @Sendable (MigrationProgress) -> Void = { _ in }
    ) async throws(RemodelError) -> MigrationReport {
        try run(storeAt: path, cancellation: CancellationFlag(), observer: progress)
    }

    /// Starts a migration in a new task and returns a handle with its progress as an
    /// `AsyncSequence` and as a `Foundation.Progress` whose `cancel()` cancels it.
    ///
    /// For example:
    /// ```swift
    /// let run = migrator.start(storeAt: "library.sqlite")
    /// for await progress in run.progressUpdates { print(progress.fraction) }
    /// let report = try await run.result
    /// ```
    public func start(storeAt path: String) -> MigrationRun {
        MigrationRun(migrator: self, path: path)
    }

    /// The migration itself, synchronous on the calling task.
    func run(
        storeAt path: String, cancellation: CancellationFlag, observer: @escaping @Sendable (MigrationProgress) -> Void
    ) throws(RemodelError) -> MigrationReport {
        let started = Date()
        let files = StoreFiles(path: path)
        // Fail fast, before taking any lock, on what is not a store of this model.
        _ = try Self.migratableVersion(try StoreInspector.inspect(path: path, bundle: bundle))

        let lock = try StoreLock(path: path, timeoutMilliseconds: options.lockTimeoutMilliseconds)
        files.removeLeftovers()
        // Under the lock, read the version again: another process may have migrated the store meanwhile.
        // Read it through the lock's connection: opening the file any other way would drop the lock.
        let inspection = try lock.inspect(bundle: bundle)
        let plan = try lock.withConnection { (connection) throws(RemodelError) in
            try makePlan(from: try Self.migratableVersion(inspection), store: connection)
        }
        let passes = StepComposition.passes(of: plan.steps, options: options.composing(plan))
        // The first event, once the number of passes is known.
        let tracker = ProgressTracker(steps: passes.count, cancellation: cancellation, observer: observer)
        try tracker.report(.planning, step: 0, entity: nil, completed: 1, total: 1, force: true)
        guard !plan.steps.isEmpty else {
            lock.release()
            try tracker.report(.finished, step: 1, entity: nil, completed: 1, total: 1, force: true)
            return MigrationReport(
                path: path, sourceVersion: plan.sourceVersion, targetVersion: plan.targetVersion, steps: 0,
                objects: try Self.objectCount(path: path, version: bundle.version(named: plan.targetVersion)),
                seconds: Date().timeIntervalSince(started), backupPath: nil)
        }

        FaultPoint.planned.reach()
        let environment = ExpressionEnvironment(now: started)
        var sourcePath = path
        do {
            for (offset, pass) in passes.enumerated() {
                let number = offset + 1
                let destinationPath = number == passes.count ? files.temporaryPath : files.stepPath(pass.number)
                let executor = StepExecutor(
                    step: pass.written, passedThrough: pass.passedThrough, index: number, modelName: bundle.name,
                    environment: environment, tracker: tracker, options: options.forStep(pass.written))
                try executor.run(sourcePath: sourcePath, destinationPath: destinationPath)
                FaultPoint.afterStep.reach()
                if sourcePath != path { StoreFiles.remove(sourcePath) }
                sourcePath = destinationPath
            }
            try tracker.report(.replace, step: passes.count, entity: nil, completed: 0, total: 1, force: true)
            try tracker.checkCancellation()
            try lock.replaceStore(with: files.temporaryPath, backupPath: options.keepBackup ? files.backupPath : nil)
        } catch {
            files.removeLeftovers()
            lock.release()
            // Errors about the data (validation, cancellation) know no file of their own: name the store.
            var error = error
            if error.path == nil && error.location == nil { error.path = path }
            throw error
        }
        lock.release()
        files.removeLeftovers()
        let objects = try Self.objectCount(path: path, version: bundle.version(named: plan.targetVersion))
        try tracker.report(.finished, step: plan.steps.count, entity: nil, completed: 1, total: 1, force: true)
        return MigrationReport(
            path: path, sourceVersion: plan.sourceVersion, targetVersion: plan.targetVersion, steps: plan.steps.count,
            objects: objects, seconds: Date().timeIntervalSince(started), backupPath: options.keepBackup ? files.backupPath : nil)
    }

    private static func objectCount(path: String, version: ModelVersion?) throws(RemodelError) -> Int {
        guard let version else { return 0 }
        // Read-write, though it only reads: the last connection to a WAL store removes its `-wal` and
        // `-shm` when it closes, which a read-only one cannot do, so they would be left beside the store.
        let connection = try SQLiteConnection(path: path, mode: .readWrite)
        var count = 0
        for table in StoreLayout(version: version).tables {
            if case .integer(let rows)? = try connection.scalar("SELECT count(*) FROM \(quoteIdentifier(table.name))") {
                count += Int(rows)
            }
        }
        return count
    }
}
