import Foundation
import GRDB
import Remodel
import RemodelGeneration
import RulesRecords
import Testing

/// Derived attributes through the generated records (docs/MODELS.md, "Derived attributes"): the store computes them,
/// the records read them and never write them. The `Rules` fixture has one of each kind the store keeps: a count
/// over a to-many of a hierarchy (`Owner.shelfCount`), a key path through a to-one (`Volume.shelfLabel`) and copies
/// of the object's own attributes, kept as generated columns (`Volume.heading`, a Decimal's `Owner.budgetShown`).
struct DerivedRecordsTests {
    static let model = "Tests/RemodelTests/Fixtures/Generation/Rules.xcdatamodel"

    /// Inserts, updates, saves and upserts through the records, objects read before the store's values moved
    /// written back included: each leaves the store's value, which the object then reads.
    @Test func derivedValuesAreTheStoresAfterEveryWrite() throws {
        let folder = try RecordsTestSupport.folder()
        defer { try? FileManager.default.removeItem(at: folder) }
        let bundle = try RecordsTestSupport.model(Self.model)
        let path = folder.appendingPathComponent("store.sqlite").path
        _ = try Store.create(at: path, bundle: bundle)
        let queue = try DatabaseQueue(path: path)
        try queue.write { db in
            var ada = Owner(name: "Ada", budget: Decimal(string: "12.30"))
            try ada.insert(db)
            #expect(ada.shelfCount == nil && ada.budgetShown == nil, "nil until the object is read from the store")
            let fresh = try #require(try Owner.fetchOne(db, id: ada.id))
            #expect(fresh.shelfCount == 0)
            #expect(fresh.budgetShown == Decimal(string: "12.3"))
            var shelf = Shelf(label: "A", owner: ada.id)
            try shelf.insert(db)
            var cabinet = Cabinet(label: "B", locks: 1, owner: ada.id)
            try cabinet.insert(db)
            var volume = Volume(title: "Dune", shelf: shelf.id, keeper: ada.id)
            try volume.insert(db)
            var read = try #require(try Volume.fetchOne(db, id: volume.id))
            #expect(read.heading == "Dune" && read.shelfLabel == "A")

            // `ada` was read when the count was 0 (nil in memory): writing it back leaves the store's 2.
            ada.name = "Ada L."
            try ada.update(db)
            #expect(try Owner.fetchOne(db, id: ada.id)?.shelfCount == 2)
            try ada.save(db)
            try ada.upsert(db)
            #expect(try Owner.fetchOne(db, id: ada.id)?.shelfCount == 2)
            let stale = fresh
            try stale.update(db)
            let written = try #require(try Owner.fetchOne(db, id: ada.id))
            #expect(written.name == "Ada" && written.shelfCount == 2)

            // What the values derive from changes through the records: the store follows.
            read.title = "Dune Messiah"
            read.shelf = cabinet.id
            try read.update(db)
            let moved = try #require(try Volume.fetchOne(db, id: volume.id))
            #expect(moved.heading == "Dune Messiah" && moved.shelfLabel == "B")
            var grace = Owner(name: "Grace")
            try grace.save(db)
            shelf.owner = grace.id
            try shelf.update(db)
            cabinet.label = "C"
            try cabinet.update(db)
            #expect(try Owner.order(Owner.Columns.id).fetchAll(db).map(\.shelfCount) == [1, 1])
            var labelled = try #require(try Volume.fetchOne(db, id: volume.id))
            #expect(labelled.shelfLabel == "C")
            labelled.shelf = nil
            try labelled.update(db)
            #expect(try Volume.fetchOne(db, id: volume.id).map { $0.shelfLabel == nil } == true)
            try cabinet.delete(db)
            #expect(try Owner.fetchOne(db, id: ada.id)?.shelfCount == 0)
        }
        let store = try Store.open(at: path, bundle: bundle)
        #expect(try store.checkEverything().isEmpty)
        let export = try store.exportJSONString()
        #expect(export.contains("\"shelfCount\""), "export writes the store's values")
    }

    /// The generated code: a derived attribute is `public private(set)` (a Decimal's a getter over a
    /// `private(set)` stored form), has no parameter in `init`, and no column in the values the persistence
    /// methods write. So an app cannot assign one, and no insert or update writes one.
    @Test func theGeneratedRecordsReadDerivedAttributesAndNeverWriteThem() throws {
        let bundle = try RecordsTestSupport.model(Self.model)
        let files = try RecordGenerator(bundle: bundle, access: .public).files()
        let owner = try #require(files.first { $0.name == "Owner.swift" }?.contents)
        let volume = try #require(files.first { $0.name == "Volume.swift" }?.contents)
        #expect(owner.contains("    public private(set) var shelfCount: Int64?\n"))
        #expect(owner.contains("    public var budgetShown: Decimal? { _budgetShown?.value }\n"))
        #expect(owner.contains("    private(set) var _budgetShown: RulesSchema.StoredDecimal?\n"))
        #expect(volume.contains("    public private(set) var heading: String?\n"))
        #expect(volume.contains("    public private(set) var shelfLabel: String?\n"))
        for (text, names) in [(owner, ["shelfCount", "budgetShown"]), (volume, ["heading", "shelfLabel"])] {
            let initializer = try #require(text.components(separatedBy: "\n").first { $0.contains("public init(id:") })
            let written = Self.body(of: "func encode(to container: inout PersistenceContainer)", in: text)
            #expect(!written.isEmpty)
            for name in names {
                #expect(!initializer.contains(name + ":"), "init takes no \(name)")
                #expect(!written.contains(name), "the persistence container has no \(name)")
            }
        }
    }

    /// The lines of the block opened by the line containing `header`, to its closing brace.
    static func body(of header: String, in text: String) -> String {
        let lines = text.components(separatedBy: "\n")
        guard let start = lines.firstIndex(where: { $0.contains(header) }) else { return "" }
        let indent = lines[start].prefix { $0 == " " }
        guard let end = lines[(start + 1)...].firstIndex(where: { $0 == indent + "}" }) else { return "" }
        return lines[(start + 1)..<end].joined(separator: "\n")
    }
}
