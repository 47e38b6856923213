import Foundation
import Remodel

/// A library migration from a store's version to its bundle's current one with the default options
/// (inference only, no mapping files): the `longHistory` and `wireChain` scenarios, their one-step
/// yardsticks and their step-by-step runs (`MigrationOptions.composesSteps = false`).
///
/// The timed part reads the bundle, as an app does, then runs `Migrator.migrate(storeAt:)`; its phases
/// are the times between the progress callback's phase changes, summed over the passes. The plan's
/// passes (`Migrator.passes(of:)`) are found in a child of their own (``plan(store:bundlePath:composesSteps:result:)``),
/// so that planning twice does not raise the migration's peak memory.
enum ChainMigration {
    static func run(
        store: String, bundlePath: String, composesSteps: Bool, sampler: OwnMemorySampler, result: inout ScenarioResult
    ) async throws {
        let clock = Measure.PhaseClock()
        let passes = PassCount()
        let pagesBefore = SQLiteTrace.shared.pagesRead
        let readsBefore = IOCounters.now()
        let samplesBefore = sampler.reads
        let start = Measure.now()
        let migrator = Migrator(
            bundle: try ModelBundle(contentsOf: bundlePath), options: options(composesSteps: composesSteps))
        let report = try await migrator.migrate(storeAt: store) { progress in
            clock.mark(phase: progress.phase.rawValue, step: progress.step)
            passes.saw(progress.steps)
        }
        let end = Measure.now()
        IOCounters.record(since: readsBefore, samplerReads: sampler.reads - samplesBefore, into: &result)
        result.extra["pagesRead"] = Double(SQLiteTrace.shared.pagesRead - pagesBefore)
        result.seconds = end - start
        result.phases = Self.parts(clock.split(start: start, end: end).phases)
        result.extra["objectsAfter"] = Double(report.objects)
        result.extra["stepsRun"] = Double(report.steps)
        result.extra["passesRun"] = Double(passes.largest)
    }

    /// Plans the store's migration (`Migrator.plan(storeAt:)` with a bundle read anew): its steps, its passes
    /// (`Migrator.passes(of:)`) and the time; the peak memory of planning alone is the child's.
    static func plan(store: String, bundlePath: String, composesSteps: Bool, result: inout ScenarioResult) throws {
        let start = Measure.now()
        let migrator = Migrator(
            bundle: try ModelBundle(contentsOf: bundlePath), options: options(composesSteps: composesSteps))
        let plan = try migrator.plan(storeAt: store)
        result.seconds = Measure.now() - start
        result.extra["steps"] = Double(plan.steps.count)
        result.extra["passes"] = Double(migrator.passes(of: plan).count)
    }

    private static func options(composesSteps: Bool) -> MigrationOptions {
        var options = MigrationOptions()
        options.composesSteps = composesSteps
        return options
    }

    /// The number of passes the progress callback reported (`MigrationProgress.steps`).
    private final class PassCount: @unchecked Sendable {
        private let lock = NSLock()
        private var count = 0

        func saw(_ passes: Int) {
            lock.lock()
            count = max(count, passes)
            lock.unlock()
        }

        var largest: Int {
            lock.lock()
            defer { lock.unlock() }
            return count
        }
    }

    /// The progress phases under the report's names: `plan` (planning, then each pass's copy and schema
    /// until its phase 1 reports), `phase1`, `phase2`, `indexes`, `phase3`, `replace`.
    private static func parts(_ phases: [String: Double]) -> [String: Double] {
        let names = [
            "planning": "plan", "instances": "phase1", "relationships": "phase2", "indexes": "indexes",
            "validation": "phase3", "replace": "replace",
        ]
        var parts: [String: Double] = [:]
        for (phase, seconds) in phases {
            parts[names[phase] ?? phase, default: 0] += seconds
        }
        return parts
    }
}
