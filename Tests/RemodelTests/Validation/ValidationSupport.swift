import Foundation

@testable import Remodel
@testable import RemodelModel

/// Builds models from XML written in a test and finds the package's folders.
enum ValidationSupport {
    /// The file name inline models are reported under.
    static let file = "Test.xcdatamodel/contents"

    /// Line 1 and 2 of every inline model; the body starts on line 3.
    static let header = """
        <?xml version="1.0" encoding="UTF-8" standalone="yes"?>
        <model type="com.apple.IDECoreDataModeler.DataModel" documentVersion="1.0">

        """

    /// Reads `body` (the model's children, from line 3) as one version and validates it.
    static func diagnostics(_ body: String) throws -> [String] {
        let (version, readingDiagnostics) = readOnBothRoads(
            Array((header + body + "</model>\n").utf8), file: file, versionName: "Test")
        guard let version else { return readingDiagnostics.map(\.description) }
        let bundle = ModelBundle(name: "Test", path: "Test.xcdatamodel", versions: [version])
        return (readingDiagnostics + ModelValidator.validate(bundle)).map(\.description)
    }

    /// The repository's root folder.
    static let packageRoot = URL(fileURLWithPath: #filePath)
        .deletingLastPathComponent().deletingLastPathComponent().deletingLastPathComponent().deletingLastPathComponent()

    /// `Tests/RemodelTests/Fixtures/Validation`.
    static let fixtures = packageRoot.appendingPathComponent("Tests/RemodelTests/Fixtures/Validation")

    /// The shared corpus of real Xcode models, beside the repository.
    static let corpus = packageRoot.deletingLastPathComponent().appendingPathComponent("shared/corpus")

    /// Whether the corpus is there to test against.
    static var corpusExists: Bool { FileManager.default.fileExists(atPath: corpus.path) }
}
