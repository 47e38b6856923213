import Foundation
import GRDB
import LibraryRecords
import Remodel
import RemodelGeneration

/// `records` (issue 31): the generated records against hand-written GRDB in the same run, on a `Library 3` store
/// of `objects` books (`remodel-bench --scenario records --store DIR --objects N`):
///
/// - **read**: every book through `Book.fetchCursor(db)` against a hand-written `FetchableRecord` whose
///   `init(row:)` reads the same query's columns by index, converting dates and decimals the same way;
/// - **insert**: `inserts` books through GRDB's `insert` of the generated `Book` (its callbacks validate and check
///   the author's key) against GRDB's `insert` of a hand-written record as GRDB's guide writes one (`encode(to:)`,
///   `didInsert`), with the same values, each in one transaction; without an author, then with one (the generated
///   record looks the key up, the hand-written one does not); and a cached `INSERT` statement, for reference;
/// - **generate**: `RecordGenerator.files()` for the 50-entity current version of the `longHistory` bundle.
///
/// Each pair alternates, `runs` times, and the medians are kept.
enum RecordsBench {
    static let runs = 3
    static let inserts = 100_000
    static let columns =
        "\"_pk\", \"_entity\", \"isbn\", \"pageCount\", \"price\", \"publishedOn\", \"title\", \"author\""

    /// A book read by hand, as a GRDB user writes it: by column index, the layout's encodings.
    struct HandBook: FetchableRecord {
        var id: Int64
        var isbn: String?
        var pageCount: Int32?
        var price: Decimal?
        var publishedOn: Date?
        var title: String
        var author: Int64?

        init(row: Row) throws {
            id = try row.decode(atIndex: 0)
            isbn = try row.decode(atIndex: 2)
            pageCount = try row.decode(atIndex: 3)
            price = try row.decode(String?.self, atIndex: 4).flatMap { Decimal(string: $0) }
            publishedOn = try row.decode(Double?.self, atIndex: 5).map(Date.init(timeIntervalSince1970:))
            title = try row.decode(atIndex: 6)
            author = try row.decode(atIndex: 7)
        }
    }

    /// A book written by hand as GRDB's guide writes a record: GRDB's `insert`, the layout's encodings.
    struct HandWrittenBook: MutablePersistableRecord {
        static let databaseTableName = "Book"
        var id: Int64?
        var isbn: String?
        var pageCount: Int32?
        var price: Decimal?
        var publishedOn: Date?
        var title: String
        var author: Int64?

        func encode(to container: inout PersistenceContainer) {
            container["_pk"] = id
            container["_entity"] = "Book"
            container["isbn"] = isbn
            container["pageCount"] = pageCount
            container["price"] = price?.description
            container["publishedOn"] = publishedOn?.timeIntervalSince1970
            container["title"] = title
            container["author"] = author
        }

        mutating func didInsert(_ inserted: InsertionSuccess) { id = inserted.rowID }
    }

    /// How each side inserts.
    enum Inserter: String, CaseIterable {
        case records, hand, raw
    }

    static func run(folder: String, objects: Int, result: inout ScenarioResult) throws {
        let root = URL(fileURLWithPath: #filePath).deletingLastPathComponent().deletingLastPathComponent()
            .deletingLastPathComponent()
        let bundle = try ModelBundle(contentsOf: root.appendingPathComponent("Models/Library.xcdatamodeld").path)
        try FileManager.default.createDirectory(atPath: folder, withIntermediateDirectories: true)
        let path = folder + "/records-read.sqlite"
        try? FileManager.default.removeItem(atPath: path)
        _ = try Store.create(at: path, bundle: bundle)
        let queue = try DatabaseQueue(path: path)
        try queue.write { db in
            try db.execute(
                sql: """
                    WITH RECURSIVE n(i) AS (SELECT 1 UNION ALL SELECT i + 1 FROM n WHERE i < ?)
                    INSERT INTO Book (_entity, isbn, pageCount, price, publishedOn, title)
                    SELECT 'Book', '978-' || i, i % 1000, (i % 5000) || '.' || (i % 100), 1.7e9 + i, 'Volume ' || i FROM n
                    """, arguments: [objects])
        }
        var recordReads: [Double] = []
        var handReads: [Double] = []
        var recordReadsCPU: [Double] = []
        var handReadsCPU: [Double] = []
        var checksum = 0
        for _ in 0..<runs {
            try queue.read { db in
                var start = Measure.now()
                var cpu = Measure.processCPU()
                let records = try Book.fetchCursor(db)
                while let book = try records.next() { checksum &+= Int(book.pageCount ?? 0) }
                recordReads.append(Measure.now() - start)
                recordReadsCPU.append(Measure.processCPU() - cpu)
                start = Measure.now()
                cpu = Measure.processCPU()
                let hand = try HandBook.fetchCursor(db, sql: "SELECT \(columns) FROM \"Book\"")
                while let book = try hand.next() { checksum &+= Int(book.pageCount ?? 0) }
                handReads.append(Measure.now() - start)
                handReadsCPU.append(Measure.processCPU() - cpu)
            }
        }
        var insertTimes: [String: [Double]] = [:]
        var insertCPU: [String: [Double]] = [:]
        for run in 0..<runs {
            for withAuthor in [false, true] {
                for inserter in Inserter.allCases {
                    let (seconds, cpu) = try timeInserts(
                        bundle, folder: folder, run: run, inserter, withAuthor: withAuthor)
                    insertTimes["\(inserter.rawValue)\(withAuthor ? "Author" : "")", default: []].append(seconds)
                    insertCPU["\(inserter.rawValue)\(withAuthor ? "Author" : "")", default: []].append(cpu)
                }
            }
        }
        _ = try HistoryBundle.write(in: folder)
        let history = try ModelBundle(contentsOf: HistoryBundle.path(in: folder))
        let entities = history.currentVersion.entities.count
        var generations: [Double] = []
        for _ in 0..<5 {
            let start = Measure.now()
            let files = try RecordGenerator(bundle: history).files()
            generations.append(Measure.now() - start)
            checksum &+= files.count
        }
        result.seconds = median(recordReads)
        result.extra["readRecords"] = median(recordReads)
        result.extra["readHand"] = median(handReads)
        result.extra["readRatio"] = median(recordReads) / median(handReads)
        for (name, seconds) in insertTimes { result.extra["insert_" + name] = median(seconds) }
        result.extra["insertRatio"] = median(insertTimes["records"] ?? []) / median(insertTimes["hand"] ?? [])
        result.extra["insertWithAuthorRatio"] =
            median(insertTimes["recordsAuthor"] ?? []) / median(insertTimes["handAuthor"] ?? [])
        // CPU seconds, which other processes on a loaded machine do not stretch as they do wall time.
        result.extra["readRatioCPU"] = median(recordReadsCPU) / median(handReadsCPU)
        result.extra["insertRatioCPU"] = median(insertCPU["records"] ?? []) / median(insertCPU["hand"] ?? [])
        result.extra["insertWithAuthorRatioCPU"] =
            median(insertCPU["recordsAuthor"] ?? []) / median(insertCPU["handAuthor"] ?? [])
        result.extra["insertRawRatio"] = median(insertTimes["records"] ?? []) / median(insertTimes["raw"] ?? [])
        result.extra["inserts"] = Double(inserts)
        result.extra["generateSeconds"] = median(generations)
        result.extra["generateEntities"] = Double(entities)
        result.note = "checksum \(checksum)"
    }

    private static func timeInserts(
        _ bundle: ModelBundle, folder: String, run: Int, _ inserter: Inserter, withAuthor: Bool
    ) throws -> (wall: Double, cpu: Double) {
        let path = folder + "/records-insert-\(inserter.rawValue)-\(run).sqlite"
        try? FileManager.default.removeItem(atPath: path)
        _ = try Store.create(at: path, bundle: bundle)
        let queue = try DatabaseQueue(path: path)
        defer { try? FileManager.default.removeItem(atPath: path) }
        let author: Int64? =
            withAuthor
            ? try queue.write { db in
                var ada = Person(fullName: "Ada")
                try ada.insert(db)
                return ada.id?.rawValue
            } : nil
        let start = Measure.now()
        let cpu = Measure.processCPU()
        try queue.write { db in
            switch inserter {
            case .records:
                for i in 0..<inserts {
                    var book = Book(
                        isbn: "978-\(i)", pageCount: Int32(i % 1000), price: Decimal(i % 5000),
                        publishedOn: Date(timeIntervalSince1970: 1.7e9 + Double(i)), title: "Volume \(i)",
                        author: author.map { Person.Key($0) })
                    try book.insert(db)
                }
            case .hand:
                for i in 0..<inserts {
                    var book = HandWrittenBook(
                        isbn: "978-\(i)", pageCount: Int32(i % 1000), price: Decimal(i % 5000),
                        publishedOn: Date(timeIntervalSince1970: 1.7e9 + Double(i)), title: "Volume \(i)",
                        author: author)
                    try book.insert(db)
                }
            case .raw:
                let statement = try db.cachedStatement(
                    sql: "INSERT INTO \"Book\" (\(columns)) VALUES (?, ?, ?, ?, ?, ?, ?, ?)")
                for i in 0..<inserts {
                    let price = Decimal(i % 5000)
                    try statement.execute(arguments: [
                        nil, "Book", "978-\(i)", Int32(i % 1000), price.description, 1.7e9 + Double(i), "Volume \(i)",
                        author,
                    ])
                    _ = db.lastInsertedRowID
                }
            }
        }
        return (Measure.now() - start, Measure.processCPU() - cpu)
    }

    private static func median(_ values: [Double]) -> Double {
        let sorted = values.sorted()
        return sorted.isEmpty ? 0 : sorted[sorted.count / 2]
    }
}
