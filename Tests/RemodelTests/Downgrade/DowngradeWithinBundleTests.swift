import Foundation
import Testing

@testable import Remodel

/// `remodel migrate --to OLDER --downgrade …` on a store at a later version of the same bundle: it goes down under
/// the rules of a rolled-back build (lossless refuses naming what would be lost; allow-loss keeps the backup), and
/// without `--downgrade` it is refused untouched with a sentence that says how to go down.
struct DowngradeWithinBundleTests {
    private static let model = Reliability.modelPath

    private func migrate(_ store: String, _ arguments: String...) throws -> (
        status: Int32, output: String, error: String
    ) {
        try RemodelProcess.run(["migrate", store, "--model", Self.model, "--progress", "none"] + arguments)
    }

    @Test func withoutDowngradeTheStoreIsRefusedUntouched() throws {
        let scene = try DowngradeScene()
        let before = try fileBytes(scene.store)
        let refused = try migrate(scene.store, "--to", "Library 2")
        #expect(refused.status == 1, "\(refused)")
        #expect(
            refused.error
                == "error: \(Self.model): the store is at Library 3, which comes after Library 2 in the version order, so it was left untouched; to migrate it down, allow a downgrade (`--downgrade lossless`, which refuses to lose a stored value, or `allow-loss`, which keeps the original as a backup; MigrationOptions.downgrade)\n"
        )
        #expect(try fileBytes(scene.store) == before)
    }

    @Test func losslessGoesDownObjectByObjectAndUpAgain() throws {
        let scene = try DowngradeScene()
        let dryRun = try migrate(scene.store, "--to", "Library 2", "--downgrade", "lossless", "--dry-run")
        #expect(dryRun.status == 0, "\(dryRun)")
        #expect(
            dryRun.output.hasPrefix(
                "Library: migrate from Library 3 to Library 2 in 1 step (down: Library 3 comes after Library 2 in the version order)\nStep 1: Library 3 → Library 2 (inferred)\n"
            ), "\(dryRun)")
        let down = try migrate(scene.store, "--to", "Library 2", "--downgrade", "lossless")
        #expect(down.status == 0, "\(down)")
        #expect(
            down.output.hasPrefix(
                "Migrated \(scene.store) down from Library 3 to Library 2 in 1 step: 2 objects written to Person, 1 other table carried as it was, "
            ), "\(down)")
        #expect(!FileManager.default.fileExists(atPath: scene.store + ".remodel-backup"))
        expectSameText(try scene.export(), DowngradeScene.downgradedExport)
        #expect(try DowngradeScene.metadataValue("versionName", in: scene.store) == "Library 2")
        let up = try migrate(scene.store)
        #expect(up.status == 0, "\(up)")
        #expect(up.output.hasPrefix("Migrated \(scene.store) from Library 2 to Library 3 in 1 step"), "\(up)")
        #expect(try DowngradeScene.metadataValue("versionName", in: scene.store) == "Library 3")
    }

    @Test func losslessRefusesNamingWhatWouldBeLost() throws {
        let scene = try DowngradeScene(seed: DowngradeScene.lossySeed)
        let before = try fileBytes(scene.store)
        let refused = try migrate(scene.store, "--to", "Library 2", "--downgrade", "lossless")
        #expect(refused.status == 1)
        #expect(
            refused.error == """
                error: \(scene.store): the store is at version "Library 3", which comes after "Library 2" in the version order, and migrating it down would lose stored values that "Library 2" has no place for, so it was left untouched:
                  - Book.tags (4 values)
                  - Person.email (2 values)
                  - Tag objects (3 objects)
                Migrate it with `--downgrade allow-loss` to drop them (the original is kept as the backup).

                """)
        #expect(try fileBytes(scene.store) == before)
    }

    @Test func allowLossKeepsTheBackupThatRollbackPutsBack() throws {
        let scene = try DowngradeScene(seed: DowngradeScene.lossySeed)
        let original = try fileBytes(scene.store)
        let down = try migrate(scene.store, "--to", "Library 2", "--downgrade", "allow-loss")
        #expect(down.status == 0, "\(down)")
        #expect(
            down.output.hasSuffix(
                """
                 The original is kept as \(scene.store).remodel-backup.
                  Dropped, as --downgrade allow-loss allows: Book.tags (4 values)
                  Dropped, as --downgrade allow-loss allows: Person.email (2 values)
                  Dropped, as --downgrade allow-loss allows: Tag objects (3 objects)

                """), "\(down)")
        expectSameText(try scene.export(), DowngradeScene.downgradedExport)
        let rolledBack = try RemodelProcess.run(["rollback", scene.store])
        #expect(rolledBack.status == 0, "\(rolledBack)")
        #expect(try fileBytes(scene.store) == original)
    }

    /// Two versions down, where the older version needs values inference cannot give (`Library` has
    /// `firstName` and `lastName`, required, which `Library 3` lacks): refused, naming them, untouched.
    @Test func aStepDownThatNeedsValuesIsRefusedNamingThem() throws {
        let scene = try DowngradeScene()
        let before = try fileBytes(scene.store)
        let refused = try migrate(scene.store, "--to", "Library", "--downgrade", "allow-loss")
        #expect(refused.status == 1, "\(refused)")
        #expect(refused.error.contains("Person.firstName"), "\(refused)")
        #expect(refused.error.contains("Person.lastName"), "\(refused)")
        #expect(try fileBytes(scene.store) == before)
    }
}
