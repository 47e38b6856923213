import Foundation
import Testing

@testable import Remodel
@testable import RemodelCoreData
@testable import RemodelModel

/// The layout of to-ones into hierarchies (`Z<n>_<REL>` beside `Z<REL>`), numbered clashes with their
/// entity numbers (`ZFOLDER1`, `Z5_FOLDER1`), Transformable values and a to-many without an inverse, on a
/// store shaped like Apple Notes' (``CoreDataNotesStore``), imported with its model file and without it.
struct CoreDataHierarchyTests {
    /// Every object of the Notes-shaped store, compared through the new store's JSON export.
    static func expectEveryObject(in store: String, bundle: ModelBundle) throws {
        let export = try Store.open(at: store, bundle: bundle).exportJSONString()
        #expect(
            normalizedJSON(try JSONSerialization.jsonObject(with: Data(export.utf8)))
                == normalizedJSON(CoreDataNotesStore.expectedExport))
        let connection = try SQLiteConnection(path: store, mode: .readOnly)
        #expect(try connection.scalar("PRAGMA integrity_check") == .text("ok"))
    }

    @Test func importsToOnesIntoHierarchiesNumberedClashesAndAToManyWithoutInverse() throws {
        let folder = try TemporaryFolder()
        let source = try CoreDataNotesStore.write(at: folder.file("Notes.sqlite"))
        let bundle = try ModelBundle(contentsOf: try CoreDataNotesStore.bundle(in: folder.path))
        let result = try Store.importCoreData(from: source, bundle: bundle, into: folder.file("notes.sqlite"))
        #expect(result.versionName == "Notes" && result.modelOrigin == .modelFile)
        #expect(
            result.objectCounts == [
                "IMAPAccount": 1, "LocalAccount": 1, "Attachment": 2, "Folder": 3, "TrashFolder": 1, "Note": 2,
                "ChecklistNote": 1, "CopyAction": 1, "MoveAction": 1,
            ])
        #expect(result.linkCounts.values.sorted() == [3])
        try Self.expectEveryObject(in: folder.file("notes.sqlite"), bundle: bundle)
    }

    @Test func importsTheSameStoreWithTheModelItCarries() throws {
        let folder = try TemporaryFolder()
        let bundle = try ModelBundle(contentsOf: try CoreDataNotesStore.bundle(in: folder.path))
        let cache = ModelCacheWriter.cache(of: bundle.currentVersion)
        let source = try CoreDataNotesStore.write(at: folder.file("Notes.sqlite"), modelCache: cache)
        let result = try Store.importCoreData(
            from: source, models: .store, into: folder.file("notes.sqlite"), version: nil, progress: nil)
        #expect(result.modelOrigin == .store && result.modelName == "Notes" && result.versionName == "Notes")
        let extracted = try Store.extractCoreDataModel(from: source, to: folder.file("Extracted/Notes.xcdatamodeld"))
        try Self.expectEveryObject(
            in: folder.file("notes.sqlite"),
            bundle: try ModelBundle(contentsOf: folder.file("Extracted/Notes.xcdatamodeld")))
        #expect(extracted.entities.map(\.name).sorted() == CoreDataNotesStore.names.sorted())
        // The store the import wrote is at the version the extracted bundle holds: status and migrate take it.
        let inspection = try StoreInspector.inspect(
            path: folder.file("notes.sqlite"),
            bundle: try ModelBundle(contentsOf: folder.file("Extracted/Notes.xcdatamodeld")))
        #expect(inspection.state == .current(version: "Notes"))
    }

    @Test func refusesAStoreWithoutTheEntityNumberBesideAToOneIntoAHierarchyAsAnotherLayout() throws {
        let folder = try TemporaryFolder()
        let bundle = try ModelBundle(contentsOf: try CoreDataNotesStore.bundle(in: folder.path))
        // A column no version explains: a companion of a relationship the model does not have.
        let source = try CoreDataNotesStore.write(
            at: folder.file("Notes.sqlite"), extraSQL: ["ALTER TABLE ZNOTE ADD COLUMN Z5_SHELF INTEGER"])
        let error = try #require(throws: RemodelError.self) {
            try Store.importCoreData(from: source, bundle: bundle, into: folder.file("notes.sqlite"))
        }
        #expect(error.message.contains("ZNOTE has column Z5_SHELF, which the version does not have"), "\(error)")
    }
}

/// JSON text with sorted keys, to compare two JSON values whatever their key order and number bridging.
func normalizedJSON(_ value: Any) -> String {
    guard let data = try? JSONSerialization.data(withJSONObject: value, options: [.sortedKeys]) else { return "?" }
    return String(decoding: data, as: UTF8.self)
}
