import Foundation
import Remodel

/// Runs one scenario in this (child) process and prints its result as `RESULT {json}`.
struct ScenarioRunner {
    let arguments: [String]

    private func value(_ flag: String) throws -> String {
        guard let value = Options.value(of: flag, in: arguments) else { throw BenchError("--scenario needs \(flag)") }
        return value
    }

    func run(_ scenario: String) async throws {
        // Before anything is read or written: every page this child brings in is charged to its cgroup.
        if let cgroup = Options.value(of: "--cgroup", in: arguments) { try MemoryCgroup.join(cgroup) }
        if !arguments.contains("--no-trace") {
            SQLiteTrace.install(statementIO: Options.value(of: "--statements", in: arguments) != nil)
        }
        let objects = Int(Options.value(of: "--objects", in: arguments) ?? "0") ?? 0
        var result = ScenarioResult(scenario: scenario, objects: objects, seconds: 0)
        let start = Measure.now()
        let cpuStart = Measure.processCPU()
        result.extra["load1"] = Machine.loadAverage
        result.extra["startRSSMiB"] = Double(Measure.residentKiB()) / 1024
        result.extra["startAnonymousMiB"] = Double(Measure.anonymousKiB()) / 1024
        let sampler = OwnMemorySampler()
        switch scenario {
        case "idle":
            // Nothing: the figures of a child that runs no scenario, the baseline "above idle" is measured from.
            break
        case "generate":
            guard let model = SourceModel(rawValue: try value("--model")) else { throw BenchError("unknown model") }
            let start = Measure.now()
            try model.generate(at: try value("--store"), objects: objects)
            result.seconds = Measure.now() - start
        case "generate-seeded":
            let bundle = try ModelBundle(contentsOf: try value("--bundle"))
            let version = try ChainModel.sourceVersion(of: bundle, lastStep: arguments.contains("--last-step"))
            let start = Measure.now()
            result.extra["objects"] = Double(
                try SeededStore.create(at: try value("--store"), bundle: bundle, version: version, objects: objects))
            result.seconds = Measure.now() - start
            result.note = version
        case "longHistory", "longHistoryStep", "longHistoryStepByStep", "wireChain", "wireStep", "wireChainStepByStep":
            try await ChainMigration.run(
                store: try value("--store"), bundlePath: try value("--bundle"),
                composesSteps: !scenario.hasSuffix("StepByStep"), sampler: sampler,
                result: &result)
        case "plan-chain":
            try ChainMigration.plan(
                store: try value("--store"), bundlePath: try value("--bundle"),
                composesSteps: !arguments.contains("--step-by-step"), result: &result)
        case "read-versions":
            try ReadVersions.run(bundlePath: try value("--bundle"), result: &result)
        case "generate-launch":
            let start = Measure.now()
            result.extra["bundleBytes"] = Double(try LaunchBundle.write(in: try value("--store")))
            result.seconds = Measure.now() - start
        case "migrate", "migrate3":
            try await LibraryMigration.run(
                store: try value("--store"), model: .library, to: scenario == "migrate" ? BenchModel.v2 : BenchModel.v4,
                sampler: sampler,
                result: &result)
        case "limit", "limit3":
            try limit(toVersion4: scenario == "limit3", result: &result)
        case "addAttribute", "oneOfTen":
            guard let step = CopyStep.named(scenario) else { throw BenchError("unknown scenario \(scenario)") }
            try await LibraryMigration.run(
                store: try value("--store"), model: step.model, to: step.model.secondVersion, sampler: sampler,
                result: &result)
        case "addAttributeLimit", "oneOfTenLimit":
            guard let step = CopyStep.named(scenario) else { throw BenchError("unknown scenario \(scenario)") }
            try CopyLimit.measure(storeAt: try value("--store"), step: step, result: &result)
        case "launch":
            try await Launch.run(folder: try value("--store"), result: &result)
        case "records":
            try RecordsBench.run(folder: try value("--store"), objects: objects, result: &result)
        case "policy":
            try await Policy.run(source: try value("--store"), result: &result)
        case "validate":
            try CorpusValidation.run(result: &result)
        case "fleet-alone":
            try await FleetBench.alone(
                storeDirectory: try value("--store-dir"), count: Int(try value("--count")) ?? 20, result: &result)
        case "fleet-run":
            try await FleetBench.run(
                storeDirectory: try value("--store-dir"), jobs: Int(try value("--jobs")) ?? 2, result: &result)
        case "generate-core-data":
            let start = Measure.now()
            try CoreDataBench.generate(at: try value("--store"), objects: objects)
            result.seconds = Measure.now() - start
        case "core-data-import":
            try CoreDataBench.importStore(try value("--store"), result: &result)
        case "core-data-floor":
            try CoreDataBench.floor(try value("--store"), result: &result)
        case "verify":
            try Verify.compare(try value("--store"), try value("--other"), result: &result)
        default:
            throw BenchError("unknown scenario \(scenario)")
        }
        result.extra["cpuSeconds"] = Measure.processCPU() - cpuStart
        let peak = sampler.stop()
        result.extra["ownPeakMiB"] = Double(peak.own) / 1_048_576
        result.extra["ownPeakMallocMiB"] = Double(peak.malloc) / 1_048_576
        result.extra["ownPeakSQLiteMiB"] = Double(peak.sqlite) / 1_048_576
        result.maxRSSKiB = Measure.maxRSSKiB()
        result.highWaterKiB = Measure.highWaterKiB()
        result.extra["endAnonymousMiB"] = Double(Measure.anonymousKiB()) / 1024
        // After the peak is read: reading `smaps` allocates.
        MemoryBreakdown.recordMappedFiles(into: &result)
        if !arguments.contains("--no-trace") {
            let store = Options.value(of: "--store", in: arguments)
            MemoryBreakdown.record(store: store, into: &result)
            if let top = Options.value(of: "--statements", in: arguments).flatMap(Int.init) {
                StatementLog.write(top: top, store: store, scenario: scenario, start: start)
            }
        }
        let data = try JSONEncoder().encode(result)
        print("RESULT " + String(decoding: data, as: UTF8.self))
    }

    /// The hand-written whole copy to BenchLibrary 2 (or 4), against an empty store of that version made before timing.
    private func limit(toVersion4: Bool, result: inout ScenarioResult) throws {
        let store = try value("--store")
        let template = store + ".template"
        try? FileManager.default.removeItem(atPath: template)
        _ = try Store.create(
            at: template, bundle: try BenchModel.bundle(), version: toVersion4 ? BenchModel.v4 : BenchModel.v2)
        defer { try? FileManager.default.removeItem(atPath: template) }
        let start = Measure.now()
        let before = IOCounters.now()
        let clock = try HandWritten.migrate(storeAt: store, template: template, toVersion4: toVersion4)
        result.seconds = Measure.now() - start
        IOCounters.record(since: before, into: &result)
        clock.record(into: &result)
    }
}
