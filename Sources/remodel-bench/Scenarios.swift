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
        let objects = Int(Options.value(of: "--objects", in: arguments) ?? "0") ?? 0
        var result = ScenarioResult(scenario: scenario, objects: objects, seconds: 0)
        switch scenario {
        case "generate":
            let start = Measure.now()
            try Generator.generate(at: try value("--store"), objects: objects)
            result.seconds = Measure.now() - start
        case "migrate", "migrate3":
            try await migrate(store: try value("--store"), to: scenario == "migrate" ? BenchModel.v2 : BenchModel.v4, result: &result)
        case "limit", "limit3":
            let store = try value("--store")
            let template = store + ".template"
            try? FileManager.default.removeItem(atPath: template)
            _ = try Store.create(at: template, bundle: try BenchModel.bundle(), version: scenario == "limit" ? BenchModel.v2 : BenchModel.v4)
            defer { try? FileManager.default.removeItem(atPath: template) }
            let start = Measure.now()
            try HandWritten.migrate(storeAt: store, template: template, toVersion4: scenario == "limit3")
            result.seconds = Measure.now() - start
        case "policy":
            try await Policy.run(source: try value("--store"), result: &result)
        case "validate":
            try validate(result: &result)
        case "fleet-alone":
            try await FleetBench.alone(storeDirectory: try value("--store-dir"), count: Int(try value("--count")) ?? 20, result: &result)
        case "fleet-run":
            try await FleetBench.run(storeDirectory: try value("--store-dir"), jobs: Int(try value("--jobs")) ?? 2, result: &result)
        case "verify":
            try Verify.compare(try value("--store"), try value("--other"), result: &result)
        default:
            throw BenchError("unknown scenario \(scenario)")
        }
        result.maxRSSKiB = Measure.maxRSSKiB()
        result.highWaterKiB = Measure.highWaterKiB()
        let data = try JSONEncoder().encode(result)
        print("RESULT " + String(decoding: data, as: UTF8.self))
    }

    /// The whole library migration — plan, three phases per step, replace — with the time of each phase.
    private func migrate(store: String, to version: String, result: inout ScenarioResult) async throws {
        let bundle = try BenchModel.bundle()
        let migrator = Migrator(
            bundle: bundle, options: MigrationOptions(mappingsDirectory: BenchModel.mappingsPath, targetVersion: version))
        let clock = Measure.PhaseClock()
        let start = Measure.now()
        let report = try await migrator.migrate(storeAt: store) { progress in
            clock.mark(phase: progress.phase.rawValue, step: progress.step)
        }
        let end = Measure.now()
        result.seconds = end - start
        (result.phases, result.steps) = clock.split(start: start, end: end)
        result.extra["steps"] = Double(report.steps)
        result.extra["objectsAfter"] = Double(report.objects)
    }

    /// `Validation.validate(paths:)` on the largest corpus bundle: the first run and the best of five.
    private func validate(result: inout ScenarioResult) throws {
        let path = BenchModel.corpusBundle
        guard FileManager.default.fileExists(atPath: path) else {
            result.note = "skipped: \(path) is not there"
            return
        }
        var times: [Double] = []
        var report: ValidationReport?
        for _ in 0..<5 {
            let start = Measure.now()
            report = try Validation.validate(paths: [path])
            times.append(Measure.now() - start)
        }
        result.seconds = times.min() ?? 0
        result.extra["first"] = times[0]
        result.extra["versions"] = Double(report?.versionCount ?? 0)
        result.extra["diagnostics"] = Double(report?.diagnostics.count ?? 0)
        result.note = "mastodon CoreData.xcdatamodeld, \(report?.versionCount ?? 0) versions"
    }
}
