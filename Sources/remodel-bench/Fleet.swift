import Foundation
import Remodel
import RemodelFleet

/// The `fleet` scenario: many small stores (2,000 of 1,000 objects by default) migrated to the current
/// version with `Migrator.migrate(stores:jobs:)`, against one such store migrated alone.
///
/// Children (each a process of its own, so peak memory figures do not mix):
/// - `fleet-alone`: 20 stores one after another, each with a fresh `Migrator` — as one
///   `migrate(storeAt:)` call does today: mapping files read and the plan made per store. Its median
///   is "one store alone"; its peak is the single-store peak. Also times `MigrationPlanner.plan`
///   alone (the planning a fleet does once per source version).
/// - `fleet-run`: every store with `--jobs J`: wall time, the time each store took inside the fleet,
///   peak memory.
enum FleetBench {
    static let target = BenchModel.v4

    struct Settings {
        var stores = 2_000
        var objects = 1_000
        var jobs = 2
    }

    /// The parent's part: the stores, the children, the table.
    static func run(
        _ settings: Settings, folder: String, child: ([String]) throws -> ScenarioResult, log: (String) -> Void
    ) throws -> String {
        let template = "\(folder)/fleet-template.sqlite"
        let generated = try child([
            "--scenario", "generate", "--model", SourceModel.library.rawValue, "--objects", "\(settings.objects)",
            "--store", template,
        ])
        log(
            "fleet: a store of \(settings.objects) objects generated in \(fixed(generated.seconds, 3)) s; copying it \(settings.stores) times"
        )
        let stores = "\(folder)/fleet"
        func copies() throws {
            try? FileManager.default.removeItem(atPath: stores)
            try FileManager.default.createDirectory(atPath: stores, withIntermediateDirectories: true)
            for index in 0..<settings.stores {
                try FileManager.default.copyItem(
                    atPath: template, toPath: String(format: "%@/store-%05d.sqlite", stores, index))
            }
            sync()  // Written back before timing.
        }
        try copies()
        let alone = try child(["--scenario", "fleet-alone", "--store-dir", stores, "--count", "20", "--no-trace"])
        log(
            "fleet: one store alone \(fixed(alone.seconds * 1000, 1)) ms (median of 20), peak \(fixed(Double(alone.maxRSSKiB) / 1024, 1)) MiB"
        )
        try copies()
        let parallel = try child([
            "--scenario", "fleet-run", "--store-dir", stores, "--jobs", "\(settings.jobs)", "--no-trace",
        ])
        log(
            "fleet: \(settings.stores) stores, --jobs \(settings.jobs): \(fixed(parallel.seconds, 2)) s, peak \(fixed(Double(parallel.maxRSSKiB) / 1024, 1)) MiB"
        )
        try copies()
        let serial = try child(["--scenario", "fleet-run", "--store-dir", stores, "--jobs", "1", "--no-trace"])
        log(
            "fleet: \(settings.stores) stores, --jobs 1: \(fixed(serial.seconds, 2)) s, peak \(fixed(Double(serial.maxRSSKiB) / 1024, 1)) MiB"
        )
        try? FileManager.default.removeItem(atPath: stores)
        try? FileManager.default.removeItem(atPath: template)
        return report(settings, alone: alone, parallel: parallel, serial: serial)
    }

    private static func report(
        _ settings: Settings, alone: ScenarioResult, parallel: ScenarioResult, serial: ScenarioResult
    ) -> String {
        let cores = ProcessInfo.processInfo.activeProcessorCount
        let stores = Double(settings.stores)
        let bound = 1.5 * stores / Double(cores) * alone.seconds
        let perStoreSerial = serial.seconds / stores
        let insideSerial = serial.extra["meanStoreSeconds"] ?? 0
        let cpuAlone = alone.extra["cpuPerStore"] ?? 0
        func ms(_ seconds: Double?, _ digits: Int = 2) -> String { fixed((seconds ?? 0) * 1000, digits) + " ms" }
        func mib(_ result: ScenarioResult) -> String { fixed(Double(result.maxRSSKiB) / 1024, 1) + " MiB" }
        let lines = [
            "\n### fleet: \(settings.stores) stores × \(settings.objects) objects, v1 → v4 (3 steps, one pass), \(Machine.description)\n",
            "| figure | value |",
            "| --- | ---: |",
            "| one store alone, fresh `Migrator` each (mapping files read, plan made per store): median / mean of 20 | \(ms(alone.seconds)) / \(ms(alone.extra["meanSeconds"])) (\(alone.note)) |",
            "| of it, planning with a fresh `Migrator` (`plan(storeAt:)`: mapping files, plan, type check, the store's inspection and screening), median | \(ms(alone.extra["planSeconds"])) |",
            "| one store alone: CPU per store (all threads) | \(ms(cpuAlone)) |",
            "| fleet, `--jobs \(settings.jobs)`: wall | \(fixed(parallel.seconds, 2)) s (\(parallel.note)) |",
            "| target ≤ 1.5 × (stores ÷ \(cores) cores) × one store alone (median) | \(fixed(bound, 2)) s: \(parallel.seconds <= bound ? "met" : "not met"), \(fixed(parallel.seconds / (stores / Double(cores) * alone.seconds), 2))× |",
            "| fleet, `--jobs \(settings.jobs)`: CPU per store; a store's own time, median | \(ms(parallel.extra["cpuPerStore"])); \(ms(parallel.extra["medianStoreSeconds"])) |",
            "| fleet, `--jobs 1`: wall | \(fixed(serial.seconds, 2)) s (\(serial.note)) |",
            "| fleet, `--jobs 1`: wall per store; a store's own time, mean / median | \(ms(perStoreSerial)); \(ms(insideSerial)) / \(ms(serial.extra["medianStoreSeconds"])) |",
            "| per-store overhead of the fleet, wall (wall per store − a store's own mean time, `--jobs 1`) | \(ms(perStoreSerial - insideSerial, 3)) |",
            "| fleet, `--jobs 1`: CPU per store; against alone | \(ms(serial.extra["cpuPerStore"])); \(ms((serial.extra["cpuPerStore"] ?? 0) - cpuAlone)) |",
            "| peak RSS: one store alone; fleet `--jobs \(settings.jobs)` (target < 2 × alone + a small constant); fleet `--jobs 1` | \(mib(alone)); \(mib(parallel)); \(mib(serial)) |",
        ]
        return lines.joined(separator: "\n")
    }

    /// `fleet-alone`: `count` stores, one after another, each with a fresh migrator.
    static func alone(storeDirectory: String, count: Int, result: inout ScenarioResult) async throws {
        let bundle = try BenchModel.bundle()
        let paths = try storePaths(storeDirectory).prefix(count)
        // What a fleet does once per source version, and one store alone does every time: read the mapping
        // files, plan, type-check (here with the store's inspection and screening, which a fleet repeats);
        // before the stores are migrated, so there is something to plan.
        var plans: [Double] = []
        for path in paths {
            let migrator = Migrator(
                bundle: bundle,
                options: MigrationOptions(mappingsDirectory: BenchModel.mappingsPath, targetVersion: target))
            let start = Measure.now()
            _ = try migrator.plan(storeAt: path)
            plans.append(Measure.now() - start)
        }
        var times: [Double] = []
        let cpu = Measure.processCPU()
        for path in paths {
            let migrator = Migrator(
                bundle: bundle,
                options: MigrationOptions(mappingsDirectory: BenchModel.mappingsPath, targetVersion: target))
            let start = Measure.now()
            _ = try await migrator.migrate(storeAt: path)
            times.append(Measure.now() - start)
        }
        result.extra["cpuPerStore"] = (Measure.processCPU() - cpu) / Double(max(1, times.count))
        result.seconds = median(times)
        result.extra["meanSeconds"] = times.reduce(0, +) / Double(max(1, times.count))
        result.extra["planSeconds"] = median(plans)
        result.note = load()
    }

    /// The machine's load average over the last minute, from `/proc/loadavg`.
    static func load() -> String {
        let text = (try? String(contentsOfFile: "/proc/loadavg", encoding: .utf8)) ?? ""
        return text.split(separator: " ").first.map { "load \($0)" } ?? ""
    }

    /// `fleet-run`: every store of the folder, `jobs` at a time.
    static func run(storeDirectory: String, jobs: Int, result: inout ScenarioResult) async throws {
        let migrator = Migrator(
            bundle: try BenchModel.bundle(),
            options: MigrationOptions(mappingsDirectory: BenchModel.mappingsPath, targetVersion: target))
        let paths = try storePaths(storeDirectory)
        let before = load()
        let start = Measure.now()
        let cpu = Measure.processCPU()
        var tally = FleetTally(total: paths.count)
        var inside: [Double] = []
        for await store in migrator.migrate(stores: paths, jobs: jobs) {
            tally.add(store)
            inside.append(store.seconds)
        }
        result.seconds = Measure.now() - start
        result.extra["cpuPerStore"] = (Measure.processCPU() - cpu) / Double(max(1, paths.count))
        result.objects = tally.objectsMigrated
        result.extra["meanStoreSeconds"] = inside.reduce(0, +) / Double(max(1, paths.count))
        result.extra["medianStoreSeconds"] = median(inside)
        let outcomes = StoreMigrationResult.Outcome.allCases.filter { tally[$0] > 0 }.map {
            "\(tally[$0]) \($0.rawValue)"
        }
        result.note = outcomes.joined(separator: ", ") + "; \(before) → \(load())"
        guard tally[.migrated] == paths.count else { throw BenchError("not every store was migrated: \(result.note)") }
    }

    private static func storePaths(_ folder: String) throws -> [String] {
        try FileManager.default.contentsOfDirectory(atPath: folder).filter { $0.hasSuffix(".sqlite") }.sorted().map {
            folder + "/" + $0
        }
    }

    private static func median(_ values: [Double]) -> Double {
        values.isEmpty ? 0 : values.sorted()[values.count / 2]
    }
}
