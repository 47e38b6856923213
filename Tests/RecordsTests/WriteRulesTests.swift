import Foundation
import GRDB
import LibraryRecords
import Remodel
import RulesRecords
import Testing

/// Writes through the records that would break the model are refused before anything is written, naming the entity,
/// the object and the property, and never a sentinel key: a to-one key naming no object of its destination (or an
/// object of another entity of its table), a required value, a bound, a uniqueness constraint, a delete or an unlink
/// that would leave a required to-one empty. What they allow leaves a store that passes the full check.
struct WriteRulesTests {
    let rules: ModelBundle

    init() throws { rules = try RecordsTestSupport.model("Tests/RemodelTests/Fixtures/Generation/Rules.xcdatamodel") }

    /// An empty store of `bundle`, and a queue on it.
    func emptyStore(_ bundle: ModelBundle, in folder: URL) throws -> (String, DatabaseQueue) {
        let path = folder.appendingPathComponent("store.sqlite").path
        _ = try Store.create(at: path, bundle: bundle)
        return (path, try DatabaseQueue(path: path))
    }

    /// The issue's reproduction: a record whose to-one key names no object is refused, with nothing written.
    @Test func aDanglingToOneKeyIsRefusedWithNothingWritten() throws {
        let folder = try RecordsTestSupport.folder()
        defer { try? FileManager.default.removeItem(at: folder) }
        let library = try RecordsTestSupport.model("Models/Library.xcdatamodeld")
        let (path, queue) = try emptyStore(library, in: folder)
        try queue.write { db in
            var book = LibraryRecords.Book(title: "Grace", author: LibraryRecords.Person.ID(999))
            let error = try #require(throws: LibrarySchema.RecordError.self) { try book.insert(db) }
            #expect(error.kind == .noSuchObject)
            #expect(error.description == #"Book (not inserted) relationship "author": there is no Person with _pk 999"#)
            #expect(error.entity == "Book" && error.property == "author" && error.primaryKey == nil)
            #expect(book.id == nil)
            #expect(try LibraryRecords.Book.fetchCount(db) == 0, "nothing was written")
            // The same key through update, save and upsert.
            var ada = LibraryRecords.Person(fullName: "Ada")
            try ada.insert(db)
            book.author = ada.id
            try book.insert(db)
            book.author = 998
            let update = try #require(throws: LibrarySchema.RecordError.self) { try book.update(db) }
            #expect(update.description == #"Book _pk 1 relationship "author": there is no Person with _pk 998"#)
            #expect(throws: LibrarySchema.RecordError.self) { try book.save(db) }
            #expect(throws: LibrarySchema.RecordError.self) { try book.upsert(db) }
            #expect(try LibraryRecords.Book.fetchOne(db, id: book.id)?.author == ada.id, "the row is as it was")
        }
        #expect(try Store.open(at: path, bundle: library).checkEverything().isEmpty)
    }

    /// A key of the right table but of another entity: `favorite` is a Bookcase (or a Cabinet), object 1 a plain
    /// Shelf; a Bookcase saved over a Cabinet's row.
    @Test func aKeyOfAnotherEntityOfTheTableIsRefused() throws {
        let folder = try RecordsTestSupport.folder()
        defer { try? FileManager.default.removeItem(at: folder) }
        let (_, queue) = try emptyStore(rules, in: folder)
        try queue.write { db in
            var owner = Owner(name: "Ada")
            try owner.insert(db)
            var shelf = Shelf(label: "A", owner: owner.id)
            try shelf.insert(db)
            var cabinet = Cabinet(label: "C", locks: 2, owner: owner.id)
            try cabinet.insert(db)
            owner.favorite = shelf.id
            let wrong = try #require(throws: RulesSchema.RecordError.self) { try owner.update(db) }
            #expect(wrong.description == #"Owner _pk 1 relationship "favorite": there is no Bookcase with _pk 1"#)
            owner.favorite = cabinet.id
            try owner.update(db)
            var impostor = Bookcase(id: cabinet.id, label: "B", owner: owner.id)
            let taken = try #require(throws: RulesSchema.RecordError.self) { try impostor.update(db) }
            #expect(taken.kind == .otherEntity)
            #expect(
                taken.description
                    == "Bookcase _pk 2: the object with this _pk is a Cabinet; a Bookcase cannot take its row")
            #expect(throws: RulesSchema.RecordError.self) { try impostor.upsert(db) }
            #expect(try Cabinet.fetchOne(db, id: cabinet.id)?.label == "C")
        }
    }

    @Test func requiredValuesBoundsAndUniquenessAreRefused() throws {
        let folder = try RecordsTestSupport.folder()
        defer { try? FileManager.default.removeItem(at: folder) }
        let (path, queue) = try emptyStore(rules, in: folder)
        try queue.write { db in
            var owner = Owner(name: "Ada")
            try owner.insert(db)
            var orphan = Shelf(label: "A")
            let required = try #require(throws: RulesSchema.RecordError.self) { try orphan.insert(db) }
            #expect(
                required.description == #"Shelf (not inserted) relationship "owner": a value is required, found nil"#)
            var long = Shelf(label: String(repeating: "x", count: 21), owner: owner.id)
            let length = try #require(throws: RulesSchema.RecordError.self) { try long.insert(db) }
            #expect(
                length.description
                    == #"Shelf (not inserted) attribute "label": must be at most 20 characters, found 21"#)
            var code = Shelf(label: "A", code: "a1", owner: owner.id)
            #expect(throws: RulesSchema.RecordError.self) { try code.insert(db) }
            var heavy = Bookcase(label: "B", weight: 0.25, owner: owner.id)
            #expect(throws: RulesSchema.RecordError.self) { try heavy.insert(db) }
            var rich = Owner(name: "Rich", budget: Decimal(100_001))
            #expect(throws: RulesSchema.RecordError.self) { try rich.insert(db) }
            var never = Owner(name: "Never", since: Date(timeIntervalSince1970: .nan))
            #expect(throws: RulesSchema.RecordError.self) { try never.insert(db) }
            var bare = Owner(name: "Bare", badge: Data())
            #expect(throws: RulesSchema.RecordError.self) { try bare.insert(db) }
            #expect(try AnyShelf.fetchCount(db) == 0 && Owner.fetchCount(db) == 1, "nothing was written")
            // Uniqueness: (label, owner) on every shelf; locks among cabinets only (a partial index).
            var first = Shelf(label: "A", owner: owner.id)
            try first.insert(db)
            var second = Bookcase(label: "A", owner: owner.id)
            let unique = try #require(throws: RulesSchema.RecordError.self) { try second.insert(db) }
            #expect(unique.kind == .uniqueness)
            #expect(
                unique.description.hasPrefix(
                    #"Bookcase (not inserted): another Bookcase already has the same "label" and "owner""#))
            var one = Cabinet(label: "C1", locks: 3, owner: owner.id)
            try one.insert(db)
            var two = Cabinet(label: "C2", locks: 3, owner: owner.id)
            #expect(throws: RulesSchema.RecordError.self) { try two.insert(db) }
        }
        #expect(try Store.open(at: path, bundle: rules).checkEverything().isEmpty)
    }

    /// Deleting an owner would empty Volume.keeper (required, no inverse): refused, in a savepoint, nothing
    /// written. Deny refuses while shelves hold it; Cascade takes its pass, whose required holder then goes with it.
    @Test func aDeleteThatWouldEmptyARequiredToOneIsRefused() throws {
        let folder = try RecordsTestSupport.folder()
        defer { try? FileManager.default.removeItem(at: folder) }
        let (path, queue) = try emptyStore(rules, in: folder)
        try queue.write { db in
            var ada = Owner(name: "Ada")
            try ada.insert(db)
            var pass = Pass(number: 7, holder: ada.id)
            try pass.insert(db)
            #expect(try Owner.fetchOne(db, id: ada.id)?.pass == pass.id, "the one-to-one's other side")
            var volume = Volume(title: "Notes", keeper: ada.id)
            try volume.insert(db)
            let kept = try #require(throws: RulesSchema.RecordError.self) { try ada.delete(db) }
            #expect(
                kept.description
                    == #"Volume _pk 1 relationship "keeper": a value is required, but deleting Owner _pk 1 would leave it empty; link it to another object, or delete it first"#
            )
            #expect(try Owner.fetchCount(db) == 1 && Pass.fetchCount(db) == 1, "nothing was written")
            #expect(try Volume.fetchOne(db, id: volume.id)?.keeper == ada.id)
            var shelf = Shelf(label: "S", owner: ada.id)
            try shelf.insert(db)
            try volume.delete(db)
            let denied = try #require(throws: RulesSchema.RecordError.self) { try ada.delete(db) }
            #expect(denied.kind == .deleteDenied)
            try shelf.delete(db)
            #expect(try ada.delete(db))
            #expect(try Pass.fetchCount(db) == 0, "the pass cascaded")
        }
        #expect(try Store.open(at: path, bundle: rules).checkEverything().isEmpty)
    }

    /// Unlinking a shelf from its owner would empty Shelf.owner; a one-to-one whose move would leave the old pass
    /// without its required holder.
    @Test func anUnlinkThatWouldEmptyARequiredToOneIsRefused() throws {
        let folder = try RecordsTestSupport.folder()
        defer { try? FileManager.default.removeItem(at: folder) }
        let (path, queue) = try emptyStore(rules, in: folder)
        try queue.write { db in
            var ada = Owner(name: "Ada")
            try ada.insert(db)
            var bob = Owner(name: "Bob")
            try bob.insert(db)
            var shelf = Shelf(label: "S", owner: ada.id)
            try shelf.insert(db)
            let unlink = try #require(throws: RulesSchema.RecordError.self) {
                try ada.removeFromShelves([shelf.id!], in: db)
            }
            #expect(
                unlink.description
                    == #"Shelf _pk 1 relationship "owner": a value is required, but removing it from Owner _pk 1's "shelves" would leave it empty; add it to another Owner, or delete it"#
            )
            #expect(throws: RulesSchema.RecordError.self) { try ada.setShelves([], in: db) }
            #expect(throws: RulesSchema.RecordError.self) { try shelf.setOwner(nil, in: db) }
            try bob.addToShelves([shelf.id!], in: db)
            #expect(try bob.shelvesRequest.fetchAll(db).map(\.id) == [shelf.id])
            var adas = Pass(number: 1, holder: ada.id)
            try adas.insert(db)
            var bobs = Pass(number: 2, holder: bob.id)
            try bobs.insert(db)
            let moved = try #require(throws: RulesSchema.RecordError.self) { try bob.setPass(adas.id, in: db) }
            #expect(moved.entity == "Pass" && moved.primaryKey == bobs.id?.rawValue && moved.property == "holder")
            #expect(try Owner.fetchOne(db, id: bob.id)?.pass == bobs.id, "nothing was written")
            try bobs.delete(db)
            try bob.setPass(adas.id, in: db)
            #expect(try Pass.fetchOne(db, id: adas.id)?.holder == bob.id)
            #expect(try Owner.fetchOne(db, id: ada.id)?.pass == nil)
        }
        #expect(try Store.open(at: path, bundle: rules).checkEverything().isEmpty)
    }

    /// Every entity has GRDB's API; on a table of several, each type reads and writes its own objects only, and
    /// GRDB's code generic over `TableRecord` (which reads the whole table) is refused a row of another entity.
    @Test func anEntityOfASharedTableReadsOnlyItsOwnObjects() throws {
        let folder = try RecordsTestSupport.folder()
        defer { try? FileManager.default.removeItem(at: folder) }
        let (_, queue) = try emptyStore(rules, in: folder)
        try queue.write { db in
            var owner = Owner(name: "Ada")
            try owner.insert(db)
            var shelf = Shelf(label: "S", owner: owner.id)
            try shelf.insert(db)
            var bookcase = Bookcase(label: "B", glass: true, owner: owner.id)
            try bookcase.insert(db)
            var cabinet = Cabinet(label: "C", locks: 1, owner: owner.id)
            try cabinet.insert(db)
            #expect(try AnyShelf.fetchCount(db) == 3)
            #expect(try Shelf.fetchAll(db).map(\.label) == ["S"])
            #expect(try Bookcase.fetchAll(db).map(\.label) == ["B"])
            #expect(try Bookcase.filter(Bookcase.Columns.label != "x").fetchCount(db) == 1)
            #expect(try Bookcase.fetchOne(db, id: cabinet.id) == nil)
            #expect(try Bookcase.exists(db, id: bookcase.id) && !Bookcase.exists(db, id: shelf.id))
            #expect(try Cabinet.including(required: Cabinet.owner).fetchCount(db) == 1)
            #expect(try owner.shelvesRequest.fetchAll(db).map(\.id) == [shelf.id, bookcase.id, cabinet.id])
            func wholeTable<Record: FetchableRecord & TableRecord>(_: Record.Type) throws -> [Record] {
                try Record.fetchAll(db)
            }
            let generic = try #require(throws: RulesSchema.RecordError.self) { _ = try wholeTable(Bookcase.self) }
            #expect(generic.kind == .otherEntity)
            #expect(try Bookcase.deleteAll(db) == 1)
            #expect(try AnyShelf.fetchAll(db).compactMap(\.id) == [shelf.id, cabinet.id])
        }
    }

    /// `Codable`: a record encodes as JSON keyed by the row's names and decodes back; the enum keeps `_entity`.
    @Test func recordsAreCodable() throws {
        let cabinet = AnyShelf.cabinet(Cabinet(id: 4, label: "C", glass: false, locks: 2, owner: 1))
        let json = try JSONEncoder().encode(cabinet)
        let text = String(decoding: json, as: UTF8.self)
        #expect(text.contains(#""_entity":"Cabinet""#) && text.contains(#""owner_pk":1"#) && text.contains(#""_pk":4"#))
        #expect(try JSONDecoder().decode(AnyShelf.self, from: json) == cabinet)
        let owner = Owner(id: 1, name: "Ada", since: Date(timeIntervalSince1970: 0), budget: Decimal(string: "12.50"))
        #expect(try JSONDecoder().decode(Owner.self, from: try JSONEncoder().encode(owner)) == owner)
        #expect(throws: RulesSchema.RecordError.self) { _ = try JSONDecoder().decode(Bookcase.self, from: json) }
    }
}
