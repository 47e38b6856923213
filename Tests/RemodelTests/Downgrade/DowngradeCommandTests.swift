import Foundation
import Testing

@testable import Remodel
@testable import RemodelModel

/// `remodel status`, `migrate --downgrade`, `rollback` and `export --carried-model` through the built binary,
/// with the older build's bundle (the sample without `Library 3`).
struct DowngradeCommandTests {
    @Test func statusSaysWhatANewerStoreIsAndWhatALosslessDowngradeWouldDo() throws {
        let scene = try DowngradeScene()
        let before = try fileBytes(scene.store)
        let status = try RemodelProcess.run(["status", scene.store, "--model", scene.olderPath])
        #expect(status.status == 1)
        #expect(
            status.error.hasPrefix(
                #"error: The store at \#(scene.store) is at version "Library 3" of model "Library""#), "\(status)")
        let lines = status.output.split(separator: "\n", omittingEmptySubsequences: false).map(String.init)
        #expect(
            lines.prefix(3) == [
                "It carries its model: version Library 3, newer than this build's Library 2.",
                "A lossless downgrade (`remodel migrate --downgrade lossless`) would migrate it down to Library 2, losing no stored value. The plan:",
                "Library: migrate from Library 3 to Library 2 in 1 step (down: Library 3 is newer than this build, read from the model the store carries)",
            ], "\(status)")
        #expect(status.output.contains("  - Tag: removed, objects dropped (inferred: removed, data dropped)\n"))
        #expect(status.output.contains("  Drops Person.email (0 values)\n"))
        #expect(try fileBytes(scene.store) == before)
    }

    @Test func statusSaysWhyALosslessDowngradeCannot() throws {
        let scene = try DowngradeScene(seed: DowngradeScene.lossySeed)
        let status = try RemodelProcess.run(["status", scene.store, "--model", scene.olderPath])
        #expect(status.status == 1)
        #expect(
            status.output == """
                It carries its model: version Library 3, newer than this build's Library 2.
                A lossless downgrade cannot: the store is at version "Library 3", newer than this build's "Library 2", and migrating it down would lose stored values that "Library 2" has no place for, so it was left untouched:
                  - Book.tags (4 values)
                  - Person.email (2 values)
                  - Tag objects (3 objects)
                Migrate it with `--downgrade allow-loss` to drop them (the original is kept as the backup), or open it with the newer build.

                """)
    }

    @Test func statusOfACurrentStoreSaysItCarriesItsModel() throws {
        let scene = try DowngradeScene()
        let status = try RemodelProcess.run(["status", scene.store, "--model", Reliability.modelPath])
        #expect(status.status == 0)
        #expect(
            status.output == """
                The store at \(scene.store) is at the current version "Library 3" of model "Library": nothing to do.
                It carries its model (version Library 3, 2,051 bytes of contents XML; `remodel export --carried-model` prints it).
                Next: nothing to do

                """)
    }

    @Test func migrateDowngradeLosslessGoesDownOrRefusesUntouched() throws {
        let scene = try DowngradeScene()
        let lossy = scene.folder.file("lossy.sqlite")
        try DowngradeScene.makeStore(at: lossy, seed: DowngradeScene.lossySeed, bundle: scene.newer, in: scene.folder)
        let lossyBefore = try fileBytes(lossy)

        let refusedByDefault = try RemodelProcess.run([
            "migrate", scene.store, "--model", scene.olderPath, "--progress", "none",
        ])
        #expect(refusedByDefault.status == 1)
        #expect(
            refusedByDefault.error.contains("it was written by a newer version of the app, so it was left untouched"))

        let migrated = try RemodelProcess.run([
            "migrate", scene.store, "--model", scene.olderPath, "--progress", "none", "--downgrade", "lossless",
        ])
        #expect(migrated.status == 0, "\(migrated)")
        #expect(
            migrated.output.hasPrefix(
                "Migrated \(scene.store) down from Library 3 to Library 2 in 1 step: 2 objects written to Person, 1 other table carried as it was, "
            ),
            "\(migrated)")
        expectSameText(try scene.export(), DowngradeScene.downgradedExport)

        let refused = try RemodelProcess.run([
            "migrate", lossy, "--model", scene.olderPath, "--progress", "none", "--downgrade", "lossless",
        ])
        #expect(refused.status == 1)
        #expect(refused.output.isEmpty)
        #expect(
            refused.error == """
                error: \(lossy): the store is at version "Library 3", newer than this build's "Library 2", and migrating it down would lose stored values that "Library 2" has no place for, so it was left untouched:
                  - Book.tags (4 values)
                  - Person.email (2 values)
                  - Tag objects (3 objects)
                Migrate it with `--downgrade allow-loss` to drop them (the original is kept as the backup), or open it with the newer build.

                """)
        #expect(try fileBytes(lossy) == lossyBefore)
    }

    @Test func allowLossThenRollbackThenARefusalAfterAWrite() throws {
        let scene = try DowngradeScene(seed: DowngradeScene.lossySeed)
        let original = try fileBytes(scene.store)
        let arguments = [
            "migrate", scene.store, "--model", scene.olderPath, "--progress", "none", "--downgrade", "allow-loss",
        ]
        let migrated = try RemodelProcess.run(arguments)
        #expect(migrated.status == 0, "\(migrated)")
        #expect(
            migrated.output.hasSuffix(
                """
                 The original is kept as \(scene.store).remodel-backup.
                  Dropped, as --downgrade allow-loss allows: Book.tags (4 values)
                  Dropped, as --downgrade allow-loss allows: Person.email (2 values)
                  Dropped, as --downgrade allow-loss allows: Tag objects (3 objects)

                """), "\(migrated)")

        let rolledBack = try RemodelProcess.run(["rollback", scene.store])
        #expect(rolledBack.status == 0, "\(rolledBack)")
        #expect(
            rolledBack.output
                == "Rolled \(scene.store) back to the backup the migration kept: it is at version Library 3 again (it was at Library 2).\n"
        )
        #expect(try fileBytes(scene.store) == original)

        #expect(try RemodelProcess.run(arguments).status == 0)
        try SQLiteConnection(path: scene.store, mode: .readWrite).run("DELETE FROM Book WHERE _pk = 12")
        let written = try fileBytes(scene.store)
        let refused = try RemodelProcess.run(["rollback", scene.store])
        #expect(refused.status == 1)
        #expect(
            refused.error == """
                error: \(scene.store): cannot roll back: the store was written since the migration that made the backup (SQLite's change counter in its header is 5, the migration left 4), and putting the backup back would lose those writes; export what you need from the store first (`remodel export`), or keep it; nothing was changed

                """)
        #expect(try fileBytes(scene.store) == written)
    }

    @Test func exportCarriedModelPrintsTheXMLAsWritten() throws {
        let scene = try DowngradeScene()
        let exported = try RemodelProcess.run(["export", scene.store, "--model", scene.olderPath, "--carried-model"])
        #expect(exported.status == 0, "\(exported)")
        #expect(exported.output == (try DowngradeScene.contents("Library 3")))
        // The JSON export is unchanged: one object keyed by entity name, nothing else.
        let json = try RemodelProcess.run(["export", scene.store, "--model", Reliability.modelPath])
        #expect(json.status == 0)
        let object = try #require(try JSONSerialization.jsonObject(with: Data(json.output.utf8)) as? [String: Any])
        #expect(object.keys.sorted() == ["Book", "Person", "Tag"])
    }
}
