import Foundation
public import Remodel

extension Migrator {
    /// Migrates many stores of this model — one per user or tenant — `jobs` at a time, each exactly
    /// as ``/Remodel/Migrator/migrate(storeAt:progress:)-(String,_)`` migrates one (same lock, same guarantees), and
    /// returns their results as they finish.
    ///
    /// The mapping files are read once and each distinct source version is planned once; what depends
    /// on a store's data is still checked against that store. A store's failure does not stop the
    /// others (unless `options` says so); a store already at the target is a success that did nothing.
    ///
    /// For example, a server migrating its tenants at boot:
    /// ```swift
    /// let migrator = Migrator(bundle: bundle, options: MigrationOptions(mappingsDirectory: "Mappings"))
    /// for await result in migrator.migrate(stores: tenantStorePaths, jobs: 4) {
    ///     guard result.outcome.isDone else {
    ///         log.error("\(result.path): \(result.reason!) \(result.error?.description ?? "")")
    ///         continue
    ///     }
    ///     markReady(result.path)
    /// }
    /// ```
    /// - Parameters:
    ///   - paths: The stores, in the order to start them (duplicates are migrated once, at the first).
    ///   - jobs: How many stores to migrate at once, each on a thread of its own (at least 1).
    ///   - options: When to stop starting new stores: a canary, a failure limit.
    ///   - progress: Each store's progress with its path, from the migrating threads.
    /// - Returns: The results, one per store, as an `AsyncSequence`; cancelling the iterating task or
    ///   calling ``FleetMigration/cancel()`` stops the fleet and leaves unfinished stores as they were.
    public func migrate(
        stores paths: [String], jobs: Int = FleetOptions.defaultJobs, options: FleetOptions = FleetOptions(),
        progress: @escaping @Sendable (_ store: String, _ progress: MigrationProgress) -> Void = { _, _ in }
    ) -> FleetMigration {
        var seen = Set<String>()
        let unique = paths.filter { seen.insert($0).inserted }
        return FleetMigration(migrator: sharingPlans(), paths: unique, jobs: jobs, options: options, progress: progress)
    }

    /// This migrator with a plan cache of its own, for the stores of one fleet.
    package func sharingPlans() -> Migrator {
        var migrator = self
        if migrator.plans == nil { migrator.plans = MigrationPlanCache(bundle: bundle, options: options) }
        return migrator
    }

    /// Migrates one store of a fleet and says what happened, never throwing.
    func migrateInFleet(
        storeAt path: String, cancellation: CancellationFlag, observer: @escaping @Sendable (MigrationProgress) -> Void
    ) -> StoreMigrationResult {
        let started = Date()
        do {
            let report = try run(storeAt: path, cancellation: cancellation, observer: observer)
            return StoreMigrationResult(
                path: path, outcome: report.steps == 0 ? .current : .migrated, reason: nil,
                sourceVersion: report.sourceVersion,
                targetVersion: report.targetVersion, steps: report.steps, objects: report.objects,
                seconds: Date().timeIntervalSince(started), date: Date(), error: nil, report: report)
        } catch {
            return failure(error, storeAt: path, started: started)
        }
    }

    /// Plans one store of a fleet without changing anything: the plan, or the result a run would
    /// end with (refused or transient) when the store cannot be planned.
    package func planInFleet(storeAt path: String) -> PlannedStore {
        do {
            return .planned(try plan(storeAt: path))
        } catch {
            return .failed(failure(error, storeAt: path, started: Date()))
        }
    }

    /// What planning a store of a fleet gave.
    package enum PlannedStore {
        case planned(MigrationPlan)
        case failed(StoreMigrationResult)
    }

    /// The result of a store whose migration or plan failed with `error`.
    private func failure(_ error: RemodelError, storeAt path: String, started: Date) -> StoreMigrationResult {
        // What the file is now: the reason for a refusal, and the version it stayed at.
        let inspection = try? StoreInspector.inspect(path: path, bundle: bundle)
        let reason = StoreMigrationResult.Reason.of(error, inspection: inspection)
        return StoreMigrationResult(
            path: path, outcome: reason.isTransient ? .transient : .refused, reason: reason,
            sourceVersion: inspection.flatMap { Self.versionName(of: $0.state) },
            targetVersion: options.targetVersion ?? bundle.currentVersion.name,
            steps: 0, objects: nil, seconds: Date().timeIntervalSince(started), date: Date(), error: error, report: nil)
    }

    /// The version a store says it is at, when it names one of this model.
    private static func versionName(of state: StoreInspection.State) -> String? {
        switch state {
        case .current(let version), .older(let version, _): return version
        case .newer(let version), .modifiedVersion(let version), .schemaDrift(let version, _): return version
        case .missing, .otherModel, .notRemodelStore, .notSQLite, .newerFormat: return nil
        }
    }
}
