import Foundation
import GRDB
import LibraryRecords
import Remodel
import Testing

/// The sample model's generated records on real stores: read and written back without a byte of the export
/// changing, inserted objects exporting exactly as `remodel import` of the same JSON, relationships both ways,
/// `check` refusing another version or a drifted schema.
struct LibraryRecordsTests {
    let bundle: ModelBundle

    init() throws { bundle = try RecordsTestSupport.model("Models/Library.xcdatamodeld") }

    @Test func everyObjectReadAndWrittenBackLeavesTheExportByteIdentical() throws {
        let folder = try RecordsTestSupport.folder()
        defer { try? FileManager.default.removeItem(at: folder) }
        let path = try RecordsTestSupport.seededStore(bundle, objects: 40, in: folder)
        let before = try RecordsTestSupport.export(path, bundle)
        let rewritten = try RecordsTestSupport.rewriteEveryObject(LibrarySchema.recordTypes, at: path)
        #expect(rewritten == (try RecordsTestSupport.objectCount(path, tables: ["Book", "Person", "Tag"])))
        #expect(rewritten == 120)
        expectSameText(try RecordsTestSupport.export(path, bundle), before)
    }

    /// Two roads to one store: `remodel import` of seed JSON, and the same objects inserted through the records
    /// (keys left for `insert` to give, links made with the link methods).
    @Test func insertedRecordsExportAsTheImportOfTheSameJSON() throws {
        let folder = try RecordsTestSupport.folder()
        defer { try? FileManager.default.removeItem(at: folder) }
        let imported = try RecordsTestSupport.seededStore(bundle, objects: 25, seedNumber: 3, in: folder)
        let source = try DatabaseQueue(path: imported)
        let (people, books, tags, links) = try source.read { db in
            let books = try Book.fetchAll(db)
            let links = try books.map { try $0.tagsRequest.fetchAll(db).compactMap(\.id) }
            return (try Person.fetchAll(db), books, try Tag.fetchAll(db), links)
        }
        let path = folder.appendingPathComponent("records.sqlite").path
        _ = try Store.create(at: path, bundle: bundle)
        let queue = try DatabaseQueue(path: path)
        try queue.write { db in
            for person in people.sorted(by: { $0.id! < $1.id! }) {
                var copy = Person(age: person.age, email: person.email, fullName: person.fullName)
                try copy.insert(db)
                #expect(copy.id == person.id, "insert gives the next _pk, as the store numbers objects")
            }
            for tag in tags.sorted(by: { $0.id! < $1.id! }) {
                var copy = Tag(name: tag.name)
                try copy.insert(db)
                #expect(copy.id == tag.id)
            }
            for (book, tagIDs) in zip(books, links) {
                // A copy of the value read (a Decimal keeps the text the store had, `81.50`), without its key.
                var copy = book
                copy.id = nil
                try copy.insert(db)
                #expect(copy.id == book.id)
                try copy.setTags(tagIDs, in: db)
            }
        }
        expectSameText(try RecordsTestSupport.export(path, bundle), try RecordsTestSupport.export(imported, bundle))
    }

    @Test func relationshipsNavigateBothWays() throws {
        let folder = try RecordsTestSupport.folder()
        defer { try? FileManager.default.removeItem(at: folder) }
        let path = folder.appendingPathComponent("library.sqlite").path
        _ = try Store.create(at: path, bundle: bundle)
        let queue = try DatabaseQueue(path: path)
        try queue.write { db in
            var ada = Person(fullName: "Ada Lovelace")
            try ada.insert(db)
            var notes = Book(title: "Notes", author: ada.id)
            try notes.insert(db)
            var poetry = Tag(name: "poetry")
            try poetry.insert(db)
            var science = Tag(name: "science")
            try science.insert(db)
            try notes.addToTags([science.id!, poetry.id!], in: db)
            #expect(try notes.authorRequest.fetchOne(db)?.fullName == "Ada Lovelace")
            #expect(try ada.booksRequest.fetchAll(db).map(\.title) == ["Notes"])
            #expect(try notes.tagsRequest.fetchAll(db).map(\.name) == ["poetry", "science"])
            #expect(try poetry.booksRequest.fetchAll(db).compactMap(\.id) == [notes.id])
            try poetry.removeFromBooks([notes.id!], in: db)
            #expect(try notes.tagsRequest.fetchAll(db).map(\.name) == ["science"])
            // The associations, with their explicit foreign keys.
            let authors = try Book.including(required: Book.author).asRequest(of: Row.self).fetchAll(db)
            #expect(authors.count == 1)
            #expect(try Person.joining(required: Person.books).fetchCount(db) == 1)
            #expect(try Book.joining(required: Book.tags).fetchCount(db) == 1)
        }
    }

    @Test func checkRefusesAnotherVersionNamingBoth() throws {
        let folder = try RecordsTestSupport.folder()
        defer { try? FileManager.default.removeItem(at: folder) }
        let path = folder.appendingPathComponent("older.sqlite").path
        _ = try Store.create(at: path, bundle: bundle, version: "Library 2")
        let queue = try DatabaseQueue(path: path)
        let error = try #require(throws: LibrarySchema.RecordError.self) { try queue.read(LibrarySchema.check) }
        #expect(error.kind == .otherVersion)
        #expect(error.message.contains("\"Library 2\""))
        #expect(error.message.contains("\"Library 3\""))
    }

    @Test func checkRefusesADriftedSchemaNamingTheColumn() throws {
        let folder = try RecordsTestSupport.folder()
        defer { try? FileManager.default.removeItem(at: folder) }
        let path = folder.appendingPathComponent("drifted.sqlite").path
        _ = try Store.create(at: path, bundle: bundle)
        let queue = try DatabaseQueue(path: path)
        try queue.read(LibrarySchema.check)
        try queue.write { db in try db.execute(sql: "ALTER TABLE Book RENAME COLUMN isbn TO isbn13") }
        let error = try #require(throws: LibrarySchema.RecordError.self) { try queue.read(LibrarySchema.check) }
        #expect(error.kind == .schemaDrift)
        #expect(error.message.contains("table \"Book\" lacks \"isbn\""))
    }

    /// A Decimal column holding what the layout never writes: a number (which the column's TEXT affinity keeps as its
    /// digits) is read as its value and written back as it was; text that is no number, or bytes, is named with the object and the
    /// attribute, whichever way it is read.
    @Test func aDecimalHeldOddlyIsReadOrNamed() throws {
        let folder = try RecordsTestSupport.folder()
        defer { try? FileManager.default.removeItem(at: folder) }
        let path = folder.appendingPathComponent("decimals.sqlite").path
        _ = try Store.create(at: path, bundle: bundle)
        let queue = try DatabaseQueue(path: path)
        try queue.write { db in
            try db.execute(
                sql: """
                    INSERT INTO Book (_pk, _entity, title, price) VALUES
                        (1, 'Book', 'kept', '81.50'), (2, 'Book', 'none', NULL), (3, 'Book', 'words', 'cheap'),
                        (4, 'Book', 'bytes', X'3132'), (5, 'Book', 'number', 12)
                    """)
        }
        try queue.read { db in
            let kept = try #require(try Book.fetchOne(db, id: Book.Key(1)))
            #expect(kept.price == Decimal(string: "81.5"))
            #expect(try Book.fetchOne(db, id: Book.Key(2))?.price == nil)
            let words = try #require(throws: LibrarySchema.RecordError.self) { try Book.fetchOne(db, id: Book.Key(3)) }
            #expect(words.kind == .undecodable)
            #expect(words.message == "Book _pk 3 attribute \"price\": expected a decimal number, found \"cheap\"")
            let bytes = try #require(throws: LibrarySchema.RecordError.self) {
                try Book.fetchAll(db, ids: [Book.Key(4)])
            }
            #expect(bytes.message == "Book _pk 4 attribute \"price\": expected a decimal number, found binary data")
        }
        let stored = try queue.write { db in
            let number = try #require(try Book.fetchOne(db, id: Book.Key(5)))
            #expect(number.price == 12)
            try number.update(db)
            try #require(try Book.fetchOne(db, id: Book.Key(1))).update(db)
            return try String.fetchAll(db, sql: "SELECT price FROM Book WHERE _pk IN (1, 5) ORDER BY _pk")
        }
        #expect(stored == ["81.50", "12"], "a value read and written back keeps the text the store held")
    }

    @Test func uniquenessFailureNamesTheEntityAndAttribute() throws {
        let folder = try RecordsTestSupport.folder()
        defer { try? FileManager.default.removeItem(at: folder) }
        let path = folder.appendingPathComponent("unique.sqlite").path
        _ = try Store.create(at: path, bundle: bundle)
        let queue = try DatabaseQueue(path: path)
        let error = try #require(throws: LibrarySchema.RecordError.self) {
            try queue.write { db in
                var first = Tag(name: "poetry")
                try first.insert(db)
                var second = Tag(name: "poetry")
                try second.insert(db)
            }
        }
        #expect(error.kind == .uniqueness)
        #expect(
            error.message
                == "Tag (not inserted): another Tag already has the same \"name\" (a uniqueness constraint of the model); change the value, or update that object instead"
        )
    }

    @Test func deletingAPersonNullifiesItsBooksAuthor() throws {
        let folder = try RecordsTestSupport.folder()
        defer { try? FileManager.default.removeItem(at: folder) }
        let path = folder.appendingPathComponent("delete.sqlite").path
        _ = try Store.create(at: path, bundle: bundle)
        let queue = try DatabaseQueue(path: path)
        try queue.write { db in
            var ada = Person(fullName: "Ada")
            try ada.insert(db)
            var notes = Book(title: "Notes", author: ada.id)
            try notes.insert(db)
            var tag = Tag(name: "t")
            try tag.insert(db)
            try notes.addToTags([tag.id!], in: db)
            try ada.delete(db)
            #expect(try Book.fetchOne(db, id: notes.id)?.author == nil)
            try notes.delete(db)
            #expect(try Int.fetchOne(db, sql: "SELECT count(*) FROM _Book_tags") == 0)
        }
    }
}
