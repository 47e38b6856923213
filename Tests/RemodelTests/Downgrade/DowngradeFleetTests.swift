import Foundation
import Testing

@testable import Remodel
@testable import RemodelFleet
@testable import RemodelModel

/// `migrate --downgrade lossless` over a fleet after a rolled-back deploy: the stores the deploy migrated
/// go down, those that would lose values are refused untouched with their reason, the others are current.
@Suite(.tags(.slow), .skippable(.slow))
struct DowngradeFleetTests {
    @Test func aFleetSaysWhichStoresWentDownAndWhichWereRefusedAndWhy() async throws {
        let scene = try DowngradeScene(storeName: "clean-1.sqlite")
        let clean = [scene.store, scene.folder.file("clean-2.sqlite")]
        try DowngradeScene.makeStore(
            at: clean[1], seed: DowngradeScene.cleanSeed, bundle: scene.newer, in: scene.folder)
        let lossy = scene.folder.file("lossy.sqlite")
        try DowngradeScene.makeStore(at: lossy, seed: DowngradeScene.lossySeed, bundle: scene.newer, in: scene.folder)
        let current = scene.folder.file("current.sqlite")
        _ = try Store.create(at: current, bundle: scene.older)
        let lossyBefore = try fileBytes(lossy)

        // Through the API.
        var results: [String: StoreMigrationResult] = [:]
        for await result in Migrator(bundle: scene.older, options: DowngradeScene.options(.lossless)).migrate(
            stores: clean + [lossy, current], jobs: 2)
        {
            results[result.path] = result
        }
        for path in clean {
            #expect(results[path]?.outcome == .migrated && results[path]?.report?.isDowngrade == true, "\(path)")
            #expect(results[path]?.sourceVersion == "Library 3" && results[path]?.targetVersion == "Library 2")
            expectSameText(try scene.export(path), DowngradeScene.downgradedExport)
        }
        #expect(results[lossy]?.outcome == .refused)
        #expect(results[lossy]?.reason == .downgradeLosesData)
        #expect(results[lossy]?.sourceVersion == "Library 3")
        #expect(results[lossy]?.jsonLine.contains(#""reason":"downgrade-loses-data""#) == true)
        #expect(results[current]?.outcome == .current)
        #expect(try fileBytes(lossy) == lossyBefore)
    }

    @Test func theCommandLineReportSaysWhichWentDown() throws {
        let scene = try DowngradeScene(storeName: "clean.sqlite")
        let lossy = scene.folder.file("lossy.sqlite")
        try DowngradeScene.makeStore(at: lossy, seed: DowngradeScene.lossySeed, bundle: scene.newer, in: scene.folder)
        let lossyBefore = try fileBytes(lossy)
        let report = scene.folder.file("report.jsonl")
        let executable: URL = try #require(Reliability.executable, "build the remodel product first")
        let dryRun = try Reliability.Child(
            executable,
            [
                "migrate", scene.folder.path + "/*.sqlite", "--model", scene.olderPath, "--downgrade", "lossless",
                "--dry-run",
            ],
            environment: [:]
        ).wait()
        #expect(dryRun.status == 1, "\(dryRun)")
        #expect(
            dryRun.output.hasPrefix(
                "\(scene.store): Library 3 → Library 2 (down, from the model the store carries), 1 step. Runs as 1 pass over the store.\n"
            ), "\(dryRun)")
        #expect(
            dryRun.output.contains(
                "Dry run: 2 stores: 1 to migrate, 0 already current, 1 refused, 0 failing transiently. Nothing was changed."
            ))
        let run = try Reliability.Child(
            executable,
            [
                "migrate", scene.folder.path + "/*.sqlite", "--model", scene.olderPath, "--downgrade", "lossless",
                "--jobs", "2", "--report", report,
                "--progress", "none",
            ],
            environment: [:]
        ).wait()
        #expect(run.status == 1, "a refused store makes the fleet exit 1: \(run)")
        #expect(
            run.output.contains(
                "Migrated \(scene.store) down from Library 3 to Library 2 in 1 step: 2 objects written"), "\(run)")
        #expect(
            run.output.contains(
                "2 stores: 1 migrated (1 down), 0 already current, 1 refused, 0 failed transiently, 0 not started; 2 objects written in "
            ), "\(run)")
        #expect(
            run.error.contains(
                "error: \(lossy): the store is at version \"Library 3\", newer than this build's \"Library 2\", and migrating it down would lose stored values"
            ))
        let lines = try String(contentsOfFile: report, encoding: .utf8).split(separator: "\n").map { line in
            try #require(try JSONSerialization.jsonObject(with: Data(line.utf8)) as? [String: Any])
        }
        let byPath = Dictionary(uniqueKeysWithValues: lines.map { ($0["path"] as? String ?? "", $0) })
        #expect(byPath[scene.store]?["outcome"] as? String == "migrated")
        #expect(byPath[scene.store]?["downgrade"] as? Bool == true)
        #expect(byPath[scene.store]?["from"] as? String == "Library 3")
        #expect(byPath[scene.store]?["to"] as? String == "Library 2")
        #expect(byPath[lossy]?["outcome"] as? String == "refused")
        #expect(byPath[lossy]?["reason"] as? String == "downgrade-loses-data")
        #expect(byPath[lossy]?["downgrade"] as? Bool == false)
        #expect((byPath[lossy]?["message"] as? String)?.contains("  - Person.email (2 values)") == true)
        #expect(try fileBytes(lossy) == lossyBefore)
    }
}
