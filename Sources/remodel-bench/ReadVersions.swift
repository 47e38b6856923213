import Foundation
import Remodel

/// `readVersions`: what reading a history costs without planning (issue 29): the generated 96-version history
/// bundle read whole (every version's XML parsed into a `ModelVersion`), then checked for errors as every command
/// does before it uses a version (`requireNoErrors`), each on a fresh bundle, several rounds in one child.
enum ReadVersions {
    /// Rounds per child: the median is kept, so one slow round (another process) does not count.
    static let rounds = 5

    /// The child: `rounds` rounds of reading every version of a fresh bundle, then checking them; the median
    /// round's wall and CPU seconds of each part.
    static func run(bundlePath: String, result: inout ScenarioResult) throws {
        var read: [(wall: Double, cpu: Double)] = []
        var check: [(wall: Double, cpu: Double)] = []
        var versions = 0
        for _ in 0..<rounds {
            let start = Measure.now()
            let cpuStart = Measure.processCPU()
            let bundle = try ModelBundle(contentsOf: bundlePath)
            for name in bundle.versionNames { _ = try bundle.loadVersion(named: name) }
            let readEnd = Measure.now()
            let readCPUEnd = Measure.processCPU()
            try bundle.requireNoErrors(inVersions: bundle.versionNames)
            read.append((readEnd - start, readCPUEnd - cpuStart))
            check.append((Measure.now() - readEnd, Measure.processCPU() - readCPUEnd))
            versions = bundle.versionNames.count
        }
        func median(_ values: [Double]) -> Double { values.sorted()[values.count / 2] }
        result.seconds = median(read.map(\.wall))
        result.extra["readCPU"] = median(read.map(\.cpu))
        result.extra["checkSeconds"] = median(check.map(\.wall))
        result.extra["checkCPU"] = median(check.map(\.cpu))
        result.extra["versions"] = Double(versions)
        result.note = "\(versions) versions, median of \(rounds) rounds"
    }

    /// The report's line for the parent's median child.
    static func report(_ result: ScenarioResult) -> String {
        let versions = max(1, result.extra["versions"] ?? 1)
        let read = result.seconds, readCPU = result.extra["readCPU"] ?? 0
        let check = result.extra["checkSeconds"] ?? 0, checkCPU = result.extra["checkCPU"] ?? 0
        return
            "readVersions (\(result.note)): read \(fixed(read, 4)) s wall, \(fixed(readCPU, 4)) s CPU (\(fixed(readCPU / versions * 1000, 3)) ms CPU a version); "
            + "error check \(fixed(check, 4)) s wall, \(fixed(checkCPU, 4)) s CPU; peak RSS \(fixed(Double(result.maxRSSKiB) / 1024, 1)) MiB"
    }
}
