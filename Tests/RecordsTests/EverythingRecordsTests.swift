import EverythingRecords
import Foundation
import GRDB
import Remodel
import Testing

/// The fixture model with every attribute type, a hierarchy (abstract Item: Book, Gadget), ordered to-many on both
/// storages, a relationship that is its own inverse, one without an inverse, a composite and a transient.
struct EverythingRecordsTests {
    let bundle: ModelBundle
    static let fixture = RecordsTestSupport.root.appendingPathComponent("Tests/RemodelTests/Fixtures/Store")

    init() throws { bundle = try RecordsTestSupport.model("Tests/RemodelTests/Fixtures/Store/Everything.xcdatamodel") }

    /// The fixture's JSON imported, as `remodel import` writes it.
    func importedFixture(in folder: URL) throws -> String {
        let path = folder.appendingPathComponent("everything.sqlite").path
        _ = try Store.create(
            at: path, bundle: bundle, seed: Self.fixture.appendingPathComponent("everything.json").path)
        return path
    }

    @Test func readsEveryValueAsTheLayoutEncodesIt() throws {
        let folder = try RecordsTestSupport.folder()
        defer { try? FileManager.default.removeItem(at: folder) }
        let queue = try DatabaseQueue(path: try importedFixture(in: folder))
        try queue.read { db in
            try EverythingSchema.check(db)
            let sample = try #require(try Sample.fetchOne(db, id: Sample.Key(1)))
            #expect(sample.i16 == -32768)
            #expect(sample.i32 == 2_147_483_647)
            #expect(sample.i64 == .min)
            #expect(sample.dec == Decimal(string: "-12.34"))
            #expect(sample.dbl == 0.1)
            #expect(sample.flt == 0.1)
            #expect(sample.str == "tab\tnew\nline")
            #expect(sample.flag == true)
            #expect(abs((sample.when?.timeIntervalSince1970 ?? 0) - 1_704_164_645.678) < 1e-6)
            #expect(sample.blob == Data([0, 1, 2, 255]))
            #expect(sample.id_ == UUID(uuidString: "E621E1F8-C36C-495A-93FC-0C247A3E6E5F"))
            #expect(sample.link == URL(string: "https://example.com/a?b=c"))
            #expect(sample.thing == Data())
            #expect(sample.place == EverythingSchema.Place(lat: 48.8566, city: "Paris"))
            // One table, two entities: every object once, as its concrete entity.
            let items = try AnyItem.fetchAll(db).sorted { $0.id! < $1.id! }
            #expect(items.map { $0.id?.rawValue } == [1, 2, 3, 4])
            guard case .book(let notes) = items[0], case .gadget(let lamp) = items[1] else {
                Issue.record("expected a Book then a Gadget, found \(items)")
                return
            }
            #expect(notes.title == "Notes" && notes.pages == 120)
            #expect(lamp.watts == 7.5)
            #expect(try Book.fetchAll(db).map { $0.id?.rawValue } == [1, 4])
            #expect(try Gadget.fetchCount(db) == 2)
            #expect(try Book.fetchOne(db, id: AnyItem.Key(2)) == nil, "object 2 is a Gadget")
        }
    }

    @Test func fixtureReadAndWrittenBackLeavesTheExportByteIdentical() throws {
        let folder = try RecordsTestSupport.folder()
        defer { try? FileManager.default.removeItem(at: folder) }
        let path = try importedFixture(in: folder)
        let before = try RecordsTestSupport.export(path, bundle)
        #expect(before.contains(#""dec": "-12.3400""#))
        let rewritten = try RecordsTestSupport.rewriteEveryObject(EverythingSchema.recordTypes, at: path)
        let tables = ["Sample", "Item", "Chapter", "Person", "Tag"]
        #expect(rewritten == (try RecordsTestSupport.objectCount(path, tables: tables)))
        expectSameText(try RecordsTestSupport.export(path, bundle), before)
    }

    @Test(arguments: [1, 2, 3] as [UInt64])
    func seededStoreReadAndWrittenBackLeavesTheExportByteIdentical(_ seedNumber: UInt64) throws {
        let folder = try RecordsTestSupport.folder()
        defer { try? FileManager.default.removeItem(at: folder) }
        let path = try RecordsTestSupport.seededStore(bundle, objects: 12, seedNumber: seedNumber, in: folder)
        let before = try RecordsTestSupport.export(path, bundle)
        let tables = ["Sample", "Item", "Chapter", "Person", "Tag"]
        let rewritten = try RecordsTestSupport.rewriteEveryObject(EverythingSchema.recordTypes, at: path)
        #expect(rewritten == (try RecordsTestSupport.objectCount(path, tables: tables)))
        expectSameText(try RecordsTestSupport.export(path, bundle), before)
    }

    @Test func orderedAndSelfRelationshipsNavigateBothWaysInOrder() throws {
        let folder = try RecordsTestSupport.folder()
        defer { try? FileManager.default.removeItem(at: folder) }
        let queue = try DatabaseQueue(path: try importedFixture(in: folder))
        try queue.read { db in
            let notes = try #require(try Book.fetchOne(db, id: AnyItem.Key(1)))
            #expect(try notes.chaptersRequest.fetchAll(db).map(\.name) == ["Zero", "One", "Two"])
            let one = try #require(try Chapter.fetchOne(db, id: Chapter.Key(1)))
            #expect(try one.bookRequest.fetchOne(db)?.title == "Notes")
            let ada = try #require(try Person.fetchOne(db, id: Person.Key(1)))
            #expect(try ada.favoritesRequest.fetchAll(db).map { $0.id?.rawValue } == [2, 1])
            #expect(try ada.reportsRequest.fetchAll(db).map { $0.id?.rawValue } == [2, 3])
            #expect(try ada.friendsRequest.fetchAll(db).map { $0.id?.rawValue } == [2])
            #expect(try ada.itemsRequest.fetchAll(db).map { $0.id?.rawValue } == [1, 2])
            let emile = try #require(try Person.fetchOne(db, id: Person.Key(2)))
            #expect(try emile.managerRequest.fetchOne(db)?.name == "Ada")
            #expect(try emile.friendsRequest.fetchAll(db).map { $0.id?.rawValue } == [1, 3])
            let tag = try #require(try Tag.fetchOne(db, id: Tag.Key(1)))
            let expected = try String(
                contentsOf: Self.fixture.appendingPathComponent("everything.json"), encoding: .utf8)
            #expect(expected.contains(#""_pk": 1, "name": "#))
            #expect(try tag.itemsRequest.fetchAll(db).compactMap(\.id) == (try tagItemsInExportOrder(db, tag: 1)))
        }
    }

    /// Tag.items in the order the export lists them (by `destination_order`, then `_pk`).
    private func tagItemsInExportOrder(_ db: Database, tag: Int64) throws -> [AnyItem.Key] {
        try Int64.fetchAll(
            db, sql: "SELECT source FROM _Item_tags WHERE destination = ? ORDER BY destination_order, source",
            arguments: [tag]
        ).map(AnyItem.Key.init(rawValue:))
    }

    /// Two roads to one store: seed JSON imported, and the same objects inserted through the records with their
    /// relationships made by the link methods (ordered ones in their order, the own-inverse one from each side).
    @Test(arguments: [4, 5] as [UInt64])
    func insertedRecordsExportAsTheImportOfTheSameJSON(_ seedNumber: UInt64) throws {
        let folder = try RecordsTestSupport.folder()
        defer { try? FileManager.default.removeItem(at: folder) }
        let imported = try RecordsTestSupport.seededStore(bundle, objects: 6, seedNumber: seedNumber, in: folder)
        let source = try DatabaseQueue(path: imported)
        let path = folder.appendingPathComponent("records.sqlite").path
        _ = try Store.create(at: path, bundle: bundle)
        let queue = try DatabaseQueue(path: path)
        try source.read { from in
            try queue.write { db in
                for var sample in try Sample.fetchAll(from) {
                    let key = sample.id
                    sample.id = nil
                    try sample.insert(db)
                    #expect(sample.id == key)
                }
                // A key names an object inserted already: managers are set once every person is in.
                let people = try Person.fetchAll(from)
                for var person in people {
                    person.manager = nil
                    try person.insert(db)
                }
                for person in people where person.manager != nil { try person.update(db) }
                for var tag in try Tag.fetchAll(from) { try tag.insert(db) }
                for var item in try AnyItem.fetchAll(from).sorted(by: { $0.id! < $1.id! }) { try item.insert(db) }
                for var chapter in try Chapter.fetchAll(from) { try chapter.insert(db) }
                for book in try Book.fetchAll(from) {
                    try book.setChapters(try book.chaptersRequest.fetchAll(from).compactMap(\.id), in: db)
                }
                for tag in try Tag.fetchAll(from) {
                    try tag.setItems(try tag.itemsRequest.fetchAll(from).compactMap(\.id), in: db)
                }
                for person in try Person.fetchAll(from) {
                    try person.setFriends(try person.friendsRequest.fetchAll(from).compactMap(\.id), in: db)
                    try person.setFavorites(try person.favoritesRequest.fetchAll(from).compactMap(\.id), in: db)
                }
            }
        }
        expectSameText(try RecordsTestSupport.export(path, bundle), try RecordsTestSupport.export(imported, bundle))
    }

    @Test func validateRunsTheModelsRulesBeforeAnInsert() throws {
        let folder = try RecordsTestSupport.folder()
        defer { try? FileManager.default.removeItem(at: folder) }
        let queue = try DatabaseQueue(path: try importedFixture(in: folder))
        try queue.write { db in
            var lower = Person(name: "ada")
            let pattern = try #require(throws: EverythingSchema.RecordError.self) { try lower.insert(db) }
            #expect(
                pattern.description
                    == #"Person (not inserted) attribute "name": does not match the regular expression [A-Z].*, found "ada""#
            )
            var old = Person(name: "Ada", age: 151)
            let bound = try #require(throws: EverythingSchema.RecordError.self) { try old.insert(db) }
            #expect(bound.description == #"Person (not inserted) attribute "age": must be at most 150, found 151"#)
            var existing = try #require(try Person.fetchOne(db, id: Person.Key(1)))
            existing.name = String(repeating: "A", count: 41)
            let length = try #require(throws: EverythingSchema.RecordError.self) { try existing.update(db) }
            #expect(length.description == #"Person _pk 1 attribute "name": must be at most 40 characters, found 41"#)
            var sample = Sample(dbl: .nan)
            #expect(throws: EverythingSchema.RecordError.self) { try sample.insert(db) }
            #expect(try Person.fetchCount(db) == 3, "nothing was written")
        }
    }

    @Test func deleteFollowsTheModelsRules() throws {
        let folder = try RecordsTestSupport.folder()
        defer { try? FileManager.default.removeItem(at: folder) }
        let queue = try DatabaseQueue(path: try importedFixture(in: folder))
        try queue.write { db in
            // Book.chapters cascades: its three chapters go; the loose one stays.
            let notes = try #require(try Book.fetchOne(db, id: AnyItem.Key(1)))
            #expect(try notes.delete(db))
            #expect(try Chapter.fetchAll(db).map(\.name) == ["Loose"])
            #expect(try Int.fetchOne(db, sql: "SELECT count(*) FROM _Item_tags WHERE source = 1") == 0)
            // Person's relationships nullify, on both sides and in every join table.
            let ada = try #require(try Person.fetchOne(db, id: Person.Key(1)))
            #expect(try ada.delete(db))
            #expect(try Person.fetchAll(db).allSatisfy { $0.manager == nil })
            #expect(try Gadget.fetchOne(db, id: AnyItem.Key(2))?.owner == nil)
            #expect(
                try Int.fetchOne(db, sql: "SELECT count(*) FROM _Person_friends WHERE source = 1 OR destination = 1")
                    == 0)
            #expect(try Int.fetchOne(db, sql: "SELECT count(*) FROM _Person_favorites WHERE source = 1") == 0)
        }
    }

    @Test func linkingNeedsAnInsertedObjectAndAnExistingDestination() throws {
        let folder = try RecordsTestSupport.folder()
        defer { try? FileManager.default.removeItem(at: folder) }
        let queue = try DatabaseQueue(path: try importedFixture(in: folder))
        try queue.write { db in
            let unsaved = Person(name: "Zoe")
            let notInserted = try #require(throws: EverythingSchema.RecordError.self) {
                try unsaved.addToFriends([Person.Key(1)], in: db)
            }
            #expect(notInserted.kind == .notInserted)
            let ada = try #require(try Person.fetchOne(db, id: Person.Key(1)))
            let missing = try #require(throws: EverythingSchema.RecordError.self) {
                try ada.addToItems([AnyItem.Key(99)], in: db)
            }
            #expect(missing.description == #"Person _pk 1 relationship "items": there is no Item with _pk 99"#)
            // A Chapter's book must be a Book: object 2 is a Gadget.
            var chapter = try #require(try Chapter.fetchOne(db, id: Chapter.Key(4)))
            #expect(throws: EverythingSchema.RecordError.self) { try chapter.setBook(AnyItem.Key(2), in: db) }
            try chapter.setBook(AnyItem.Key(1), in: db)
            let notes = try #require(try Book.fetchOne(db, id: AnyItem.Key(1)))
            #expect(try notes.chaptersRequest.fetchAll(db).map(\.name) == ["Zero", "One", "Two", "Loose"])
        }
    }
}
