import Foundation
import Testing

@testable import Remodel

/// `remodel status --format json`: what the text says, as one object a program reads (docs/JSON.md), with the exit
/// status the text has.
struct StatusJSONTests {
    private static let model = Reliability.modelPath

    private static func status(_ store: String) throws -> (status: Int32, object: [String: Any], error: String) {
        let result = try RemodelProcess.run(["status", store, "--model", model, "--format", "json"])
        let object = try #require(
            try JSONSerialization.jsonObject(with: Data(result.output.utf8)) as? [String: Any], "\(result)")
        return (result.status, object, result.error)
    }

    @Test func anOlderStoreGetsItsPlanAMissingOneCreateANewerOneItsDowngrade() throws {
        let folder = try TemporaryFolder()
        let older = folder.file("older.sqlite")
        _ = try Store.create(at: older, bundle: try MigrationFixtures.library(), version: "Library")
        let (status, object, _) = try Self.status(older)
        #expect(status == 0)
        #expect(object["state"] as? String == "older" && object["version"] as? String == "Library")
        #expect(object["next"] as? String == "migrate" && object["error"] is NSNull)
        let plan = try #require(object["plan"] as? [String: Any])
        #expect(plan["from"] as? String == "Library" && plan["to"] as? String == "Library 3")
        #expect((plan["steps"] as? [Any])?.count == 2)
        #expect((object["carriedModel"] as? [String: Any])?["version"] as? String == "Library")

        let missing = try Self.status(folder.file("none.sqlite"))
        #expect(missing.status == 0)
        #expect(missing.object["state"] as? String == "missing" && missing.object["next"] as? String == "create")
        #expect(missing.object["plan"] is NSNull && missing.object["carriedModel"] is NSNull)

        let scene = try DowngradeScene()
        let newer = try RemodelProcess.run(["status", scene.store, "--model", scene.olderPath, "--format", "json"])
        #expect(newer.status == 1)
        #expect(newer.error.hasPrefix("error: The store at \(scene.store) is at version \"Library 3\""), "\(newer)")
        let newerObject = try #require(
            try JSONSerialization.jsonObject(with: Data(newer.output.utf8)) as? [String: Any])
        #expect(newerObject["state"] as? String == "newer" && newerObject["next"] is NSNull)
        let downgrade = try #require(newerObject["downgrade"] as? [String: Any])
        #expect(downgrade["lossless"] as? Bool == true)
        #expect((downgrade["plan"] as? [String: Any])?["downgrade"] as? Bool == true)
    }

    @Test func formatJSONGoesWithTheDryRun() throws {
        let folder = try TemporaryFolder()
        let store = folder.file("library.sqlite")
        _ = try Store.create(at: store, bundle: try MigrationFixtures.library(), version: "Library 2")
        let result = try RemodelProcess.run(["migrate", store, "--model", Self.model, "--format", "json"])
        #expect(result.status == 64)
        #expect(result.error.hasPrefix("error: --format json prints the plan of --dry-run"), "\(result)")
        #expect(try DowngradeScene.metadataValue("versionName", in: store) == "Library 2")
    }
}
