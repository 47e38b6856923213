import Foundation
import RemodelTesting
import Testing

@testable import Remodel
@testable import RemodelModel
@testable import RemodelProject

/// The migration test kit over every bundle of the shared corpus: each version's generated data migrated to
/// the bundle's current version and checked against the plan. The corpus has no Remodel mapping files, so a
/// chain that needs one is reported as such, not as a failure.
@Suite(.tags(.corpus), .skippable(.corpus))
struct CorpusMatrixTests {
    static let bundles: [String] = {
        guard ValidationSupport.corpusExists else { return [] }
        var search = ModelSearch()
        try? search.add(ValidationSupport.corpus.path)
        return search.models.map(\.path).filter { $0.hasSuffix(".xcdatamodeld") }.sorted()
    }()

    /// Every version up to the head for small bundles; for larger ones five spread evenly from the oldest to
    /// the head (the oldest has the longest chain), so the suite stays fast: `remodel test-matrix` runs them all.
    static func sample(_ bundle: ModelBundle) -> [String] {
        let head = bundle.index(ofVersion: bundle.currentVersion.name) ?? bundle.versions.count - 1
        let names = bundle.versions.prefix(head + 1).map(\.name)
        guard names.count > 5 else { return names }
        return (0..<5).map { names[($0 * (names.count - 1) + 2) / 4] }
    }

    /// What is not a plain "ok", by bundle (`repository/bundle`): chains the corpus has no mapping file for, and
    /// refusals the generated data causes (a new uniqueness constraint over defaulted attributes; a to-one that
    /// becomes required while some objects have none). A change in any of them fails the test.
    static let known: [String: [String]] = [
        "JohnEstropia__CoreStore/MigrationDemo.xcdatamodeld": [
            "MigrationDemo: needs a mapping", "MigrationDemoV2: needs a mapping",
        ],
        "kiwix__kiwix-apple/Kiwix.xcdatamodeld": ["1.5: needs a mapping", "1.7: needs a mapping"],
        "manicmaniac__core_data_model/model.xcdatamodeld": [
            "model: refused (the data migrated from model to model 2 breaks the model's rules, so the store was left as it was:"
        ],
        "dashpay__dashsync-iOS/DashSync.xcdatamodeld": [
            "DashSync 6: refused (the data migrated from DashSync 6 to DashSync 7 breaks the model's rules, so the store was left as it was:"
        ],
    ]

    @Test(
        .enabled(if: ValidationSupport.corpusExists, "the shared corpus is not beside the repository"),
        arguments: bundles)
    func everyVersionMigratesToTheHead(_ path: String) async throws {
        let bundle = try ModelBundle(contentsOf: path)
        let key = path.split(separator: "/").suffix(2).joined(separator: "/")
        var matrix = MigrationMatrix(bundle: bundle, objects: 3, seedNumber: 5)
        matrix.missingMappingsAreExpected = true
        matrix.versions = Self.sample(bundle)
        var lines: [String] = []
        for result in await matrix.run() {
            switch result.outcome {
            case .migrated:
                continue
            case .needsMapping:
                lines.append("\(result.testCase.version): needs a mapping")
            case .refused(let reason):
                lines.append("\(result.testCase.version): refused (\(reason.split(separator: "\n").first ?? "")")
            case .failed(let reason):
                let properties = Set(result.failures.map { "\($0.entity ?? "").\($0.property ?? "")" }).sorted()
                lines.append(
                    "\(result.testCase.version): failed: \(properties.isEmpty ? reason : properties.joined(separator: ", "))"
                )
            }
        }
        #expect(lines == Self.known[key] ?? [], "\(key)")
    }
}
