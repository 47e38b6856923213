import Foundation
import Testing

@testable import Remodel
@testable import RemodelModel

struct StoreInspectorTests {
    /// Inspects and checks the file's bytes are unchanged and nothing was left beside it.
    private func inspectUntouched(_ path: String, _ bundle: ModelBundle, in folder: TemporaryFolder) throws
        -> StoreInspection
    {
        let before = try folder.contents()
        let bytes = FileManager.default.fileExists(atPath: path) ? try? fileBytes(path) : nil
        let inspection = try StoreInspector.inspect(path: path, bundle: bundle, thorough: true)
        #expect(try folder.contents() == before)
        if let bytes { #expect(try fileBytes(path) == bytes) }
        return inspection
    }

    private func store(at version: String, in folder: TemporaryFolder, bundle: ModelBundle = StoreFixtures.library())
        throws -> String
    {
        let path = folder.file("store.sqlite")
        _ = try Store.create(at: path, bundle: bundle, version: version)
        return path
    }

    @Test func missingFileIsAFirstLaunch() throws {
        let folder = try TemporaryFolder()
        let inspection = try inspectUntouched(folder.file("none.sqlite"), StoreFixtures.library(), in: folder)
        #expect(inspection.state == .missing)
        #expect(
            inspection.message
                == "There is no store at \(folder.file("none.sqlite")) yet: it will be created at version \"Library 3\"."
        )
    }

    @Test func currentStore() throws {
        let folder = try TemporaryFolder()
        let path = try store(at: "Library 3", in: folder)
        #expect(try inspectUntouched(path, StoreFixtures.library(), in: folder).state == .current(version: "Library 3"))
    }

    @Test func olderStoreRecognisedByNameAndHashes() throws {
        let folder = try TemporaryFolder()
        let path = try store(at: "Library", in: folder)
        let inspection = try inspectUntouched(path, StoreFixtures.library(), in: folder)
        #expect(inspection.state == .older(version: "Library", matchedBy: .name))
        #expect(inspection.migrationSteps == 2)
        #expect(inspection.message.hasSuffix("older than the current \"Library 3\": it must be migrated (2 steps)."))
    }

    /// A store that records no version name (its metadata written by another tool) is found by its hashes.
    @Test func storeWithoutAVersionNameIsFoundByHashes() throws {
        let folder = try TemporaryFolder()
        let path = try store(at: "Library 2", in: folder)
        do {
            let connection = try SQLiteConnection(path: path, mode: .readWrite)
            try connection.execute("DELETE FROM _RemodelMetadata WHERE key = 'versionName'")
        }
        let inspection = try inspectUntouched(path, StoreFixtures.library(), in: folder)
        #expect(inspection.state == .older(version: "Library 2", matchedBy: .hashes))
    }

    /// The recorded version is in the bundle but was edited since (its hashes differ): refused as an
    /// edited version, never read with a layout that is not the store's.
    @Test func editedOlderVersionIsRefused() throws {
        let folder = try TemporaryFolder()
        let path = try store(at: "Library 2", in: folder)
        let edited = StoreFixtures.library { entities, version in
            if version == "Library 2" { entities[0].attributes.append(Attribute(name: "isbn", type: .string)) }
        }
        let inspection = try inspectUntouched(path, edited, in: folder)
        #expect(inspection.state == .modifiedVersion(versionName: "Library 2"))
        #expect(inspection.refusal?.code == .editedVersion)
    }

    /// A version folder renamed without saying so: the recorded name is not in the bundle, so the store is
    /// refused as newer, although its hashes equal the renamed version's.
    @Test func renamedVersionIsRefusedUnlessItsFormerNameIsDeclared() throws {
        let folder = try TemporaryFolder()
        let path = try store(at: "Library 2", in: folder)
        let versions = StoreFixtures.library().versions.map { version in
            var version = version
            if version.name == "Library 2" { version.name = "Library Two" }
            return version
        }
        let renamed = ModelBundle(name: "Library", versions: versions)
        #expect(try inspectUntouched(path, renamed, in: folder).state == .newer(versionName: "Library 2"))
        let declared = ModelBundle(
            name: "Library", versions: versions, formerVersionNames: ["Library 2": "Library Two"])
        #expect(
            try inspectUntouched(path, declared, in: folder).state
                == .older(version: "Library Two", matchedBy: .formerName))
    }

    @Test func newerStore() throws {
        let folder = try TemporaryFolder()
        let path = try store(at: "Library 3", in: folder)
        let older = StoreFixtures.library(versions: ["Library", "Library 2"])
        let inspection = try inspectUntouched(path, older, in: folder)
        #expect(inspection.state == .newer(versionName: "Library 3"))
        #expect(inspection.message.contains("written by a newer version of the app"))
        #expect(inspection.message.contains(#"(this bundle has "Library", "Library 2")"#))
        #expect(inspection.refusal?.code == .newerStore)
    }

    @Test func versionAfterTheCurrentOneIsNewer() throws {
        let folder = try TemporaryFolder()
        let path = try store(at: "Library 3", in: folder)
        let bundle = StoreFixtures.library(current: "Library 2")
        #expect(try inspectUntouched(path, bundle, in: folder).state == .newer(versionName: "Library 3"))
    }

    @Test func editedCurrentVersion() throws {
        let folder = try TemporaryFolder()
        let path = try store(at: "Library 3", in: folder)
        let edited = StoreFixtures.library { entities, version in
            if version == "Library 3" { entities[1].attributes.append(Attribute(name: "born", type: .date)) }
        }
        #expect(try inspectUntouched(path, edited, in: folder).state == .modifiedVersion(versionName: "Library 3"))
    }

    @Test func storeOfAnotherModel() throws {
        let folder = try TemporaryFolder()
        let path = try store(
            at: "Library", in: folder,
            bundle: StoreFixtures.library(name: "Shop", versions: ["Library"]) { entities, _ in
                entities[0].name = "Product"
            })
        let inspection = try inspectUntouched(path, StoreFixtures.library(), in: folder)
        #expect(inspection.state == .otherModel(name: "Shop"))
        #expect(inspection.message.contains("belongs to model \"Shop\", not \"Library\""))
    }

    @Test func sqliteFileOfAnotherProgram() throws {
        let folder = try TemporaryFolder()
        let path = folder.file("other.sqlite")
        do {
            let connection = try SQLiteConnection(path: path)
            try connection.execute(
                "CREATE TABLE notes (id INTEGER PRIMARY KEY, body TEXT); INSERT INTO notes (body) VALUES ('hi')")
        }
        let inspection = try inspectUntouched(path, StoreFixtures.library(), in: folder)
        #expect(inspection.state == .notRemodelStore(reason: "it has no _RemodelMetadata table"))
        #expect(
            inspection.message
                == "\(path) is an SQLite database but not a Remodel store (it has no _RemodelMetadata table): Remodel leaves it untouched; choose another store path."
        )
    }

    @Test func emptyFile() throws {
        let folder = try TemporaryFolder()
        let path = try folder.write("", to: "empty.sqlite")
        #expect(
            try inspectUntouched(path, StoreFixtures.library(), in: folder).state
                == .notSQLite(reason: "the file is empty"))
    }

    @Test func garbageFile() throws {
        let folder = try TemporaryFolder()
        let path = try folder.write("hello, I am a text file and certainly not a database\n", to: "garbage.sqlite")
        let inspection = try inspectUntouched(path, StoreFixtures.library(), in: folder)
        #expect(inspection.state == .notSQLite(reason: "it does not start with the SQLite header \"SQLite format 3\""))
    }

    @Test func truncatedStore() throws {
        let folder = try TemporaryFolder()
        let path = try store(at: "Library 3", in: folder)
        let bytes = try fileBytes(path)
        try bytes.prefix(bytes.count / 2).write(to: URL(fileURLWithPath: path))
        let inspection = try inspectUntouched(path, StoreFixtures.library(), in: folder)
        guard case .notSQLite(let reason) = inspection.state else {
            Issue.record("expected notSQLite, got \(inspection.state)")
            return
        }
        #expect(reason.hasPrefix("truncated"))
    }

    @Test func headerOnlyFile() throws {
        let folder = try TemporaryFolder()
        let path = try folder.write("SQLite format 3\0abc", to: "short.sqlite")
        #expect(
            try inspectUntouched(path, StoreFixtures.library(), in: folder).state
                == .notSQLite(reason: "truncated: the file is shorter than an SQLite header"))
    }

    @Test func damagedPages() throws {
        let folder = try TemporaryFolder()
        let path = try store(at: "Library 3", in: folder)
        var bytes = try fileBytes(path)
        // Overwrite everything after the header page with noise, keeping the size.
        for index in 4096..<bytes.count { bytes[index] = UInt8(truncatingIfNeeded: index &* 31) }
        try bytes.write(to: URL(fileURLWithPath: path))
        let inspection = try inspectUntouched(path, StoreFixtures.library(), in: folder)
        guard case .notSQLite(let reason) = inspection.state else {
            Issue.record("expected notSQLite, got \(inspection.state)")
            return
        }
        #expect(reason.hasPrefix("damaged"))
    }
}
