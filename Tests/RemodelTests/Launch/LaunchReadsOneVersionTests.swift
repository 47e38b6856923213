import Foundation
import Testing

@testable import Remodel
@testable import RemodelModel

/// Opening a current store reads the current version and the store's metadata, not every version
/// of the bundle: other versions are read only on a migration's path.
struct LaunchReadsOneVersionTests {
    private static let item =
        #"<entity name="Item"><attribute name="name" optional="YES" attributeType="String"/></entity>"#

    /// A bundle of 30 versions (each adds an attribute), its store at the current one.
    private func bundle(in folder: TemporaryFolder) throws -> String {
        var versions: [(String, String)] = []
        for number in 1...30 {
            let attributes = (1...number).map {
                #"<attribute name="a\#($0)" optional="YES" attributeType="Integer 32"/>"#
            }.joined()
            versions.append((number == 1 ? "Many" : "Many \(number)", #"<entity name="Item">\#(attributes)</entity>"#))
        }
        return try BundleWriting.write("Many", in: folder.path, versions: versions)
    }

    @Test func launchOnACurrentStoreReadsOnlyTheCurrentVersion() async throws {
        let folder = try TemporaryFolder()
        let path = try bundle(in: folder)
        let store = folder.file("s.sqlite")
        _ = try Store.create(at: store, bundle: try ModelBundle(contentsOf: path))
        // Every other version's file is now unreadable: reading one would fail the launch.
        for number in 1...29 {
            let name = number == 1 ? "Many" : "Many \(number)"
            try Data("not xml".utf8).write(to: URL(fileURLWithPath: "\(path)/\(name).xcdatamodel/contents"))
        }
        let bundle = try ModelBundle(contentsOf: path)
        let (opened, outcome) = try await Store.launch(at: store, bundle: bundle)
        #expect(outcome == .opened)
        #expect(opened.version.name == "Many 30")
        #expect(bundle.loadedVersionNames == ["Many 30"])
        #expect(try StoreInspector.inspect(path: store, bundle: bundle).state == .current(version: "Many 30"))
        #expect(bundle.loadedVersionNames == ["Many 30"])
    }

    @Test func aMigrationReadsOnlyTheVersionsOnItsPath() async throws {
        let folder = try TemporaryFolder()
        let path = try bundle(in: folder)
        let store = folder.file("s.sqlite")
        _ = try Store.create(at: store, bundle: try ModelBundle(contentsOf: path), version: "Many 27")
        let bundle = try ModelBundle(contentsOf: path)
        let report = try await Migrator(bundle: bundle).migrate(storeAt: store)
        #expect(report.steps == 3)
        #expect(bundle.loadedVersionNames == ["Many 27", "Many 28", "Many 29", "Many 30"])
    }

    /// An unreadable version on the path stops the migration before anything is written, naming its file.
    @Test func anUnreadableVersionOnThePathIsNamed() async throws {
        let folder = try TemporaryFolder()
        let path = try bundle(in: folder)
        let store = folder.file("s.sqlite")
        _ = try Store.create(at: store, bundle: try ModelBundle(contentsOf: path), version: "Many 27")
        let before = try fileBytes(store)
        try Data("<model><entity".utf8).write(to: URL(fileURLWithPath: "\(path)/Many 28.xcdatamodel/contents"))
        do {
            _ = try await Migrator(bundle: try ModelBundle(contentsOf: path)).migrate(storeAt: store)
            Issue.record("migrated through an unreadable version")
        } catch {
            #expect(error.code == .invalidModel)
            #expect(error.description.hasPrefix("\(path)/Many 28.xcdatamodel/contents:1:"))
        }
        #expect(try fileBytes(store) == before)
    }
}
