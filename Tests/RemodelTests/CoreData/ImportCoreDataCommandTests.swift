import Foundation
import Testing

@testable import Remodel
@testable import RemodelCoreData
@testable import RemodelModel

/// `remodel import-core-data` end to end: the built binary, its output, its exit status, its progress,
/// and a kill at any moment leaving no partial store.
struct ImportCoreDataCommandTests {
    @Test func importsAndSaysWhatItDid() throws {
        let folder = try TemporaryFolder()
        let source = try CoreDataStoreBuilder.zoo(at: folder.file("Zoo.sqlite"))
        let bundle = try BundleWriting.write(
            "Zoo", in: folder.path, versions: [("Zoo 1", CoreDataStoreBuilder.zooEntities)])
        let target = folder.file("zoo-remodel.sqlite")
        let run = try RemodelProcess.run([
            "import-core-data", source, "--model", bundle, "--into", target, "--progress", "json",
        ])
        #expect(run.status == 0, "\(run.error)")
        #expect(
            run.output
                == "Imported the Core Data store \(source) into \(target) at version \"Zoo 1\" (found from the store's metadata and tables) of model \"Zoo\": 1 Animal, 2 Cat, 2 Dog, 2 Keeper, 2 Zone; links: 3 in _Keeper_zones; 1 external data file read in. Not imported (Core Data's own bookkeeping): ACHANGE (3 rows), ANSCKRECORDMETADATA (1 row), ATRANSACTION (2 rows), ATRANSACTIONSTRING (0 rows), Z_MODELCACHE (1 row).\n"
        )
        let lines = run.error.split(separator: "\n").map(String.init)
        #expect(
            lines.first
                == #"{"activity":"importing","completed":5,"fraction":0.5555555555555556,"item":"Animal","total":9,"unit":"objects"}"#
        )
        #expect(
            lines.last
                == #"{"activity":"importing","completed":9,"fraction":1,"item":"Zone","total":9,"unit":"objects"}"#)
    }

    @Test func namesTheCommandToMigrateWhenTheVersionIsNotTheCurrentOne() throws {
        let folder = try TemporaryFolder()
        let source = try CoreDataStoreBuilder.zoo(at: folder.file("Zoo.sqlite"))
        let bundle = try BundleWriting.write("Zoo", in: folder.path, versions: CoreDataVersionTests.twins)
        let target = folder.file("zoo-remodel.sqlite")
        let refused = try RemodelProcess.run(["import-core-data", source, "--model", bundle, "--into", target])
        #expect(refused.status == 1)
        #expect(
            refused.error
                == "error: \(source): the Core Data store fits versions \"Zoo 1\" and \"Zoo 2\" of model \"Zoo\" equally (same tables, columns and indexes; Core Data's version hashes, which would tell them apart, cannot be computed outside Apple's platforms); say which one wrote it with --version\n"
        )
        let run = try RemodelProcess.run([
            "import-core-data", source, "--model", bundle, "--into", target, "--version", "Zoo 1", "-q",
        ])
        #expect(run.status == 0 && run.output.isEmpty && run.error.isEmpty, "\(run)")
        let loud = try RemodelProcess.run([
            "import-core-data", source, "--model", bundle, "--into", folder.file("again.sqlite"), "--version", "Zoo 1",
        ])
        #expect(
            loud.output.hasSuffix(".\nNext: remodel migrate \(folder.file("again.sqlite")) --model \(bundle)\n"),
            "\(loud.output)")
        let status = try RemodelProcess.run(["status", target, "--model", bundle])
        #expect(status.output.contains("at version \"Zoo 1\""), "\(status.output)")
    }

    /// Kills the import at each of its fault points: before the rename nothing is at the target (and a
    /// second run imports); after it the store is whole.
    @Test(arguments: CoreDataFaultPoint.allCases.map(\.rawValue))
    func killedImportLeavesNoPartialStore(point: String) throws {
        let folder = try TemporaryFolder()
        let source = try CoreDataStoreBuilder.zoo(at: folder.file("Zoo.sqlite"))
        let bundle = try BundleWriting.write(
            "Zoo", in: folder.path, versions: [("Zoo 1", CoreDataStoreBuilder.zooEntities)])
        let target = folder.file("zoo-remodel.sqlite")
        let process = Process()
        let executable: URL = try #require(RemodelProcess.executable, "build the remodel product first")
        process.executableURL = executable
        process.arguments = ["import-core-data", source, "--model", bundle, "--into", target, "-q"]
        process.environment = ProcessInfo.processInfo.environment.merging([
            "REMODEL_FAULT_POINT": point, "REMODEL_FAULT_HIT": "2",
        ]) { $1 }
        if point != CoreDataFaultPoint.afterTable.rawValue { process.environment?["REMODEL_FAULT_HIT"] = "1" }
        let before = try folder.contents()
        try process.run()
        process.waitUntilExit()
        #expect(process.terminationReason == .uncaughtSignal && process.terminationStatus == SIGKILL)
        // Nothing beside the target: the new store has no name until it is complete.
        let after = try folder.contents()
        #expect(
            after
                == (before + (point == CoreDataFaultPoint.afterRename.rawValue ? ["zoo-remodel.sqlite"] : [])).sorted())
        if point == CoreDataFaultPoint.afterRename.rawValue {
            let store = try SQLiteConnection(path: target, mode: .readOnly)
            #expect(try store.scalar("PRAGMA integrity_check") == .text("ok"))
            #expect(try store.scalar("SELECT count(*) FROM Animal") == .integer(5))
            #expect(
                try StoreInspector.inspect(path: target, bundle: ModelBundle(contentsOf: bundle)).state
                    == .current(version: "Zoo 1"))
        } else {
            #expect(!FileManager.default.fileExists(atPath: target), "killed at \(point), a store was left")
            let again = try RemodelProcess.run(["import-core-data", source, "--model", bundle, "--into", target, "-q"])
            #expect(again.status == 0, "\(again.error)")
            #expect(
                try SQLiteConnection(path: target, mode: .readOnly).scalar("SELECT count(*) FROM Animal") == .integer(5)
            )
        }
    }

    /// Kills `extract-model` with the bundle complete in its hidden folder, just before the rename:
    /// nothing is at the output, and the next run removes the killed one's folder and writes the bundle,
    /// leaving nothing else beside it.
    @Test func killedExtractModelLeavesNothingOnceRunAgain() throws {
        let folder = try TemporaryFolder()
        try FileManager.default.createDirectory(atPath: folder.file("out"), withIntermediateDirectories: true)
        let source = try CoreDataStoreBuilder.zoo(at: folder.file("Zoo.sqlite"))
        let bundle = try BundleWriting.write(
            "Zoo", in: folder.path, versions: [("Zoo 1", CoreDataStoreBuilder.zooEntities)])
        try SQLiteConnection(path: source, mode: .readWrite).run(
            "UPDATE Z_MODELCACHE SET Z_CONTENT = ?",
            [.blob(Data(ModelCacheWriter.cache(of: try ModelBundle(contentsOf: bundle).currentVersion)))])
        let output = folder.file("out/Zoo.xcdatamodeld")

        let killed = try RemodelProcess.run(
            ["extract-model", source, "--output", output],
            environment: ["REMODEL_FAULT_POINT": BundleFileWriter.beforeRename])
        #expect(killed.status == SIGKILL, "\(killed)")
        #expect(!FileManager.default.fileExists(atPath: output))
        let left = try FileManager.default.contentsOfDirectory(atPath: folder.file("out"))
        #expect(left.count == 1 && left[0].hasPrefix(".Zoo.xcdatamodeld.remodel-"), "\(left)")

        let again = try RemodelProcess.run(["extract-model", source, "--output", output])
        #expect(again.status == 0, "\(again.error)")
        #expect(try FileManager.default.contentsOfDirectory(atPath: folder.file("out")) == ["Zoo.xcdatamodeld"])
        #expect(try ModelBundle(contentsOf: output).currentVersion.entity(named: "Zone") != nil)
    }
}
