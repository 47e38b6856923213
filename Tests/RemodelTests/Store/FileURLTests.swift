import Foundation
import Testing

@testable import Remodel
@testable import RemodelModel

/// The API takes file URLs wherever it takes paths, as Foundation code holds them.
struct FileURLTests {
    /// Create from a seed, inspect, migrate, open and export, every file named by URL — a folder with a
    /// space in its name, which a URL percent-encodes and a path does not.
    @Test func aStoreLivesItsWholeLifeByURL() async throws {
        let folder = try TemporaryFolder()
        let root = URL(fileURLWithPath: folder.path).appendingPathComponent("App Support", isDirectory: true)
        try FileManager.default.createDirectory(at: root, withIntermediateDirectories: true)
        let package = URL(fileURLWithPath: MigrationFixtures.packageRoot)
        let bundle = try ModelBundle(contentsOf: package.appendingPathComponent("Models/Library.xcdatamodeld"))
        let store = root.appendingPathComponent("Library.sqlite")
        let seed = URL(fileURLWithPath: MigrationFixtures.path("Library", "seed.json"))

        _ = try Store.create(at: store, bundle: bundle, version: "Library", seed: seed)
        #expect(try StoreInspector.inspect(url: store, bundle: bundle).migrationSteps == 2)
        let migrator = Migrator(
            bundle: bundle, options: MigrationOptions(mappingsDirectory: package.appendingPathComponent("Mappings")))
        #expect(try migrator.plan(storeAt: store).steps.count == 2)
        let report = try await migrator.migrate(storeAt: store)
        #expect(report.path == root.path + "/Library.sqlite" && report.targetVersion == "Library 3")
        let exported = root.appendingPathComponent("export.json")
        try Store.open(at: store, bundle: bundle).exportJSON(to: exported)
        expectSameText(
            try String(contentsOf: exported, encoding: .utf8), try MigrationFixtures.text("Library", "expected-3.json"))
        let (_, outcome) = try await Store.launch(at: store, bundle: bundle)
        #expect(outcome == .opened)
    }

    @Test func aURLThatIsNotAFileIsRefusedNamingIt() throws {
        let url = try #require(URL(string: "https://example.com/Library.xcdatamodeld"))
        #expect {
            try ModelBundle(contentsOf: url)
        } throws: { error in
            (error as? RemodelError)?.description
                == "https://example.com/Library.xcdatamodeld is not a file URL; give a file's URL (URL(fileURLWithPath:))"
        }
    }
}
