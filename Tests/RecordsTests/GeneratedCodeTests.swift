import Foundation
import Remodel
import RemodelGeneration
import Testing

/// The generated code committed under Tests/GeneratedRecords is what `remodel generate` writes today, byte for
/// byte: regenerated here and compared, so it never goes stale (and two runs give the same bytes).
struct GeneratedCodeTests {
    static let root = URL(fileURLWithPath: #filePath).deletingLastPathComponent().deletingLastPathComponent()
        .deletingLastPathComponent()

    static let fixtures: [(model: String, folder: String, configuration: String?)] = [
        ("Models/Library.xcdatamodeld", "Library", nil),
        ("Models/Diligence.xcdatamodeld", "Diligence", nil),
        ("Tests/RemodelTests/Fixtures/Store/Everything.xcdatamodel", "Everything", nil),
        ("Tests/RemodelTests/Fixtures/Generation/Names.xcdatamodel", "Names", nil),
        ("Tests/RemodelTests/Fixtures/Generation/Rules.xcdatamodel", "Rules", nil),
        ("Tests/RemodelTests/Fixtures/Generation/Archives.xcdatamodel", "Archives", nil),
        ("Tests/RemodelTests/Fixtures/Generation/Shop.xcdatamodel", "Shop/Cloud", "Cloud"),
        ("Tests/RemodelTests/Fixtures/Generation/Shop.xcdatamodel", "Shop/Local", "Local"),
    ]

    @Test(arguments: fixtures.map(\.folder))
    func committedCodeIsWhatTheGeneratorWrites(_ folder: String) throws {
        let fixture = try #require(Self.fixtures.first { $0.folder == folder })
        let whole = try ModelBundle(contentsOf: Self.root.appendingPathComponent(fixture.model).path)
        let bundle = try fixture.configuration.map { try whole.restricted(toConfiguration: $0) } ?? whole
        let generator = try RecordGenerator(bundle: bundle, access: .public)
        let files = generator.files()
        #expect(files == generator.files(), "two runs give the same bytes")
        let directory = Self.root.appendingPathComponent("Tests/GeneratedRecords/\(folder)")
        let committed = try FileManager.default.contentsOfDirectory(atPath: directory.path).sorted()
        #expect(committed == files.map(\.name).sorted())
        for file in files {
            let text = try String(contentsOf: directory.appendingPathComponent(file.name), encoding: .utf8)
            #expect(
                text == file.contents,
                "\(folder)/\(file.name) is stale: run remodel generate \(fixture.model)\(fixture.configuration.map { " --configuration \($0)" } ?? "") --output Tests/GeneratedRecords/\(folder) --access public"
            )
        }
    }
}
