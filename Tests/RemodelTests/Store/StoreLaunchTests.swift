import Foundation
import Testing

@testable import Remodel
@testable import RemodelModel

struct StoreLaunchTests {
    @Test func firstLaunchCreatesThenOpens() throws {
        let folder = try TemporaryFolder()
        let path = folder.file("user-1.sqlite")
        let (created, first) = try Store.openOrCreate(at: path, bundle: StoreFixtures.library())
        #expect(first == .created)
        #expect(created?.version.name == "Library 3")
        let (store, second) = try Store.openOrCreate(at: path, bundle: StoreFixtures.library())
        #expect(second == .opened)
        let opened = try #require(store)
        #expect(opened.version.name == "Library 3")
        #expect(try opened.metadata().history.map(\.mapping) == ["created"])
    }

    @Test func olderStoreAsksForAMigrationAndIsNotChanged() throws {
        let folder = try TemporaryFolder()
        let path = folder.file("user-2.sqlite")
        _ = try Store.create(at: path, bundle: StoreFixtures.library(), version: "Library")
        let before = try fileBytes(path)
        let (store, launch) = try Store.openOrCreate(at: path, bundle: StoreFixtures.library())
        #expect(store == nil)
        guard case .needsMigration(let inspection) = launch else {
            Issue.record("expected needsMigration")
            return
        }
        #expect(inspection.state == .older(version: "Library", matchedBy: .name))
        #expect(try fileBytes(path) == before)
    }

    @Test func foreignFileIsRefusedAndLeftUntouched() throws {
        let folder = try TemporaryFolder()
        let path = try folder.write("not a database", to: "user-3.sqlite")
        let error = #expect(throws: RemodelError.self) {
            try Store.openOrCreate(at: path, bundle: StoreFixtures.library())
        }
        #expect(error?.code == .notAStore)
        #expect(try String(contentsOfFile: path, encoding: .utf8) == "not a database")
        #expect(try folder.contents() == ["user-3.sqlite"])
    }

    @Test func metadataRecordsModelVersionHashesAndHistory() throws {
        let folder = try TemporaryFolder()
        let store = try Store.create(at: folder.file("s.sqlite"), bundle: StoreFixtures.library(), version: "Library 2")
        let metadata = try store.metadata()
        #expect(metadata.modelName == "Library")
        #expect(metadata.versionName == "Library 2")
        #expect(metadata.entityHashes == store.version.entityHashes)
        #expect(metadata.modelHash == store.version.modelHash)
        try StoreMetadata.appendHistory(
            StoreMetadata.HistoryEntry(
                from: "Library 2", to: "Library 3", date: "2026-01-01T00:00:00.000Z", mapping: "inferred"),
            to: store.connection)
        #expect(try store.metadata().history.map(\.to) == ["Library 2", "Library 3"])
        #expect(try store.metadata().history.last?.from == "Library 2")
    }

    @Test func createRefusesAnExistingFile() throws {
        let folder = try TemporaryFolder()
        let path = try folder.write("keep me", to: "s.sqlite")
        #expect(throws: RemodelError.self) { try Store.create(at: path, bundle: StoreFixtures.library()) }
        #expect(try String(contentsOfFile: path, encoding: .utf8) == "keep me")
        #expect(try folder.contents() == ["s.sqlite"])
    }
}
