import Foundation
import Testing

@testable import Remodel
@testable import RemodelModel

/// A Core Data store written at a version the bundle has after the one its `.xccurrentversion` names
/// (CoreDataPlus ships such a bundle): it imports at that version, and `export` and `status` read the
/// new store, since reading migrates nothing; launch and `migrate` still never take it backwards.
struct CoreDataLaterVersionTests {
    /// "Zoo 1" lacks Zone.title, "Zoo 2" is the zoo the store was written with, and "Zoo 1" is current.
    static func bundle(in folder: TemporaryFolder) throws -> String {
        let first = CoreDataStoreBuilder.zooEntities.replacingOccurrences(
            of: #"<attribute name="title" attributeType="String"/>"#, with: "")
        return try BundleWriting.write(
            "Zoo", in: folder.path, versions: [("Zoo 1", first), ("Zoo 2", CoreDataStoreBuilder.zooEntities)],
            current: "Zoo 1")
    }

    @Test func importsExportsAndTellsTheStatusOfAStoreAfterTheCurrentVersion() throws {
        let folder = try TemporaryFolder()
        let source = try CoreDataStoreBuilder.zoo(at: folder.file("Zoo.sqlite"))
        let bundle = try Self.bundle(in: folder)
        let target = folder.file("zoo.sqlite")

        let imported = try RemodelProcess.run(["import-core-data", source, "--model", bundle, "--into", target])
        #expect(imported.status == 0, "\(imported.error)")
        #expect(
            imported.output.hasSuffix(
                "\nNext: \"Zoo 2\" comes after the bundle's current version \"Zoo 1\"; make it the current version (in Xcode, or in .xccurrentversion) to open the store at launch; `remodel export` reads it as it is.\n"
            ), "\(imported.output)")

        let export = try RemodelProcess.run(["export", target, "--model", bundle])
        #expect(export.status == 0, "\(export.error)")
        let objects = try #require(
            try JSONSerialization.jsonObject(with: Data(export.output.utf8)) as? [String: [[String: Any]]])
        #expect(objects["Zone"]?.compactMap { $0["title"] as? String } == ["North", "South"])
        #expect(objects["Cat"]?.count == 2 && objects["Dog"]?.count == 2)

        let status = try RemodelProcess.run(["status", target, "--model", bundle])
        #expect(status.status == 0, "\(status.error)")
        #expect(
            status.output.hasPrefix(
                "The store at \(target) is at version \"Zoo 2\" of model \"Zoo\", which comes after the bundle's current version \"Zoo 1\": it can be read (export), but launch and migrate leave it untouched, as they never take a store backwards; if the app uses \"Zoo 2\", make it the current version (in Xcode, or in .xccurrentversion).\n"
            ), "\(status.output)")

        let before = try Data(contentsOf: URL(fileURLWithPath: target))
        let migrate = try RemodelProcess.run(["migrate", target, "--model", bundle])
        #expect(migrate.status == 1)
        #expect(try Data(contentsOf: URL(fileURLWithPath: target)) == before)
    }
}
