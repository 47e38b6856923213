import Foundation
import Testing

@testable import Remodel
@testable import RemodelModel

struct StoreLaunchMigrationTests {
    private let repository = URL(fileURLWithPath: #filePath).deletingLastPathComponent().deletingLastPathComponent()
        .deletingLastPathComponent().deletingLastPathComponent()

    private func library() throws -> ModelBundle {
        try ModelBundle(contentsOf: repository.appendingPathComponent("Models/Library.xcdatamodeld").path)
    }

    private func folder() throws -> URL {
        let url = FileManager.default.temporaryDirectory.appendingPathComponent("remodel-launch-\(UUID().uuidString)")
        try FileManager.default.createDirectory(at: url, withIntermediateDirectories: true)
        return url
    }

    @Test func firstLaunchCreatesThenLaterLaunchesOpen() async throws {
        let directory = try folder()
        defer { try? FileManager.default.removeItem(at: directory) }
        let path = directory.appendingPathComponent("user-1.sqlite").path
        let (created, first) = try await Store.launch(at: path, bundle: try library())
        #expect(first == .created)
        #expect(created.version.name == "Library 3")
        let (_, second) = try await Store.launch(at: path, bundle: try library())
        #expect(second == .opened)
    }

    @Test func anOlderStoreIsMigratedWithProgressThenOpened() async throws {
        let directory = try folder()
        defer { try? FileManager.default.removeItem(at: directory) }
        let path = directory.appendingPathComponent("user-2.sqlite").path
        _ = try Store.create(at: path, bundle: try library(), version: "Library 2")
        let events = Collector<MigrationProgress>()
        let options = MigrationOptions(mappingsDirectory: repository.appendingPathComponent("Mappings").path)
        let (store, outcome) = try await Store.launch(at: path, bundle: try library(), options: options) {
            events.append($0)
        }
        guard case .migrated(let report) = outcome else {
            Issue.record("expected a migration, got \(outcome)")
            return
        }
        #expect(report.sourceVersion == "Library 2")
        #expect(report.targetVersion == "Library 3")
        #expect(store.version.name == "Library 3")
        #expect(events.values.last?.fraction == 1)
    }

    @Test func aFileThatIsNotAStoreIsRefusedUntouched() async throws {
        let directory = try folder()
        defer { try? FileManager.default.removeItem(at: directory) }
        let path = directory.appendingPathComponent("notes.sqlite").path
        let garbage = Data("not a database at all, just text".utf8)
        try garbage.write(to: URL(fileURLWithPath: path))
        await #expect(throws: RemodelError.self) { _ = try await Store.launch(at: path, bundle: try library()) }
        #expect(try Data(contentsOf: URL(fileURLWithPath: path)) == garbage)
        #expect(try FileManager.default.contentsOfDirectory(atPath: directory.path) == ["notes.sqlite"])
    }
}
