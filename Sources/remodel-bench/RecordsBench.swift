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
/// - **insert**: `inserts` books through `Book.insert(db)` (validation, hooks) against a cached `INSERT`
///   statement with the same values, each in one transaction;
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
        var checksum = 0
        for _ in 0..<runs {
            try queue.read { db in
                var start = Measure.now()
                let records = try Book.fetchCursor(db)
                while let book = try records.next() { checksum &+= Int(book.pageCount ?? 0) }
                recordReads.append(Measure.now() - start)
                start = Measure.now()
                let hand = try HandBook.fetchCursor(db, sql: "SELECT \(columns) FROM \"Book\"")
                while let book = try hand.next() { checksum &+= Int(book.pageCount ?? 0) }
                handReads.append(Measure.now() - start)
            }
        }
        var recordInserts: [Double] = []
        var handInserts: [Double] = []
        for run in 0..<runs {
            recordInserts.append(try timeInserts(bundle, folder: folder, run: run, records: true))
            handInserts.append(try timeInserts(bundle, folder: folder, run: run, records: false))
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
        result.extra["insertRecords"] = median(recordInserts)
        result.extra["insertHand"] = median(handInserts)
        result.extra["insertRatio"] = median(recordInserts) / median(handInserts)
        result.extra["inserts"] = Double(inserts)
        result.extra["generateSeconds"] = median(generations)
        result.extra["generateEntities"] = Double(entities)
        result.note = "checksum \(checksum)"
    }

    private static func timeInserts(_ bundle: ModelBundle, folder: String, run: Int, records: Bool) throws -> Double {
        let path = folder + "/records-insert-\(records ? "records" : "hand")-\(run).sqlite"
        try? FileManager.default.removeItem(atPath: path)
        _ = try Store.create(at: path, bundle: bundle)
        let queue = try DatabaseQueue(path: path)
        defer { try? FileManager.default.removeItem(atPath: path) }
        let start = Measure.now()
        try queue.write { db in
            if records {
                for i in 0..<inserts {
                    var book = Book(
                        isbn: "978-\(i)", pageCount: Int32(i % 1000), price: Decimal(i % 5000),
                        publishedOn: Date(timeIntervalSince1970: 1.7e9 + Double(i)), title: "Volume \(i)")
                    try book.insert(db)
                }
            } else {
                let statement = try db.cachedStatement(
                    sql: "INSERT INTO \"Book\" (\(columns)) VALUES (?, ?, ?, ?, ?, ?, ?, ?)")
                for i in 0..<inserts {
                    let price = Decimal(i % 5000)
                    try statement.execute(arguments: [
                        nil, "Book", "978-\(i)", Int32(i % 1000), price.description, 1.7e9 + Double(i), "Volume \(i)",
                        nil,
                    ])
                    _ = db.lastInsertedRowID
                }
            }
        }
        return Measure.now() - start
    }

    private static func median(_ values: [Double]) -> Double {
        let sorted = values.sorted()
        return sorted.isEmpty ? 0 : sorted[sorted.count / 2]
    }
}
