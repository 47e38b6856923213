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
    /// Plans shared by the stores of a fleet (mapping files read once, each source version planned
    /// once); `nil` plans every store afresh.
    package var plans: MigrationPlanCache?

    /// Creates a migrator.
    public init(bundle: ModelBundle, options: MigrationOptions = MigrationOptions()) {
        self.bundle = bundle
        self.options = options
    }

    /// Plans the migration of a store without changing anything.
    /// - Throws: ``/RemodelModel/RemodelError``: ``StoreInspection/refusal``'s code when the file is not an
    ///   older or current store of this model, ``/RemodelModel/RemodelError/Code/migrationNotPlannable`` when a step
    ///   cannot be inferred and has no mapping file, ``/RemodelModel/RemodelError/Code/invalidMapping`` for a wrong
    ///   mapping file.
    ///
    /// It writes nothing, in the store or beside it: see ``StoreInspector`` for how a store in WAL mode
    /// or with an unfinished transaction is read.
    public func plan(storeAt path: String) throws(RemodelError) -> MigrationPlan {
        guard FileSystem.exists(atPath: path) else { throw Self.missingStore(path) }
        return try StoreSnapshot.reading(path) { (snapshot) throws(RemodelError) in
            try plan(for: try StoreInspector.inspect(snapshot, bundle: bundle), store: try snapshot.connection())
        }
    }

    /// How a plan runs: the step numbers (1-based) of each pass over the store. Consecutive steps share a
    /// pass unless Swift code runs in them (see ``MigrationOptions/composesSteps``).
    public func passes(of plan: MigrationPlan) -> [ClosedRange<Int>] {
        plan.passes.isEmpty && !plan.steps.isEmpty
            ? StepComposition.passes(of: plan.steps, options: options) : plan.passes
    }

    /// One line saying how a plan runs, e.g. `Runs as 1 pass over the store (steps 1–3 in one).`
    public func passSummary(of plan: MigrationPlan) -> String {
        let passes = passes(of: plan)
        let composed = passes.filter { $0.count > 1 }.map { "steps \($0.lowerBound)–\($0.upperBound) in one" }
        let detail = composed.isEmpty ? "" : " (\(composed.joined(separator: ", ")))"
        return "Runs as \(passes.count) pass\(passes.count == 1 ? "" : "es") over the store\(detail)."
    }

    /// Plans from a version, dropping first-step problems that cannot bite the store on `store`, and rehearses
    /// what the app added to it. `countsLosses` reads how many values the first step drops, for a plan shown
    /// before migrating (the migration itself counts them as each step runs).
    func makePlan(from version: String, store: SQLiteConnection, countsLosses: Bool = true) throws(RemodelError)
        -> MigrationPlan
    {
        let plans = self.plans ?? MigrationPlanCache(bundle: bundle, options: options)
        var plan = try plans.plan(from: version) { (step: StepPlan) throws(RemodelError) -> MappingModel in
            try ProblemScreen(connection: store, tables: .destination).screen(
                step.step.mapping, layout: step.sourceLayout)
        }
        try options.checkClassPolicies(plan)
        (plan.rehearsals, plan.carried) = try PlanRehearsal.run(plan.stepPlans, on: store)
        for (offset, step) in plan.stepPlans.enumerated() {
            for loss in step.losses {
                // The first step's losses are counted on the store; a later step's only when it runs.
                plan.losses.append(
                    offset == 0 && countsLosses
                        ? try loss.counted(on: store, layout: step.sourceLayout, tables: .destination) : loss)
            }
            if offset == 0 && countsLosses {
                plan.losses += try NilValueCount.counted(
                    step, on: store, tables: .destination, environment: ExpressionEnvironment())
            }
        }
        return plan
    }

    static func migratableVersion(_ inspection: StoreInspection) throws(RemodelError) -> String {
        switch inspection.state {
        case .older(let version, _), .current(let version):
            return version
        case .missing:
            throw missingStore(inspection.path)
        default:
            throw inspection.refusal(or: .incompatibleStore)
        }
    }

    /// The error for a store that is not there: nothing to migrate.
    private static func missingStore(_ path: String) -> RemodelError {
        RemodelError(
            .storeMissing,
            "there is no store at \(path), so there is nothing to migrate; create one with `remodel create` (or let Store.launch create it at the current version)",
            path: path)
    }

    /// Migrates the store at `path` to the target version, reporting progress to `progress`.
    ///
    /// The migration runs on a thread of its own, which also calls `progress`: the calling task is
    /// suspended meanwhile and holds no thread of Swift's cooperative pool. Cancelling the task cancels
    /// the migration and leaves the store as it was.
    /// - Returns: What was done; a store already at the target is left alone (0 steps).
    /// - Throws: ``/RemodelModel/RemodelError`` naming the file, entity, object and property at fault; the
    ///   store is then exactly as it was.
    @discardableResult
    public func migrate(
        storeAt path: String, progress: @escaping @Sendable (MigrationProgress) -> Void = { _ in }
    ) async throws(RemodelError) -> MigrationReport {
        try await migrate(storeAt: path, cancellation: CancellationFlag(), observer: progress)
    }

    /// The migration on a thread of its own, cancelled by `cancellation` or by cancelling the calling task.
    /// `inspected`: the caller has just inspected the store and found it migratable (a launch), so the
    /// quick check before the lock is not made twice; the version is read again under the lock all the same.
    func migrate(
        storeAt path: String, inspected: StoreInspection? = nil, cancellation: CancellationFlag,
        observer: @escaping @Sendable (MigrationProgress) -> Void
    ) async throws(RemodelError) -> MigrationReport {
        let migrator = self
        // The stack a process's main thread has: hostile models and expressions recurse deep.
        let migration = BackgroundThread(stackSize: 8 << 20) { () throws(RemodelError) -> MigrationReport in
            try migrator.run(storeAt: path, inspected: inspected, cancellation: cancellation, observer: observer)
        }
        return try await withTaskCancellationHandler {
            await migration.value()
        } onCancel: {
            cancellation.cancel()
        }.get()
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

    /// The migration itself, synchronous on the calling thread. `inspected` is what the caller found at `path`
    /// just before (``Store/launch(at:bundle:seed:options:progress:)-(String,_,_,_,_)``), which stands for the
    /// inspection before the lock.
    package func run(
        storeAt path: String, inspected: StoreInspection? = nil, cancellation: CancellationFlag,
        observer: @escaping @Sendable (MigrationProgress) -> Void
    ) throws(RemodelError) -> MigrationReport {
        let started = MonotonicClock.seconds()
        let files = try StoreFiles(path: path)
        let heartbeat = MigrationHeartbeat()
        let tracker = ProgressTracker(cancellation: cancellation) { progress in
            heartbeat.publish(fraction: progress.fraction)
            observer(progress)
        }
        // One migration of a store at a time, across processes: taken before anything reads the store, so a
        // migration waiting here holds no connection that would keep the one under way from replacing it.
        var waited = false
        let migrationLock = try MigrationLock.acquire(
            files.lockPath, storePath: path, silenceMilliseconds: options.lockTimeoutMilliseconds,
            heartbeat: heartbeat
        ) { (holder) throws(RemodelError) in
            waited = true
            try tracker.reportWaiting(otherFraction: holder?.fraction)
        }
        defer { migrationLock?.release() }
        if let report = try checkBeforeLocking(
            path, inspected: waited ? nil : inspected, started: started, tracker: tracker)
        {
            // What an interrupted run left is this migration's to remove: no other can run while it holds the lock.
            if migrationLock != nil { files.removeLeftovers() }
            return report
        }
        try tracker.report(.planning, pass: 0, entity: nil, completed: 0, total: 1, force: true)

        let lock = try StoreLock(files: files, timeoutMilliseconds: options.lockTimeoutMilliseconds)
        defer { lock.release() }
        files.removeLeftovers()
        let plan = try plan(under: lock)
        tracker.planned(passes: plan.passes)
        try tracker.report(.planning, pass: 0, entity: nil, completed: 1, total: 1, force: true)
        guard !plan.steps.isEmpty else {
            try tracker.report(.finished, pass: 1, entity: nil, completed: 1, total: 1, force: true)
            return MigrationReport(
                path: path, sourceVersion: plan.sourceVersion, targetVersion: plan.targetVersion, steps: 0,
                objects: 0, seconds: MonotonicClock.seconds() - started, backupPath: nil,
                rolledBackUnfinishedTransaction: lock.rolledBackUnfinishedTransaction)
        }

        // Every file the migration writes beside the store must be one it makes or made (DESIGN.md, Migration 14).
        try files.requireOwnFiles(keepingBackup: keepsBackup(plan))
        try DiskSpace.check(storePath: files.target, passes: plan.passes.count, available: options.availableBytes)
        FaultPoint.planned.reach()
        let built = try buildAndReplace(plan, files: files, lock: lock, tracker: tracker)
        files.removeLeftovers()
        try tracker.report(.finished, pass: plan.passes.count, entity: nil, completed: 1, total: 1, force: true)
        return report(of: plan, built: built, files: files, lock: lock, seconds: MonotonicClock.seconds() - started)
    }

    /// Fails fast, before taking the store's lock, on what is not a store of this model, and stops at once at a
    /// store already at the target (another process may just have migrated it): its report. A caller that has just
    /// inspected the store (a launch) hands what it found (`inspected`), unless the migration waited for another.
    /// A store another process is writing is not refused here: the lock waits for the writer, then reads the
    /// version again.
    private func checkBeforeLocking(
        _ path: String, inspected: StoreInspection?, started: Double, tracker: ProgressTracker
    ) throws(RemodelError) -> MigrationReport? {
        if let inspected {
            try checkMigratable(inspected)
            return nil
        }
        do {
            let inspection = try StoreInspector.inspect(path: path, bundle: bundle)
            try checkMigratable(inspection)
            return try alreadyAtTarget(inspection, started: started, tracker: tracker)
        } catch  where error.code == .locked {
            return nil
        }
    }

    /// Builds the migrated store from the plan and puts it in the original's place; a failure removes what it made.
    private func buildAndReplace(_ plan: MigrationPlan, files: StoreFiles, lock: StoreLock, tracker: ProgressTracker)
        throws(RemodelError) -> Built
    {
        let environment = ExpressionEnvironment()
        do {
            var built = try build(
                plan, passes: plan.passes, files: files, lock: lock, environment: environment, tracker: tracker)
            // A WAL store another connection wrote to in the moment it left WAL mode is built again, from the
            // store as it is now: the lock, in rollback-journal mode by then, lets no write pass any more.
            while try !lock.replaceStore(
                with: files.temporaryPath, backupPath: keepsBackup(plan) ? files.backupPath : nil)
            {
                let again = try self.plan(under: lock)
                built = try build(
                    again, passes: again.passes, files: files, lock: lock, environment: environment, tracker: tracker)
            }
            return built
        } catch {
            files.removeLeftovers()
            // Errors about the data (validation, cancellation) know no file of their own, and an error on one of the
            // migration's own files (the store being built, a step's store) names a file the user never sees: name
            // the store.
            var error = error
            if error.path == nil && error.location == nil { error.path = files.path }
            if let named = error.path, named.hasPrefix(files.target + ".remodel-") { error.path = files.path }
            throw error
        }
    }

    /// What the migration did.
    private func report(of plan: MigrationPlan, built: Built, files: StoreFiles, lock: StoreLock, seconds: Double)
        -> MigrationReport
    {
        var report = MigrationReport(
            path: files.path, sourceVersion: plan.sourceVersion, targetVersion: plan.targetVersion,
            steps: plan.steps.count, objects: built.objects, seconds: seconds,
            backupPath: keepsBackup(plan) ? files.backupPath : nil, losses: built.losses,
            rolledBackUnfinishedTransaction: lock.rolledBackUnfinishedTransaction)
        report.isDowngrade = plan.isDowngrade
        (report.rebuiltIndexes, report.unfiredTriggers) = AppUpkeep.report(plan.rehearsals.map(\.upkeep))
        report.writtenTables = built.writtenTables
        report.tableCount = built.tableCount
        return report
    }

    /// The report for a store found at the target version, with nothing to roll back: it needs no lock on the
    /// store (a WAL store another process has open, as an app does once it migrated it, is left alone).
    private func alreadyAtTarget(_ inspection: StoreInspection, started: Double, tracker: ProgressTracker)
        throws(RemodelError) -> MigrationReport?
    {
        let target = options.targetVersion ?? bundle.currentVersionName
        guard !inspection.hasUnfinishedTransaction else { return nil }
        switch inspection.state {
        case .current(let version) where version == target, .older(let version, _) where version == target:
            try tracker.report(.planning, pass: 0, entity: nil, completed: 1, total: 1, force: true)
            try tracker.report(.finished, pass: 1, entity: nil, completed: 1, total: 1, force: true)
            return MigrationReport(
                path: inspection.path, sourceVersion: version, targetVersion: version, steps: 0, objects: 0,
                seconds: MonotonicClock.seconds() - started, backupPath: nil, rolledBackUnfinishedTransaction: false)
        default:
            return nil
        }
    }

    /// Reads the store's version again under the lock (another process may have migrated it meanwhile)
    /// and plans from it, through the lock's connection: opening the file any other way would drop the lock.
    /// The plan carries the store's history as read there: no pass reads the store's metadata again.
    private func plan(under lock: StoreLock) throws(RemodelError) -> MigrationPlan {
        let inspection = try lock.inspect(bundle: bundle)
        var plan = try lock.withConnection { (connection) throws(RemodelError) -> MigrationPlan in
            try self.plan(for: inspection, store: connection, countsLosses: false, readsRebuiltTables: false)
        }
        plan.history = lock.metadata?.history
        return plan
    }

    /// What the passes built: the objects in the tables they wrote, those tables, and what the steps dropped.
    private struct Built {
        var objects = 0
        var writtenTables: [String] = []
        var tableCount = 0
        var losses: [DataLoss] = []
    }

    /// Runs the plan's passes from the store into the temporary store; counts its objects, and what the steps dropped.
    private func build(
        _ plan: MigrationPlan, passes: [ClosedRange<Int>], files: StoreFiles, lock: StoreLock,
        environment: ExpressionEnvironment,
        tracker: ProgressTracker
    ) throws(RemodelError) -> Built {
        var sourcePath = files.path
        var losses: [DataLoss] = []
        var history = plan.history
        // SQLite's check of the store's own file runs on a thread of its own beside the passes, which carry its
        // pages byte for byte: each pass then checks the schema and the tables it wrote, not the whole copy.
        let originalCheck = options.originalFileCheck.map {
            ConcurrentStoreChecks(path: files.target, probes: [], pragmas: [$0])
        }
        defer { originalCheck?.stop() }
        for (offset, steps) in passes.enumerated() {
            let number = offset + 1
            let destinationPath = number == passes.count ? files.temporaryPath : files.stepPath(steps.upperBound)
            let indices = (steps.lowerBound - 1)..<steps.upperBound
            let stepPlans = Array(plan.stepPlans[indices])
            let executor = PassExecutor(
                steps: stepPlans, rehearsals: Array(plan.rehearsals[indices]), number: number, modelName: bundle.name,
                environment: environment, tracker: tracker,
                options: stepPlans.count == 1 ? options.forStep(stepPlans[0].step) : options,
                writtenTables: plan.writtenTables[offset], history: history)
            let from = sourcePath
            let pass = try executor.run(sourcePath: sourcePath, destinationPath: destinationPath) {
                (destination: String) throws(RemodelError) -> SourceCensus? in
                // The original is copied through the lock's own descriptors; an earlier pass's file is this run's own.
                if from == files.path {
                    // The tables the pass drops from the copy are copied last, then read at once (see below).
                    let dropped = stepPlans.first.map {
                        StoreRewrite.tablesNotCarried(source: $0.sourceLayout, changes: $0.changes)
                    }
                    try lock.copyStore(to: destination, tablesLast: dropped ?? [])
                    return try checkRebuiltRowsPlaceable(plan, lock: lock, path: files.path)
                } else {
                    try FileCopy.copy(from, to: destination)
                    return nil
                }
            }
            losses += pass.losses
            history = pass.history
            FaultPoint.afterStep.reach()
            if sourcePath != files.path { StoreFiles.remove(sourcePath) }
            sourcePath = destinationPath
        }
        if let originalCheck {
            let findings = try originalCheck.results().findings
            if !findings.isEmpty { throw Self.damagedStoreError(findings) }
        }
        try tracker.report(.replace, pass: passes.count, entity: nil, completed: 0, total: 1, force: true)
        // Counted in the finished store before it replaces the original: afterwards others may be using it. Only the
        // tables the migration wrote are read (their pages are the ones just written): a step costs what it changes.
        let counting = try SQLiteConnection(path: files.temporaryPath, mode: .readOnly)
        // `count(*)` reads each page of a table once: a cache would only hold them.
        try counting.execute("PRAGMA cache_size = \(PageCaches.scanPages)")
        let tables = plan.stepPlans.last?.destinationLayout.tables.map(\.name) ?? []
        let writtenTables = tables.filter(plan.tablesWritten.contains)
        let objects = try Self.objectCount(counting, tables: writtenTables)
        try tracker.checkCancellation()
        return Built(objects: objects, writtenTables: writtenTables, tableCount: tables.count, losses: losses)
    }

    /// What SQLite's check of the store being migrated found.
    private static func damagedStoreError(_ findings: [String]) -> RemodelError {
        let lines = findings.prefix(MigrationValidator.offendersInAll).map { "  - \($0) [integrity-check]" }.joined(
            separator: "\n")
        return RemodelError(
            .validationFailed,
            "SQLite's check of the store found it damaged, so it was left as it was; recover its data (the sqlite3 shell's "
                + "`.recover`) or restore a backup, then migrate again:\n\(lines)")
    }

    /// The objects in `tables` (hierarchy tables).
    private static func objectCount(_ connection: SQLiteConnection, tables: [String]) throws(RemodelError) -> Int {
        var count = 0
        for table in tables {
            if case .integer(let rows)? = try connection.scalar("SELECT count(*) FROM \(quoteIdentifier(table))") {
                count += Int(rows)
            }
        }
        return count
    }
}

extension Migrator {
    /// The plan for a store so inspected, read on `store`: a downgrade from the model it carries when it is
    /// newer and ``MigrationOptions/downgrade`` allows one, else the plan from its version along the bundle.
    ///
    /// `readsRebuiltTables: false` leaves the search for rows no entity can place in tables read whole to
    /// ``checkRebuiltRowsPlaceable(_:lock:path:)``, which a migration runs once the store is copied.
    func plan(
        for inspection: StoreInspection, store: SQLiteConnection, countsLosses: Bool = true,
        readsRebuiltTables: Bool = true
    ) throws(RemodelError) -> MigrationPlan {
        // A store of one configuration is planned along the bundle restricted to it.
        if let configuration = inspection.configuration, configuration != bundle.configurationName {
            var configured = Migrator(bundle: try bundle.restricted(toConfiguration: configuration), options: options)
            configured.plans = plans?.configurationName == configured.bundle.configurationName ? plans : nil
            return try configured.plan(
                for: inspection, store: store, countsLosses: countsLosses, readsRebuiltTables: readsRebuiltTables)
        }
        var plan: MigrationPlan
        if options.downgrade != .refuse, goesDown(inspection) {
            plan = try DowngradePlanner(bundle: bundle, options: options).plan(store: store, path: inspection.path)
        } else {
            plan = try makePlan(from: try Self.migratableVersion(inspection), store: store, countsLosses: countsLosses)
        }
        // How the plan runs, worked out once: its passes and the tables each writes.
        plan.passes = StepComposition.passes(of: plan.steps, options: options)
        plan.writtenTables = plan.passes.map { steps in
            PassExecutor.writtenTables(of: Array(plan.stepPlans[(steps.lowerBound - 1)..<steps.upperBound]))
        }
        // One pass writes what the migration writes.
        plan.tablesWritten = Set(
            plan.passes.count == 1 ? plan.writtenTables[0] : PassExecutor.writtenTables(of: plan.stepPlans))
        let scope: UnplaceableRows.Scope =
            options.checksEverything ? .all : readsRebuiltTables ? .indexedAnd(plan.tablesRebuiltFrom) : .indexed
        try checkEveryRowPlaceable(plan, store: store, path: inspection.path, scope: scope)
        return plan
    }

    /// Searches the tables the plan rebuilds that only a whole read can search (those without an index on
    /// `_entity`) for rows no entity can place, on the lock's connection. A migration runs it just after copying
    /// the store, whose pages of those tables it copies last (``StoreLock/copyStore(to:tablesLast:)``): the
    /// search, the step's counts and phase 1 then read them one after the other, while the file cache still
    /// holds them, instead of once before the copy and again after it on a store larger than the cache.
    /// - Returns: What that read counted besides (``SourceCensus``), for the first step's counts; nil when
    ///   everything was searched at planning (``MigrationOptions/checksEverything``).
    func checkRebuiltRowsPlaceable(_ plan: MigrationPlan, lock: StoreLock, path: String) throws(RemodelError)
        -> SourceCensus?
    {
        guard !options.checksEverything, let first = plan.stepPlans.first else { return nil }
        let census = SourceCensus(losses: first.losses, layout: first.sourceLayout)
        try lock.withConnection { (store) throws(RemodelError) in
            try checkEveryRowPlaceable(
                plan, store: store, path: path, scope: .indexedAnd(plan.tablesRebuiltFrom), census: census)
        }
        return census
    }

    /// Refuses a store whose rows a step would read entity by entity while some `_entity` names no entity it
    /// can place: they would be left out of the migrated store without a word. Tables with an `_entity` index
    /// are searched in it (the inspection did, too); a table of one entity is read whole only when the plan
    /// rebuilds it, or everything is checked (``MigrationOptions/checksEverything``).
    private func checkEveryRowPlaceable(
        _ plan: MigrationPlan, store: SQLiteConnection, path: String, scope: UnplaceableRows.Scope,
        census: SourceCensus? = nil
    ) throws(RemodelError) {
        guard let first = plan.stepPlans.first else { return }
        // A table read whole here is read once, page by page, on the connection that holds the lock for the whole
        // migration: with SQLite's default cache it kept 2 MiB of those pages to the end (the benchmark change's
        // Person table), so it reads through a scan's few pages, then gets its own size back.
        let cacheSize = try store.scalar("PRAGMA cache_size") ?? .null
        try store.execute("PRAGMA cache_size = \(PageCaches.scanPages)")
        defer {
            if case .integer(let size) = cacheSize { try? store.execute("PRAGMA cache_size = \(size)") }
        }
        let drifts = try UnplaceableRows.drifts(on: store, layout: first.sourceLayout, scope: scope, census: census)
        guard !drifts.isEmpty else { return }
        throw StoreInspection(
            path: path, state: .schemaDrift(version: plan.sourceVersion, drifts: drifts), modelName: bundle.name,
            currentVersionName: bundle.currentVersionName, migrationSteps: nil
        ).refusal(or: .schemaDrift)
    }

    /// Whether a store so inspected is migrated down: newer than the bundle, or at a version of it after the target.
    private func goesDown(_ inspection: StoreInspection) -> Bool {
        switch inspection.state {
        case .newer:
            return true
        case .current(let version), .older(let version, _):
            guard let target = options.targetVersion, let to = bundle.index(ofVersion: target),
                let from = bundle.index(ofVersion: version)
            else { return false }
            return to < from
        default:
            return false
        }
    }

    /// Throws unless a store so inspected can be migrated with these options (a newer store can, when a
    /// downgrade is allowed: whether it goes down is decided by its plan, under the lock).
    func checkMigratable(_ inspection: StoreInspection) throws(RemodelError) {
        if case .newer = inspection.state, options.downgrade != .refuse { return }
        _ = try Self.migratableVersion(inspection)
    }

    /// Whether the migration keeps the original as `<store>.remodel-backup`: when asked to, and always for a
    /// downgrade that may drop data (``DowngradePolicy/allowLoss``).
    func keepsBackup(_ plan: MigrationPlan) -> Bool {
        options.keepBackup || (plan.isDowngrade && options.downgrade == .allowLoss)
    }
}
