import Foundation
import Remodel

/// A whole library migration — plan, copy, schema, the three phases, replace — through
/// `Migrator.migrate(storeAt:)`, with the time of each part (see ``PhaseSplit``) and what it read: the
/// pages SQLite read (``SQLiteTrace/pagesRead``) and the kernel's read counters (``IOCounters``).
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
        SQLiteTrace.shared.countIOUntilCopy()
        let watcher = CopyWatcher(store: store)
        let readsBefore = IOCounters.now()
        let samplesBefore = sampler.reads
        let start = Measure.now()
        let report = try await migrator.migrate(storeAt: store) { progress in
            clock.mark(phase: progress.phase.rawValue, step: progress.step)
        }
        let end = Measure.now()
        let endIO = IOCounters.now()
        let copyStarted = watcher.stop()
        IOCounters.record(since: readsBefore, samplerReads: sampler.reads - samplesBefore, into: &result)
        result.extra["pagesRead"] = Double(SQLiteTrace.shared.pagesRead - pagesBefore)
        result.seconds = end - start
        result.steps = clock.split(start: start, end: end).steps
        let split = PhaseSplit(
            start: start, end: end, clock: clock, trace: SQLiteTrace.shared, startIO: readsBefore, endIO: endIO,
            copyStarted: copyStarted)
        result.phases = split.parts
        split.record(into: &result)
        result.extra["steps"] = Double(report.steps)
        result.extra["objectsAfter"] = Double(report.objects)
    }
}

/// A library migration's wall time cut into parts, from the progress callback's phase changes and the
/// SQLite trace: `plan` (inspection, lock, planning, the free-space check), `copy` (the byte copy: from
/// the moment the copy's file appears, ``CopyWatcher``, to the next statement; without the watcher, from the
/// last statement before the step's store is opened to its opening), `schema` (from there to phase 1: the
/// search of the rebuilt tables for rows no entity can place, reading the copy's schema, rehearsing the
/// change, counting what the step drops, `ALTER`s, dropping and creating the rebuilt tables), `phase1`, `phase2` (the links), `indexes` (the progress phase of that name: the step's
/// `CREATE INDEX`es, unique ones included), `phase3` (validation, `quick_check`, metadata), `replace`
/// (flush, rename).
///
/// Without a trace (`--no-trace`) `plan` holds the copy and the schema.
struct PhaseSplit {
    static let order = ["plan", "copy", "schema", "phase1", "phase2", "indexes", "phase3", "replace", "sql"]

    let parts: [String: Double]
    /// The kernel's I/O counters over each part, when the clock and the trace read them (see
    /// ``SQLiteTrace/countIOUntilCopy()``).
    let io: [String: IOCounters]

    init(
        start: Double, end: Double, clock: Measure.PhaseClock, trace: SQLiteTrace,
        startIO: IOCounters? = nil, endIO: IOCounters? = nil, copyStarted: (time: Double, io: IOCounters)? = nil
    ) {
        let connections = trace.connections
        let entries = trace.entries
        let copy = connections.first { $0.opened >= start && SQLiteTrace.isCopy($0.file) }
        let events = trace.ioEvents.filter { $0.time >= start }
        let beforeCopy: (time: Double, io: IOCounters?)?
        let opened: (time: Double, io: IOCounters?)?
        if let copyStarted {
            // The copy runs from the file's appearance to the next statement or connection: what follows it
            // before phase 1 (searching the rows read again, the schema) is the schema part.
            beforeCopy = (copyStarted.time, copyStarted.io)
            opened =
                events.first { $0.time >= copyStarted.time }.map { ($0.time, $0.io) }
                ?? copy.map { ($0.opened, $0.openedIO) }
        } else {
            opened = copy.map { ($0.opened, $0.openedIO) }
            beforeCopy = opened.map { open in
                let time = entries.filter { $0.last <= open.time && $0.last >= start }.map(\.last).max() ?? start
                return (time, events.last { $0.time <= time }?.io ?? startIO)
            }
        }
        // Each part ends where the next one that happened starts.
        let phases = ["instances", "relationships", "indexes", "validation", "replace"]
        var points: [(time: Double, io: IOCounters?)?] =
            [(start, startIO), beforeCopy, opened]
            + phases.map { phase in clock.first(phase).map { ($0, clock.firstIO(phase)) } } + [(end, endIO)]
        for index in points.indices.reversed() where points[index] == nil {
            points[index] = index + 1 < points.count ? points[index + 1] : (end, endIO)
        }
        let at = points.map { $0?.time ?? end }
        let names = ["plan", "copy", "schema", "phase1", "phase2", "indexes", "phase3", "replace"]
        var parts: [String: Double] = [:]
        var io: [String: IOCounters] = [:]
        for (offset, name) in names.enumerated() {
            parts[name] = at[offset + 1] - at[offset]
            if let from = points[offset]?.io, let to = points[offset + 1]?.io { io[name] = to.since(from) }
        }
        if opened == nil {
            for merged in ["copy", "schema"] {
                parts["plan", default: 0] += parts[merged] ?? 0
                parts[merged] = nil
                if let counters = io[merged], let plan = io["plan"] { io["plan"] = plan.adding(counters) }
                io[merged] = nil
            }
        }
        let kept = parts.filter { $0.value > 0 }
        self.parts = kept
        self.io = io.filter { kept[$0.key] != nil }
    }

    /// Records each part's bytes read from and written to storage in `result.extra` (`diskRead.copy`,
    /// `diskWrite.copy`, `rchar.copy`, `wchar.copy`, …).
    func record(into result: inout ScenarioResult) {
        IOCounters.record(parts: io, into: &result)
    }
}
