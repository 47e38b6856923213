import Foundation
import Testing

@testable import Remodel
@testable import RemodelModel

/// Problems that cannot bite the store at hand do not stop its migration; those that do name the objects.
struct DataAwarePlanningTests {
    private func bundle() throws -> ModelBundle {
        let v1 = try makeVersion(
            "V1",
            """
            <entity name="Person"><attribute name="name" optional="YES" attributeType="String"/></entity>
            <entity name="Note"><attribute name="text" optional="YES" attributeType="String"/></entity>
            """)
        let v2 = try makeVersion(
            "V2",
            """
            <entity name="Person"><attribute name="name" attributeType="String"/></entity>
            <entity name="Note"><attribute name="text" optional="YES" attributeType="String"/><attribute name="title" attributeType="String"/></entity>
            """)
        return makeBundle("Notes", v1, v2)
    }

    private func store(_ seed: String) throws -> (path: String, folder: URL) {
        let folder = FileManager.default.temporaryDirectory.appendingPathComponent("remodel-aware-\(UUID().uuidString)")
        try FileManager.default.createDirectory(at: folder, withIntermediateDirectories: true)
        let seedFile = folder.appendingPathComponent("seed.json")
        try seed.write(to: seedFile, atomically: true, encoding: .utf8)
        let path = folder.appendingPathComponent("store.sqlite").path
        _ = try Store.create(at: path, bundle: try bundle(), version: "V1", seed: seedFile.path)
        try FileManager.default.removeItem(at: seedFile)
        return (path, folder)
    }

    @Test func aStoreThatCannotBreakTheNewRulesIsMigrated() async throws {
        let (path, folder) = try store(#"{"Note": [], "Person": [{"_pk": 1, "name": "Ada"}]}"#)
        defer { try? FileManager.default.removeItem(at: folder) }
        let report = try await Migrator(bundle: try bundle()).migrate(storeAt: path)
        #expect(report.targetVersion == "V2")
    }

    @Test func aStoreThatWouldBreakThemIsRefusedNamingTheObjects() async throws {
        let (path, folder) = try store(
            """
            {"Note": [{"_pk": 4, "text": "x"}], "Person": [{"_pk": 1, "name": "Ada"}, {"_pk": 2, "name": null}, {"_pk": 3, "name": null}]}
            """)
        defer { try? FileManager.default.removeItem(at: folder) }
        let before = try Data(contentsOf: URL(fileURLWithPath: path))
        let error = await #expect(throws: RemodelError.self) {
            try await Migrator(bundle: try bundle()).migrate(storeAt: path)
        }
        #expect(error?.code == .migrationNotPlannable)
        #expect(
            error?.message.contains(
                "Person.name: was optional and is now required with no default value, so objects where it is nil cannot be carried over (this store has 2 Person objects it applies to: _pk 2, 3)"
            ) == true)
        #expect(
            error?.message.contains(
                "Note.title: String attribute is new and required, with no default value (this store has 1 Note object it applies to: _pk 4)"
            ) == true)
        #expect(try Data(contentsOf: URL(fileURLWithPath: path)) == before)
        #expect(try FileManager.default.contentsOfDirectory(atPath: folder.path) == ["store.sqlite"])
    }
}
