import Foundation
import Remodel

/// `launch`: what an app pays at every launch when its store is already current, with a bundle of
/// ``versions`` versions (``LaunchBundle``). Each run reads the bundle anew, as a launching app does:
///
/// - **bundle read**: `ModelBundle(contentsOf:)` alone (the listing and the current version);
/// - **launch**: `ModelBundle(contentsOf:)` then `Store.launch(at:bundle:)` (inspect, open), store closed;
/// - **status**: `ModelBundle(contentsOf:)` then `StoreInspector.inspect`, what `remodel status` does;
/// - the same two with the bundle read eagerly, every version parsed (`ModelReader.read(path:)`);
/// - **CLI status**: the `remodel status` process, when a release `remodel` is built beside this executable.
enum Launch {
    static let versions = 75
    static let runs = 25
    static let eagerRuns = 5

    static func run(folder: String, result: inout ScenarioResult) async throws {
        let bundlePath = LaunchBundle.bundlePath(in: folder)
        let store = LaunchBundle.storePath(in: folder)
        var launches: [Double] = []
        var statuses: [Double] = []
        var reads: [Double] = []
        for _ in 0..<runs {
            let start = Measure.now()
            _ = try ModelBundle(contentsOf: bundlePath)
            reads.append(Measure.now() - start)
            launches.append(try await timeLaunch(store) { try ModelBundle(contentsOf: bundlePath) })
            statuses.append(try timeStatus(store) { try ModelBundle(contentsOf: bundlePath) })
        }
        result.extra["lazyPeakMiB"] = Double(Measure.maxRSSKiB()) / 1024
        var eagerLaunches: [Double] = []
        var eagerStatuses: [Double] = []
        for _ in 0..<eagerRuns {
            eagerLaunches.append(try await timeLaunch(store) { try eagerBundle(bundlePath) })
            eagerStatuses.append(try timeStatus(store) { try eagerBundle(bundlePath) })
        }
        result.seconds = median(launches)
        result.extra["launchFirst"] = launches[0]
        result.extra["status"] = median(statuses)
        result.extra["bundleRead"] = median(reads)
        result.extra["eagerLaunch"] = median(eagerLaunches)
        result.extra["eagerStatus"] = median(eagerStatuses)
        if let cli = try cliStatus(bundlePath: bundlePath, store: store) { result.extra["cliStatus"] = cli }
        result.extra["versions"] = Double(versions)
    }

    private static func timeLaunch(_ store: String, bundle: () throws -> ModelBundle) async throws -> Double {
        let start = Measure.now()
        let (_, outcome) = try await Store.launch(at: store, bundle: try bundle())
        let seconds = Measure.now() - start
        guard outcome == .opened else { throw BenchError("the launch store was not current: \(outcome)") }
        return seconds
    }

    private static func timeStatus(_ store: String, bundle: () throws -> ModelBundle) throws -> Double {
        let start = Measure.now()
        let inspection = try StoreInspector.inspect(path: store, bundle: try bundle())
        let seconds = Measure.now() - start
        guard case .current = inspection.state else {
            throw BenchError("the launch store was not current: \(inspection.message)")
        }
        return seconds
    }

    private static func eagerBundle(_ path: String) throws -> ModelBundle {
        guard let bundle = ModelReader.read(path: path).bundle else { throw BenchError("cannot read \(path)") }
        return bundle
    }

    /// The median wall time of `remodel status` runs, or nil when no `remodel` executable is beside this one.
    private static func cliStatus(bundlePath: String, store: String) throws -> Double? {
        let executable =
            (try? FileManager.default.destinationOfSymbolicLink(atPath: "/proc/self/exe")) ?? CommandLine.arguments[0]
        let remodel = URL(fileURLWithPath: executable).deletingLastPathComponent().appendingPathComponent("remodel")
            .path
        guard FileManager.default.isExecutableFile(atPath: remodel) else { return nil }
        var times: [Double] = []
        for _ in 0..<runs {
            let process = Process()
            process.executableURL = URL(fileURLWithPath: remodel)
            process.arguments = ["status", store, "--model", bundlePath]
            process.standardOutput = FileHandle.nullDevice
            let start = Measure.now()
            try process.run()
            process.waitUntilExit()
            times.append(Measure.now() - start)
            guard process.terminationStatus == 0 else {
                throw BenchError("remodel status failed (exit \(process.terminationStatus))")
            }
        }
        return median(times)
    }

    private static func median(_ values: [Double]) -> Double {
        values.sorted()[values.count / 2]
    }

    /// The report's paragraph.
    static func report(_ result: ScenarioResult) -> String {
        func ms(_ key: String) -> String { result.extra[key].map { fixed($0 * 1000, 1) + " ms" } ?? "—" }
        let target = fixed(Catalog.launchTargetSeconds * 1000, 0)
        let met =
            result.seconds <= Catalog.launchTargetSeconds
            && (result.extra["status"] ?? 1) <= Catalog.launchTargetSeconds
        return """
            launch (a current store, a bundle of \(versions) versions read anew each run; medians of \(runs), load \(fixed(result.extra["load1"] ?? 0, 1))): \
            Store.launch \(fixed(result.seconds * 1000, 1)) ms (first \(ms("launchFirst"))), status \(ms("status")) \
            (target ≤ \(target) ms: \(met ? "met" : "not met")); of which reading the bundle \(ms("bundleRead")); CLI `remodel status` \(ms("cliStatus")); \
            read eagerly (ModelReader.read, median of \(eagerRuns)): launch \(ms("eagerLaunch")), status \(ms("eagerStatus")); \
            peak RSS \(fixed(result.extra["lazyPeakMiB"] ?? 0, 1)) MiB (\(fixed(Double(result.maxRSSKiB) / 1024, 1)) MiB after the eager runs)
            """
    }
}
