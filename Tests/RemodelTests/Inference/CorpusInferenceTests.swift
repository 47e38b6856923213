import Foundation
import Testing

@testable import Remodel
@testable import RemodelModel
@testable import RemodelProject

/// Inference over every consecutive version pair of the real Xcode models in the shared corpus.
@Suite(.tags(.corpus), .skippable(.corpus))
struct CorpusInferenceTests {
    @Test(.enabled(if: ValidationSupport.corpusExists, "the shared corpus is not beside the repository"))
    func everyConsecutivePairGetsAMappingOrAPreciseAnswer() throws {
        var search = ModelSearch()
        try search.add(ValidationSupport.corpus.path)
        var pairs = 0
        var inferable = 0
        var problems: [String] = []
        for model in search.models {
            guard let bundle = ModelReader.read(path: model.path).bundle, bundle.versions.count > 1 else { continue }
            for (source, destination) in zip(bundle.versions, bundle.versions.dropFirst()) {
                pairs += 1
                let mapping = MappingInference.infer(from: source, to: destination, modelName: bundle.name)
                #expect(mapping.entities.allSatisfy { $0.source != nil || $0.destination != nil })
                if mapping.problems.isEmpty {
                    inferable += 1
                } else {
                    for problem in mapping.problems {
                        #expect(
                            destination.entity(named: problem.entity) != nil
                                || source.entity(named: problem.entity) != nil)
                        #expect(!problem.message.isEmpty)
                        problems.append("\(bundle.name) \(source.name) → \(destination.name): \(problem)")
                    }
                }
                let diff = try ModelDiff(bundle: bundle, from: source.name, to: destination.name)
                #expect(diff.lints.filter { $0.rule == "needs-mapping" }.count == mapping.problems.count)
            }
        }
        // 12 multi-version bundles with 88 consecutive pairs (SOURCES.md: mastodon 8, CoreStore 1 + 1 + 2,
        // manicmaniac 1, RestKit 3, kiwix 3, wire 43 + 2, DashSync 20, CoreDataPlus 2 + 2).
        #expect(pairs == 88)
        #expect(inferable + Set(problems.map { $0.components(separatedBy: ":").first ?? "" }).count == pairs)
        print(
            "Corpus inference: \(pairs) consecutive pairs, \(inferable) inferred completely, \(pairs - inferable) need a mapping (\(problems.count) problems)"
        )
        for line in problems { print("  " + line) }
    }
}

struct VersionOrderWarningTests {
    @Test func aCurrentVersionFollowedByOthersIsWarnedAbout() throws {
        let folder = FileManager.default.temporaryDirectory.appendingPathComponent(
            "remodel-order-\(UUID().uuidString)/App.xcdatamodeld")
        defer { try? FileManager.default.removeItem(at: folder.deletingLastPathComponent()) }
        for name in ["1.5", "App"] {
            let version = folder.appendingPathComponent("\(name).xcdatamodel")
            try FileManager.default.createDirectory(at: version, withIntermediateDirectories: true)
            try #"<model><entity name="Item" versionHashModifier="\#(name)"/></model>"#.write(
                to: version.appendingPathComponent("contents"), atomically: true, encoding: .utf8)
        }
        try """
        <?xml version="1.0" encoding="UTF-8"?>
        <plist version="1.0"><dict><key>_XCCurrentVersionName</key><string>1.5.xcdatamodel</string></dict></plist>
        """.write(to: folder.appendingPathComponent(".xccurrentversion"), atomically: true, encoding: .utf8)
        let bundle = try ModelBundle(contentsOf: folder.path)
        let found = ModelValidator.validate(bundle).filter { $0.rule == "current-version-not-last" }
        #expect(
            found.map(\.description) == [
                "\(folder.path)/1.5.xcdatamodel/contents:1:1: warning: the current version '1.5' is followed in migration order (natural sort of names) by 'App'; if those are older versions, list every version oldest first in .remodel-version-order in the bundle [current-version-not-last]"
            ])
    }
}
