import Foundation
import Remodel
import RemodelProject

/// `validate`: `Validation.validate(paths:)` on the largest corpus bundle, five runs in one process: the
/// first run and the best. Skipped when the corpus is not there.
enum CorpusValidation {
    static func run(result: inout ScenarioResult) throws {
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
