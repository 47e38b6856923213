import Foundation
import Remodel
import RemodelGeneration
import Testing

/// The generated code committed under Tests/GeneratedRecords is what `remodel generate` writes today, byte for
/// byte: regenerated here and compared, so it never goes stale (and two runs give the same bytes).
struct GeneratedCodeTests {
    static let root = URL(fileURLWithPath: #filePath).deletingLastPathComponent().deletingLastPathComponent()
        .deletingLastPathComponent()

    static let fixtures: [(model: String, folder: String)] = [
        ("Models/Library.xcdatamodeld", "Library"),
        ("Models/Diligence.xcdatamodeld", "Diligence"),
        ("Tests/RemodelTests/Fixtures/Store/Everything.xcdatamodel", "Everything"),
        ("Tests/RemodelTests/Fixtures/Generation/Names.xcdatamodel", "Names"),
        ("Tests/RemodelTests/Fixtures/Generation/Rules.xcdatamodel", "Rules"),
        ("Tests/RemodelTests/Fixtures/Generation/Archives.xcdatamodel", "Archives"),
    ]

    @Test(arguments: fixtures.map(\.folder))
    func committedCodeIsWhatTheGeneratorWrites(_ folder: String) throws {
        let fixture = try #require(Self.fixtures.first { $0.folder == folder })
        let bundle = try ModelBundle(contentsOf: Self.root.appendingPathComponent(fixture.model).path)
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
                "\(folder)/\(file.name) is stale: run remodel generate \(fixture.model) --output Tests/GeneratedRecords/\(folder) --access public"
            )
        }
    }
}
