import Foundation
import Remodel

/// A library migration from a store's version to its bundle's current one with the default options
/// (inference only, no mapping files): the `longHistory` and `wireChain` scenarios, their one-step
/// yardsticks and their step-by-step runs (`MigrationOptions.composesSteps = false`).
///
/// Before timing, the store is planned with a bundle read of its own (`Migrator.plan(storeAt:)`): the
/// passes (`Migrator.passes(of:)`) and the planning time. The timed part reads the bundle anew, as an
/// app does, then runs `Migrator.migrate(storeAt:)`; its phases are the times between the progress
/// callback's phase changes, summed over the passes.
enum ChainMigration {
    static func run(store: String, bundlePath: String, composesSteps: Bool, sampler: OwnMemorySampler, result: inout ScenarioResult) async throws {
        var options = MigrationOptions()
        options.composesSteps = composesSteps
        let planStart = Measure.now()
        let planner = Migrator(bundle: try ModelBundle(contentsOf: bundlePath), options: options)
        let plan = try planner.plan(storeAt: store)
        result.extra["planSeconds"] = Measure.now() - planStart
        result.extra["passes"] = Double(planner.passes(of: plan).count)
        result.extra["steps"] = Double(plan.steps.count)

        let clock = Measure.PhaseClock()
        let pagesBefore = SQLiteTrace.shared.pagesRead
        let readsBefore = ReadCounters.now()
        let samplesBefore = sampler.reads
        let start = Measure.now()
        let migrator = Migrator(bundle: try ModelBundle(contentsOf: bundlePath), options: options)
        let report = try await migrator.migrate(storeAt: store) { progress in
            clock.mark(phase: progress.phase.rawValue, step: progress.step)
        }
        let end = Measure.now()
        ReadCounters.record(since: readsBefore, samplerReads: sampler.reads - samplesBefore, into: &result)
        result.extra["pagesRead"] = Double(SQLiteTrace.shared.pagesRead - pagesBefore)
        result.seconds = end - start
        result.phases = Self.parts(clock.split(start: start, end: end).phases)
        result.extra["objectsAfter"] = Double(report.objects)
        guard report.steps == plan.steps.count else { throw BenchError("the plan had \(plan.steps.count) steps, the migration ran \(report.steps)") }
    }

    /// The progress phases under the report's names: `plan` (planning, then each pass's copy and schema
    /// until its phase 1 reports), `phase1`, `phase2`, `phase3`, `replace`.
    private static func parts(_ phases: [String: Double]) -> [String: Double] {
        let names = ["planning": "plan", "instances": "phase1", "relationships": "phase2", "validation": "phase3", "replace": "replace"]
        var parts: [String: Double] = [:]
        for (phase, seconds) in phases {
            parts[names[phase] ?? phase, default: 0] += seconds
        }
        return parts
    }
}
