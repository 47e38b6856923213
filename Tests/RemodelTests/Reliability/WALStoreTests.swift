import Foundation
import Testing
@testable import Remodel

/// A store in WAL mode is inspected, planned and exported without a byte changing and without a
/// `-wal` or `-shm` left beside it. (Before: `status` and `--dry-run` left an empty `-wal` and a `-shm`.)
@Suite struct WALStoreTests {
    /// A "Library" store of 30 people in WAL mode, nothing open on it.
    private func walStore(_ folder: TemporaryFolder) throws -> String {
        let store = folder.file("library.sqlite")
        try Reliability.makeStore(at: store, people: 30)
        try StoreStates.makeWAL(store)
        try #require(try folder.contents() == ["library.sqlite"])
        return store
    }

    @Test func statusDryRunAndExportChangeNothing() throws {
        let folder = try TemporaryFolder()
        let store = try walStore(folder)
        let before = try FolderSnapshot(folder.path)
        let status = try Reliability.status(store)
        #expect(status.status == 0, "\(status)")
        #expect(try FolderSnapshot(folder.path) == before, "status")
        let plan = try Reliability.remodel(Reliability.migrateArguments(store) + ["--dry-run"])
        #expect(plan.status == 0, "\(plan)")
        #expect(try FolderSnapshot(folder.path) == before, "--dry-run")
        let output = try TemporaryFolder()
        let export = try Reliability.remodel(["export", store, "--model", Reliability.modelPath, "--output", output.file("export.json")])
        #expect(export.status == 0, "\(export)")
        #expect(try FolderSnapshot(folder.path) == before, "export")
        #expect(try String(contentsOfFile: output.file("export.json"), encoding: .utf8).contains("\"Person\""))
    }
}
