import Foundation
import Testing

@testable import Remodel
@testable import RemodelCoreData

/// The write-path invariant for `import-core-data`: what it imports from a Core Data store — every real one of
/// `shared/corpus-coredata` (copied first, never opened in place) and the suite's built zoo, with its inheritance,
/// every value encoding and an ordered many-to-many — passes the full check, and its export imports back.
@Suite(.tags(.corpus), .skippable(.corpus))
struct CoreDataImportCheckTests {
    @Test(
        .enabled(if: CoreDataCorpus.exists, "shared/corpus-coredata is not beside the repository"),
        arguments: CoreDataCorpus.fixtures)
    func aRealStoreImportedPassesTheFullCheck(fixture: CoreDataCorpus.Fixture) throws {
        let folder = try TemporaryFolder()
        try FileManager.default.createDirectory(atPath: folder.file("source"), withIntermediateDirectories: true)
        let source = try fixture.copyStore(into: folder.file("source"))
        let bundle = try ModelBundle(contentsOf: fixture.bundlePath)
        let result = try Store.importCoreData(from: source, bundle: bundle, into: folder.file("imported.sqlite"))
        let version = try bundle.loadVersion(named: result.versionName)
        let imported = ModelBundle(name: bundle.name, versions: [version])
        let problems = try WritePathsPropertyTests.problems(
            ofStoreAt: folder.file("imported.sqlite"), bundle: imported, folder: folder)
        #expect(problems.isEmpty, "\(fixture): \(problems.joined(separator: "\n"))")
    }

    @Test func theBuiltZooImportedPassesTheFullCheck() throws {
        let folder = try TemporaryFolder()
        let source = try CoreDataStoreBuilder.zoo(at: folder.file("Zoo.sqlite"))
        let bundle = try ModelBundle(
            contentsOf: try BundleWriting.write(
                "Zoo", in: folder.path, versions: [("Zoo 1", CoreDataStoreBuilder.zooEntities)]))
        _ = try Store.importCoreData(from: source, bundle: bundle, into: folder.file("imported.sqlite"))
        let problems = try WritePathsPropertyTests.problems(
            ofStoreAt: folder.file("imported.sqlite"), bundle: bundle, folder: folder)
        #expect(problems.isEmpty, "\(problems.joined(separator: "\n"))")
    }
}
