import EverythingRecords
import Foundation
import GRDB
import NamesRecords
import Remodel
import RulesRecords
import Testing

/// Random objects and operations written through the generated records of three fixture models, each run on one
/// store in autocommit mode (``WriteRun``): every operation succeeds or is refused in the model's terms with nothing
/// written, and the store then passes the full check and exports to JSON that imports back to the same export.
///
/// The space: the committed fixtures' models (the records must be compiled), which between them have every
/// attribute type, a three-level hierarchy with a concrete root, an abstract root, ordered to-many relationships on
/// both storages, a relationship that is its own inverse, inverse-less to-ones (one required), one-to-ones (one with a
/// required side), required to-ones, uniqueness over an attribute, over an attribute and a to-one and on a
/// sub-entity, bounds and a regular expression, Deny, Cascade and Nullify. The operations: inserts (with keys given
/// or left to `insert`), updates, saves and upserts of objects read back and changed, deletes, and every link
/// method, with values drawn from edge pools (NaN, infinities, -0, extreme integers and dates, empty and long text,
/// NUL) and keys that name an object of the right entity, of another entity of its table, or none. To-many
/// relationship counts are outside it: no fixture has one (see docs/TYPED-ACCESS.md).
///
/// `REMODEL_RECORDS_SEEDS` sets how many seeds each model runs (8 by default), `REMODEL_RECORDS_SEED` the first.
struct RecordWritesPropertyTests {
    static let firstSeed = ProcessInfo.processInfo.environment["REMODEL_RECORDS_SEED"].flatMap { UInt64($0) } ?? 4200
    static let count = ProcessInfo.processInfo.environment["REMODEL_RECORDS_SEEDS"].flatMap { Int($0) } ?? 8
    static let seeds = (0..<UInt64(count)).map { firstSeed + $0 }
    static let operations = 60

    func run(
        _ model: String, seed: UInt64, isRefusal: @escaping (any Error) -> Bool, step: (inout WriteRun) throws -> Void
    ) throws {
        let folder = try RecordsTestSupport.folder()
        defer { try? FileManager.default.removeItem(at: folder) }
        var run = try WriteRun(
            bundle: try RecordsTestSupport.model(model), in: folder, seed: seed, isRefusal: isRefusal)
        for _ in 0..<Self.operations { try step(&run) }
        #expect(run.succeeded > 10, "too few operations succeeded to mean much:\n\(run.trail)")
        try run.checkTheStore(in: folder)
    }

    @Test(arguments: seeds) func everything(seed: UInt64) throws {
        try run(
            "Tests/RemodelTests/Fixtures/Store/Everything.xcdatamodel", seed: seed,
            isRefusal: { $0 is EverythingSchema.RecordError }, step: EverythingWrites.step)
    }

    @Test(arguments: seeds) func rules(seed: UInt64) throws {
        try run(
            "Tests/RemodelTests/Fixtures/Generation/Rules.xcdatamodel", seed: seed,
            isRefusal: { $0 is RulesSchema.RecordError }, step: RulesWrites.step)
    }

    /// Seeds that failed, kept while the operations draw the same way: 9028, a link that moved a shelf onto a label
    /// its new owner had (a uniqueness constraint told as SQLite's error, half written).
    @Test(arguments: [9028] as [UInt64]) func rulesFormerFailures(seed: UInt64) throws {
        try rules(seed: seed)
    }

    @Test(arguments: seeds) func names(seed: UInt64) throws {
        try run(
            "Tests/RemodelTests/Fixtures/Generation/Names.xcdatamodel", seed: seed,
            isRefusal: { $0 is NamesSchema.RecordError }, step: NamesWrites.step)
    }
}

/// The operations on the `Everything` fixture.
enum EverythingWrites {
    static let uuids = ["E621E1F8-C36C-495A-93FC-0C247A3E6E5F", "00000000-0000-0000-0000-000000000000"]
        .compactMap(UUID.init(uuidString:))

    static func sample(_ draw: inout Draw) -> Sample {
        Sample(
            i16: draw.chance(50) ? draw.pick([Int16.min, 0, Int16.max]) : nil,
            i32: draw.chance(50) ? draw.pick([Int32.min, -1, Int32.max]) : nil,
            i64: draw.chance(50) ? draw.pick([Int64.min, 0, Int64.max]) : nil,
            dec: draw.chance(50)
                ? draw.pick([Decimal(string: "12.30"), Decimal(0), Decimal(string: "-0.000001")]) ?? nil : nil,
            dbl: draw.chance(60) ? draw.double() : nil,
            flt: draw.chance(40) ? Float(draw.double()) : nil,
            str: draw.chance(60) ? draw.text() : nil,
            flag: draw.chance(50) ? draw.chance(50) : nil,
            when: draw.chance(50) ? draw.date() : nil,
            blob: draw.chance(40) ? draw.pick([Data(), Data([0, 1, 255])]) : nil,
            id_: draw.chance(50) ? draw.pick(uuids) : nil,
            link: draw.chance(40)
                ? URL(string: draw.pick(["https://example.com/a?b=c", "file:///tmp/x y", "mailto:a@b.c"])) : nil,
            thing: draw.chance(30) ? Data([1, 2]) : nil,
            place: draw.chance(30) ? EverythingSchema.Place(lat: 1.5, city: "Paris") : nil)
    }

    static func step(_ run: inout WriteRun) throws {
        switch run.draw.int(0...21) {
        case 0, 1:
            try run.attempt("insert Sample") { db, draw in
                var sample = sample(&draw)
                if draw.chance(15) { sample.id = Sample.Key(Int64(draw.int(1...12))) }
                try sample.insert(db)
            }
        case 2, 3:
            try run.attempt("insert Person") { db, draw in
                var person = Person(
                    name: draw.text(), age: draw.chance(60) ? Int16(draw.int(-5...160)) : nil,
                    manager: try draw.key(db, "Person").map { Person.Key($0) })
                try person.insert(db)
            }
        case 4:
            try run.attempt("insert Tag") { db, draw in
                var tag = Tag(name: draw.pick(["a", "b", "c", "d", "e"]))
                try tag.insert(db)
            }
        case 5, 6:
            try run.attempt("insert Book or Gadget") { db, draw in
                let owner = try draw.key(db, "Person").map { Person.Key($0) }
                if draw.chance(50) {
                    var book = Book(title: draw.text(), pages: draw.chance(50) ? 12 : nil, owner: owner)
                    try book.insert(db)
                } else {
                    var gadget = Gadget(title: draw.text(), watts: draw.chance(60) ? draw.double() : nil, owner: owner)
                    try gadget.save(db)
                }
            }
        case 7:
            try run.attempt("insert Chapter") { db, draw in
                var chapter = Chapter(
                    name: draw.text(), book: try draw.key(db, "Item", kinds: ["Book"]).map { AnyItem.Key($0) })
                try chapter.insert(db)
            }
        case 8:
            try run.attempt("update Sample") { db, draw in
                guard let key = try draw.existing(db, "Sample"),
                    var sample = try Sample.fetchOne(db, id: Sample.Key(key))
                else { return }
                let other = EverythingWrites.sample(&draw)
                sample.dbl = other.dbl
                sample.when = other.when
                sample.dec = other.dec
                sample.str = other.str
                try draw.chance(50) ? sample.update(db) : sample.upsert(db)
            }
        case 9:
            try run.attempt("update Person") { db, draw in
                guard let key = try draw.existing(db, "Person"),
                    var person = try Person.fetchOne(db, id: Person.Key(key))
                else { return }
                if draw.chance(50) { person.name = draw.text() }
                if draw.chance(50) { person.manager = try draw.key(db, "Person").map { Person.Key($0) } }
                if draw.chance(30) { person.age = Int16(draw.int(-5...160)) }
                try person.update(db)
            }
        case 10:
            try run.attempt("update Chapter") { db, draw in
                guard let key = try draw.existing(db, "Chapter"),
                    var chapter = try Chapter.fetchOne(db, id: Chapter.Key(key))
                else { return }
                chapter.book = try draw.key(db, "Item", kinds: ["Book"]).map { AnyItem.Key($0) }
                try chapter.save(db)
            }
        case 11:
            try run.attempt("update an item through its table") { db, draw in
                guard let key = try draw.existing(db, "Item"), var item = try AnyItem.fetchOne(db, id: AnyItem.Key(key))
                else { return }
                let owner = try draw.key(db, "Person").map { Person.Key($0) }
                switch item {
                case .book(var book):
                    book.owner = owner
                    item = .book(book)
                case .gadget(var gadget):
                    gadget.owner = owner
                    item = .gadget(gadget)
                }
                try item.update(db)
            }
        case 12, 13:
            try run.attempt("delete") { db, draw in
                let table = draw.pick(["Sample", "Person", "Tag", "Item", "Chapter"])
                guard let key = try draw.existing(db, table) else { return }
                switch table {
                case "Sample": try Sample.fetchOne(db, id: Sample.Key(key))?.delete(db)
                case "Person": try Person.fetchOne(db, id: Person.Key(key))?.delete(db)
                case "Tag": try Tag.fetchOne(db, id: Tag.Key(key))?.delete(db)
                case "Item": try AnyItem.fetchOne(db, id: AnyItem.Key(key))?.delete(db)
                default: try Chapter.fetchOne(db, id: Chapter.Key(key))?.delete(db)
                }
            }
        case 14:
            try run.attempt("Person links") { db, draw in
                guard let key = try draw.existing(db, "Person"),
                    var person = try Person.fetchOne(db, id: Person.Key(key))
                else { return }
                let people = try draw.someKeys(db, "Person").map { Person.Key($0) }
                switch draw.int(0...6) {
                case 0: try person.setManager(try draw.key(db, "Person").map { Person.Key($0) }, in: db)
                case 1: try person.addToFriends(people, in: db)
                case 2: try person.removeFromFriends(people, in: db)
                case 3: try person.setReports(people, in: db)
                case 4: try person.setFavorites(try draw.someKeys(db, "Tag").map { Tag.Key($0) }, in: db)
                case 5: try person.addToItems(try draw.someKeys(db, "Item").map { AnyItem.Key($0) }, in: db)
                default: try person.removeFromReports(people, in: db)
                }
            }
        case 15:
            try run.attempt("Tag links") { db, draw in
                guard let key = try draw.existing(db, "Tag"), let tag = try Tag.fetchOne(db, id: Tag.Key(key)) else {
                    return
                }
                let items = try draw.someKeys(db, "Item").map { AnyItem.Key($0) }
                switch draw.int(0...2) {
                case 0: try tag.addToItems(items, in: db)
                case 1: try tag.removeFromItems(items, in: db)
                default: try tag.setItems(items, in: db)
                }
            }
        case 16:
            try run.attempt("Book links") { db, draw in
                guard let key = try draw.existing(db, "Item", kinds: ["Book"]),
                    var book = try Book.fetchOne(db, id: Book.Key(key))
                else { return }
                let chapters = try draw.someKeys(db, "Chapter").map { Chapter.Key($0) }
                switch draw.int(0...4) {
                case 0: try book.addToChapters(chapters, in: db)
                case 1: try book.removeFromChapters(chapters, in: db)
                case 2: try book.setChapters(chapters, in: db)
                case 3: try book.setTags(try draw.someKeys(db, "Tag").map { Tag.Key($0) }, in: db)
                default: try book.setOwner(try draw.key(db, "Person").map { Person.Key($0) }, in: db)
                }
            }
        case 17:
            try run.attempt("Chapter.setBook") { db, draw in
                guard let key = try draw.existing(db, "Chapter"),
                    var chapter = try Chapter.fetchOne(db, id: Chapter.Key(key))
                else { return }
                try chapter.setBook(try draw.key(db, "Item", kinds: ["Book"]).map { AnyItem.Key($0) }, in: db)
            }
        case 18:
            try run.attempt("a Gadget saved over a key") { db, draw in
                var gadget = Gadget(id: try draw.key(db, "Item").map { AnyItem.Key($0) }, title: "Lamp")
                try draw.chance(50) ? gadget.save(db) : gadget.upsert(db)
            }
        case 19:
            try run.attempt("Gadget links") { db, draw in
                guard let key = try draw.existing(db, "Item", kinds: ["Gadget"]),
                    var gadget = try Gadget.fetchOne(db, id: Gadget.Key(key))
                else { return }
                if draw.chance(50) {
                    try gadget.setOwner(try draw.key(db, "Person").map { Person.Key($0) }, in: db)
                } else {
                    try gadget.addToTags(try draw.someKeys(db, "Tag").map { Tag.Key($0) }, in: db)
                }
            }
        default:
            // GRDB's `deleteAll` runs SQL with none of the delete rules (docs/TYPED-ACCESS.md): the records' way is
            // each object's `delete`.
            try run.attempt("delete the objects of a request") { db, draw in
                let request = draw.chance(50) ? Gadget.filter(Gadget.Columns.watts == nil) : Gadget.all()
                for gadget in try request.fetchAll(db) { try gadget.delete(db) }
            }
        }
    }
}

/// The operations on the `Rules` fixture.
enum RulesWrites {
    static let kinds = ["Shelf", "Bookcase", "Cabinet"]

    static func owner(_ db: Database, _ draw: inout Draw) throws -> Owner.Key? {
        try draw.key(db, "Owner").map { Owner.Key($0) }
    }

    static func step(_ run: inout WriteRun) throws {
        switch run.draw.int(0...17) {
        case 0, 1:
            try run.attempt("insert Owner") { db, draw in
                var owner = Owner(
                    name: draw.text(), since: draw.chance(50) ? draw.date() : nil,
                    budget: draw.chance(40)
                        ? draw.pick([Decimal(-1), Decimal(0), Decimal(100_000), Decimal(100_001)]) : nil,
                    badge: draw.chance(40) ? draw.pick([Data(), Data([1]), Data(count: 17)]) : nil,
                    favorite: try draw.key(db, "Shelf", kinds: ["Bookcase", "Cabinet"]).map { AnyShelf.Key($0) })
                try owner.insert(db)
            }
        case 2, 3:
            try run.attempt("insert a shelf") { db, draw in
                let label = draw.pick(["A", "B", "", String(repeating: "L", count: 21)])
                let code = draw.chance(40) ? draw.pick(["AB12", "ab12", "A1"]) : nil
                let capacity: Int16? = draw.chance(40) ? draw.pick([-1, 0, 500, 501]) : nil
                let owner = try owner(db, &draw)
                switch draw.int(0...2) {
                case 0:
                    var shelf = Shelf(label: label, code: code, capacity: capacity, owner: owner)
                    try shelf.insert(db)
                case 1:
                    var bookcase = Bookcase(
                        label: label, code: code, glass: draw.chance(50), weight: draw.chance(50) ? draw.double() : nil,
                        owner: owner)
                    try bookcase.insert(db)
                default:
                    var cabinet = Cabinet(
                        label: label, locks: draw.chance(70) ? Int32(draw.int(-1...10)) : nil, owner: owner)
                    try cabinet.insert(db)
                }
            }
        case 4:
            try run.attempt("insert Pass") { db, draw in
                var pass = Pass(number: Int64(draw.int(0...9)), holder: try owner(db, &draw))
                try pass.insert(db)
            }
        case 5, 6:
            try run.attempt("insert Volume") { db, draw in
                var volume = Volume(
                    title: draw.text(), shelf: try draw.key(db, "Shelf").map { AnyShelf.Key($0) },
                    keeper: try owner(db, &draw))
                try volume.insert(db)
            }
        case 7:
            try run.attempt("update Owner") { db, draw in
                guard let key = try draw.existing(db, "Owner"), var owner = try Owner.fetchOne(db, id: Owner.Key(key))
                else { return }
                switch draw.int(0...3) {
                case 0: owner.partner = try draw.key(db, "Owner").map { Owner.Key($0) }
                case 1: owner.pass = try draw.key(db, "Pass").map { Pass.Key($0) }
                case 2:
                    owner.favorite = try draw.key(db, "Shelf", kinds: ["Bookcase", "Cabinet"]).map { AnyShelf.Key($0) }
                default: owner.since = draw.date()
                }
                try owner.update(db)
            }
        case 8:
            try run.attempt("update a shelf") { db, draw in
                guard let key = try draw.existing(db, "Shelf"),
                    var shelf = try AnyShelf.fetchOne(db, id: AnyShelf.Key(key))
                else { return }
                let owner = try owner(db, &draw)
                switch shelf {
                case .shelf(var object):
                    object.owner = owner
                    shelf = .shelf(object)
                case .bookcase(var object):
                    object.weight = draw.double()
                    shelf = .bookcase(object)
                case .cabinet(var object):
                    object.locks = Int32(draw.int(-1...10))
                    object.owner = owner
                    shelf = .cabinet(object)
                }
                try draw.chance(50) ? shelf.update(db) : shelf.save(db)
            }
        case 9:
            try run.attempt("a Bookcase over another shelf's key") { db, draw in
                var bookcase = Bookcase(
                    id: try draw.key(db, "Shelf").map { AnyShelf.Key($0) }, label: "X", owner: try owner(db, &draw))
                try draw.chance(50) ? bookcase.update(db) : bookcase.upsert(db)
            }
        case 10, 11:
            try run.attempt("delete") { db, draw in
                let table = draw.pick(["Owner", "Shelf", "Pass", "Volume"])
                guard let key = try draw.existing(db, table) else { return }
                switch table {
                case "Owner": try Owner.fetchOne(db, id: Owner.Key(key))?.delete(db)
                case "Shelf": try AnyShelf.fetchOne(db, id: AnyShelf.Key(key))?.delete(db)
                case "Pass": try Pass.fetchOne(db, id: Pass.Key(key))?.delete(db)
                default: try Volume.fetchOne(db, id: Volume.Key(key))?.delete(db)
                }
            }
        case 12, 13:
            try run.attempt("Owner links") { db, draw in
                guard let key = try draw.existing(db, "Owner"), var owner = try Owner.fetchOne(db, id: Owner.Key(key))
                else { return }
                let shelves = try draw.someKeys(db, "Shelf").map { AnyShelf.Key($0) }
                switch draw.int(0...5) {
                case 0: try owner.addToShelves(shelves, in: db)
                case 1: try owner.removeFromShelves(shelves, in: db)
                case 2: try owner.setShelves(shelves, in: db)
                case 3: try owner.setPartner(try draw.key(db, "Owner").map { Owner.Key($0) }, in: db)
                case 4: try owner.setPass(try draw.key(db, "Pass").map { Pass.Key($0) }, in: db)
                default:
                    try owner.setFavorite(
                        try draw.key(db, "Shelf", kinds: ["Bookcase", "Cabinet"]).map { AnyShelf.Key($0) }, in: db)
                }
            }
        case 14:
            try run.attempt("Pass.setHolder") { db, draw in
                guard let key = try draw.existing(db, "Pass"), var pass = try Pass.fetchOne(db, id: Pass.Key(key))
                else { return }
                try pass.setHolder(try owner(db, &draw), in: db)
            }
        case 15:
            try run.attempt("shelf links") { db, draw in
                guard let key = try draw.existing(db, "Shelf", kinds: ["Bookcase"]),
                    var bookcase = try Bookcase.fetchOne(db, id: Bookcase.Key(key))
                else { return }
                let volumes = try draw.someKeys(db, "Volume").map { Volume.Key($0) }
                switch draw.int(0...3) {
                case 0: try bookcase.addToVolumes(volumes, in: db)
                case 1: try bookcase.removeFromVolumes(volumes, in: db)
                case 2: try bookcase.setVolumes(volumes, in: db)
                default: try bookcase.setOwner(try owner(db, &draw), in: db)
                }
            }
        default:
            try run.attempt("Volume links") { db, draw in
                guard let key = try draw.existing(db, "Volume"),
                    var volume = try Volume.fetchOne(db, id: Volume.Key(key))
                else { return }
                switch draw.int(0...2) {
                case 0: try volume.setKeeper(try owner(db, &draw), in: db)
                case 1: try volume.setShelf(try draw.key(db, "Shelf").map { AnyShelf.Key($0) }, in: db)
                default: try volume.addToRelated(try draw.someKeys(db, "Volume").map { Volume.Key($0) }, in: db)
                }
            }
        }
    }
}

/// The operations on the `Names` fixture.
enum NamesWrites {
    static func step(_ run: inout WriteRun) throws {
        switch run.draw.int(0...11) {
        case 0:
            try run.attempt("insert Notification") { db, draw in
                var notification = NotificationEntity(
                    default_: draw.chance(50) ? draw.text() : nil, operator_: draw.chance(50) ? 7 : nil,
                    data: try draw.key(db, "Data").map { DataEntity.Key($0) })
                try notification.insert(db)
            }
        case 1:
            try run.attempt("insert Data") { db, draw in
                var data = DataEntity(insert_: draw.chance(50) ? draw.date() : nil)
                try data.insert(db)
            }
        case 2:
            try run.attempt("insert Error or Result") { db, draw in
                if draw.chance(50) {
                    var error = ErrorEntity(partner: try draw.key(db, "Result").map { ResultEntity.Key($0) })
                    try error.insert(db)
                } else {
                    var result = ResultEntity(partner: try draw.key(db, "Error").map { ErrorEntity.Key($0) })
                    try result.insert(db)
                }
            }
        case 3, 4:
            try run.attempt("insert Member") { db, draw in
                var member = Member(
                    friendRequest: draw.chance(50) ? draw.text() : nil,
                    fee: draw.chance(50) ? Decimal(string: "0.10") : nil,
                    friend_2: try draw.key(db, "Member").map { Member.Key($0) },
                    Friend: try draw.key(db, "Member").map { Member.Key($0) })
                try member.insert(db)
            }
        case 5:
            try run.attempt("insert a Date") { db, draw in
                if draw.chance(50) {
                    var type = TypeEntity(validate_: draw.double(), hashValue_: 3)
                    try type.insert(db)
                } else {
                    var proto = ProtocolEntity(validate_: draw.chance(50) ? draw.double() : nil)
                    try proto.insert(db)
                }
            }
        case 6, 7:
            try run.attempt("delete") { db, draw in
                let table = draw.pick(["Notification", "Data", "Error", "Result", "Member", "Date"])
                guard let key = try draw.existing(db, table) else { return }
                switch table {
                case "Notification": try NotificationEntity.fetchOne(db, id: NotificationEntity.Key(key))?.delete(db)
                case "Data": try DataEntity.fetchOne(db, id: DataEntity.Key(key))?.delete(db)
                case "Error": try ErrorEntity.fetchOne(db, id: ErrorEntity.Key(key))?.delete(db)
                case "Result": try ResultEntity.fetchOne(db, id: ResultEntity.Key(key))?.delete(db)
                case "Member": try Member.fetchOne(db, id: Member.Key(key))?.delete(db)
                default: try AnyDate_2.fetchOne(db, id: AnyDate_2.Key(key))?.delete(db)
                }
            }
        case 8:
            try run.attempt("one-to-one links") { db, draw in
                if draw.chance(50), let key = try draw.existing(db, "Error"),
                    var error = try ErrorEntity.fetchOne(db, id: ErrorEntity.Key(key))
                {
                    try error.setPartner(try draw.key(db, "Result").map { ResultEntity.Key($0) }, in: db)
                } else if let key = try draw.existing(db, "Result"),
                    var result = try ResultEntity.fetchOne(db, id: ResultEntity.Key(key))
                {
                    result.partner = try draw.key(db, "Error").map { ErrorEntity.Key($0) }
                    try result.update(db)
                }
            }
        case 9:
            try run.attempt("Data links") { db, draw in
                guard let key = try draw.existing(db, "Data"),
                    let data = try DataEntity.fetchOne(db, id: DataEntity.Key(key))
                else { return }
                let notifications = try draw.someKeys(db, "Notification").map { NotificationEntity.Key($0) }
                switch draw.int(0...2) {
                case 0: try data.addToNotifications(notifications, in: db)
                case 1: try data.removeFromNotifications(notifications, in: db)
                default: try data.setNotifications(notifications, in: db)
                }
            }
        default:
            try run.attempt("Member links") { db, draw in
                guard let key = try draw.existing(db, "Member"),
                    var member = try Member.fetchOne(db, id: Member.Key(key))
                else { return }
                let members = try draw.someKeys(db, "Member").map { Member.Key($0) }
                switch draw.int(0...5) {
                case 0: try member.setFriend_2(try draw.key(db, "Member").map { Member.Key($0) }, in: db)
                case 1: try member.addToFriendOf(members, in: db)
                case 2: try member.setFriendOf_2(members, in: db)
                case 3: try member.addToLikes(members, in: db)
                case 4: try member.removeFromLikedBy(members, in: db)
                default: try member.setLikes(members, in: db)
                }
            }
        }
    }
}
