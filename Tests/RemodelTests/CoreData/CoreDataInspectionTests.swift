import Foundation
import Testing

@testable import Remodel
@testable import RemodelModel

/// `status` and the store inspector say what a Core Data store is and name the command that imports it.
struct CoreDataInspectionTests {
    @Test func statusNamesTheModelVersionAndTheCommand() throws {
        let folder = try TemporaryFolder()
        let source = try CoreDataStoreBuilder.zoo(at: folder.file("Zoo.sqlite"))
        let bundle = try BundleWriting.write(
            "Zoo", in: folder.path, versions: [("Zoo 1", CoreDataStoreBuilder.zooEntities)])
        let before = try folderBytes(folder.path)
        let run = try RemodelProcess.run(["status", source, "--model", bundle])
        #expect(run.status == 1)
        #expect(
            run.error
                == "error: \(source) is a Core Data store of model \"Zoo\" (version \"Zoo 1\"), not a Remodel store: Remodel leaves it untouched; import it into a new store with `remodel import-core-data \(source) --model \(bundle) --into NEW.sqlite`, then open or migrate the new store.\n"
        )
        #expect(try folderBytes(folder.path) == before)
    }

    @Test func statusReadsAStoreWhoseRowsAreInItsWALWithoutCreatingItsSHM() throws {
        let folder = try TemporaryFolder()
        let source = try CoreDataReadOnlyTests.walOnlyStore(in: folder)
        let bundle = try BundleWriting.write(
            "Zoo", in: folder.path, versions: [("Zoo 1", CoreDataStoreBuilder.zooEntities)])
        let before = try folderBytes(folder.file("backup"))
        let run = try RemodelProcess.run(["status", source, "--model", bundle])
        #expect(run.status == 1)
        #expect(
            run.error.hasPrefix("error: \(source) is a Core Data store of model \"Zoo\" (version \"Zoo 1\")"),
            "\(run.error)")
        #expect(try folderBytes(folder.file("backup")) == before, "status wrote beside the store")
        #expect(!FileManager.default.fileExists(atPath: source + "-shm"))
    }

    @Test func inspectionSaysWhenTheVersionCannotBeTold() throws {
        let folder = try TemporaryFolder()
        let source = try CoreDataStoreBuilder.zoo(at: folder.file("Zoo.sqlite"))
        let bundle = try CoreDataStoreBuilder.zooBundle(in: folder.path, versions: CoreDataVersionTests.twins)
        let inspection = try StoreInspector.inspect(path: source, bundle: bundle)
        #expect(inspection.coreDataVersion == "")
        #expect(inspection.refusal?.code == .notAStore)
        #expect(
            inspection.message
                == "\(source) is a Core Data store, not a Remodel store, and Remodel cannot tell which version of model \"Zoo\" wrote it (it has no _RemodelMetadata table): Remodel leaves it untouched; import it into a new store with `remodel import-core-data \(source) --model \(bundle.path) --into NEW.sqlite --version V`, naming the version the app had when it last wrote the store."
        )
        // Another program's database stays what it was.
        let other = folder.file("other.sqlite")
        try SQLiteConnection(path: other, mode: .create).execute("CREATE TABLE t (x)")
        let foreign = try StoreInspector.inspect(path: other, bundle: bundle)
        #expect(foreign.coreDataVersion == nil)
        #expect(
            foreign.message
                == "\(other) is an SQLite database but not a Remodel store (it has no _RemodelMetadata table): Remodel leaves it untouched; choose another store path."
        )
    }
}
