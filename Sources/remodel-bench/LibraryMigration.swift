import Foundation
import Remodel

/// A whole library migration — plan, copy, schema, the three phases, replace — through
/// `Migrator.migrate(storeAt:)`, with the time of each part (see ``PhaseSplit``) and what it read: the
/// pages SQLite read (``SQLiteTrace/pagesRead``) and the kernel's read counters (``ReadCounters``).
enum LibraryMigration {
    static func run(
        store: String, model: SourceModel, to version: String, sampler: OwnMemorySampler, result: inout ScenarioResult
    ) async throws {
        let bundle = try model.bundle()
        var options = MigrationOptions(mappingsDirectory: BenchModel.mappingsPath, targetVersion: version)
        // `REMODEL_BENCH_CHECK=written` measures SQLite's check of the written tables only (the default reads the whole file).
        if getenv("REMODEL_BENCH_CHECK").map({ String(cString: $0) }) == "written" {
            options.integrityCheck = .writtenTables
        }
        let migrator = Migrator(bundle: bundle, options: options)
        let clock = Measure.PhaseClock()
        let pagesBefore = SQLiteTrace.shared.pagesRead
        let readsBefore = ReadCounters.now()
        let samplesBefore = sampler.reads
        let start = Measure.now()
        let report = try await migrator.migrate(storeAt: store) { progress in
            clock.mark(phase: progress.phase.rawValue, step: progress.step)
        }
        let end = Measure.now()
        ReadCounters.record(since: readsBefore, samplerReads: sampler.reads - samplesBefore, into: &result)
        result.extra["pagesRead"] = Double(SQLiteTrace.shared.pagesRead - pagesBefore)
        result.seconds = end - start
        result.steps = clock.split(start: start, end: end).steps
        result.phases = PhaseSplit(start: start, end: end, clock: clock, trace: SQLiteTrace.shared).parts
        result.extra["steps"] = Double(report.steps)
        result.extra["objectsAfter"] = Double(report.objects)
    }
}

/// A library migration's wall time cut into parts, from the progress callback's phase changes and the
/// SQLite trace: `plan` (inspection, lock, planning, the free-space check), `copy` (from the last
/// statement before the step's store is opened to its opening: the byte copy), `schema` (from there to
/// phase 1: reading the copy's schema, rehearsing the change, `ALTER`s, dropping and creating the rebuilt
/// tables), `phase1`, `phase2` (the links), `indexes` (the progress phase of that name: the step's
/// `CREATE INDEX`es, unique ones included), `phase3` (validation, `quick_check`, metadata), `replace`
/// (flush, rename).
///
/// Without a trace (`--no-trace`) `plan` holds the copy and the schema.
struct PhaseSplit {
    static let order = ["plan", "copy", "schema", "phase1", "phase2", "indexes", "phase3", "replace", "sql"]

    let parts: [String: Double]

    init(start: Double, end: Double, clock: Measure.PhaseClock, trace: SQLiteTrace) {
        let connections = trace.connections
        let entries = trace.entries
        let opened = connections.first {
            $0.opened >= start && ($0.file.hasSuffix(".remodel-migrating") || $0.file.contains(".remodel-step-"))
        }?.opened
        let beforeCopy = opened.map { open in
            entries.filter { $0.last <= open && $0.last >= start }.map(\.last).max() ?? start
        }
        // Each part ends where the next one that happened starts.
        var points: [Double?] = [
            start, beforeCopy, opened, clock.first("instances"), clock.first("relationships"),
            clock.first("indexes"), clock.first("validation"), clock.first("replace"), end,
        ]
        for index in points.indices.reversed() where points[index] == nil {
            points[index] = index + 1 < points.count ? points[index + 1] : end
        }
        let at = points.map { $0 ?? end }
        var parts = [
            "plan": at[1] - at[0], "copy": at[2] - at[1], "schema": at[3] - at[2], "phase1": at[4] - at[3],
            "phase2": at[5] - at[4], "indexes": at[6] - at[5], "phase3": at[7] - at[6], "replace": at[8] - at[7],
        ]
        if opened == nil {
            parts["plan"] = (parts["plan"] ?? 0) + (parts["copy"] ?? 0) + (parts["schema"] ?? 0)
            parts["copy"] = nil
            parts["schema"] = nil
        }
        self.parts = parts.filter { $0.value > 0 }
    }
}
