import Foundation
import Testing

@testable import Remodel
@testable import RemodelCoreData

/// The value checks made ahead of the copy (``CoreDataValueScan``): the scan never vouches for a range
/// holding a value the copy with the checks in it refuses (else the import would succeed), and the
/// refusal reads word for word as the checks in the copy alone word it, whichever range of keys the
/// value is in and whether the copy waits for the scan or not.
struct CoreDataValueScanTests {
    /// One value Remodel cannot hold (or another failure met first), and the start of its sentence.
    struct Case: Sendable, CustomTestStringConvertible {
        var name: String
        var sql: [String]
        var message: String
        var removeExternalFile = false
        var testDescription: String { name }
    }

    /// A Dog whose key is in the copy's third range of keys (ranges of 200,000 from the smallest key).
    static let lastRangeDog =
        "INSERT INTO ZANIMAL (Z_PK, Z_ENT, Z_OPT, ZTAG1, ZNAME) VALUES (\(2 * CoreDataImporter.batchSpan + 1000), 3, 1, 5, 'Rex II')"

    static let cases: [Case] = [
        Case(
            name: "Integer 16 out of range", sql: ["UPDATE ZANIMAL SET ZLIVES = 40000 WHERE Z_PK = 3"],
            message:
                "Cat Z_PK 3 attribute \"lives\" (column ZANIMAL.ZLIVES): the store holds 40000 (integer), but a Integer 16 attribute must be an integer from -32768 to 32767"
        ),
        Case(
            name: "Integer 32 holds a fraction", sql: ["UPDATE ZANIMAL SET ZTAG1 = 1.5 WHERE Z_PK = 4"],
            message: "Dog Z_PK 4 attribute \"tag\" (column ZANIMAL.ZTAG1): the store holds 1.5 (real)"),
        Case(
            name: "String holds bytes", sql: ["UPDATE ZZONE SET ZTITLE = X'00' WHERE Z_PK = 2"],
            message:
                "Zone Z_PK 2 attribute \"title\" (column ZZONE.ZTITLE): the store holds X'00' (blob), but a String attribute must be text"
        ),
        Case(
            name: "Boolean is 2", sql: ["UPDATE ZANIMAL SET ZVACCINATED = 2 WHERE Z_PK = 1"],
            message: "Animal Z_PK 1 attribute \"vaccinated\" (column ZANIMAL.ZVACCINATED): the store holds 2 (integer)"),
        Case(
            name: "Double holds text", sql: ["UPDATE ZANIMAL SET ZHEIGHT = 'tall' WHERE Z_PK = 2"],
            message: "Cat Z_PK 2 attribute \"height\" (column ZANIMAL.ZHEIGHT): the store holds 'tall' (text)"),
        Case(
            name: "Date holds text", sql: ["UPDATE ZANIMAL SET ZBORN = 'yesterday' WHERE Z_PK = 4"],
            message: "Dog Z_PK 4 attribute \"born\" (column ZANIMAL.ZBORN): the store holds 'yesterday' (text)"),
        Case(
            name: "UUID of one byte", sql: ["UPDATE ZANIMAL SET ZID = X'01' WHERE Z_PK = 1"],
            message: "Animal Z_PK 1 attribute \"id\" (column ZANIMAL.ZID): the store holds X'01' (blob)"),
        Case(
            name: "external data with no marker", sql: ["UPDATE ZANIMAL SET ZPHOTO = X'07CAFE' WHERE Z_PK = 1"],
            message: "Animal Z_PK 1 attribute \"photo\" (column ZANIMAL.ZPHOTO): the store holds X'07CAFE' (blob)"),
        Case(
            name: "to-one holds text", sql: ["UPDATE ZKEEPER SET ZFAVORITE = 'one' WHERE Z_PK = 1"],
            message: "Keeper Z_PK 1 relationship \"favorite\" (column ZKEEPER.ZFAVORITE): the store holds 'one' (text)"),
        Case(
            name: "abstract or unknown entity", sql: ["UPDATE ZANIMAL SET Z_ENT = 9 WHERE Z_PK = 3"],
            message: "ZANIMAL Z_PK 3 has entity number 9"),
        Case(
            name: "bad value in the first range of keys",
            sql: [lastRangeDog, "UPDATE ZANIMAL SET ZLIVES = -40000 WHERE Z_PK = 2"],
            message: "Cat Z_PK 2 attribute \"lives\" (column ZANIMAL.ZLIVES): the store holds -40000 (integer)"),
        Case(
            name: "bad value in the last range of keys",
            sql: [
                lastRangeDog, "UPDATE ZANIMAL SET ZTAG1 = 'five' WHERE Z_PK = \(2 * CoreDataImporter.batchSpan + 1000)",
            ],
            message:
                "Dog Z_PK \(2 * CoreDataImporter.batchSpan + 1000) attribute \"tag\" (column ZANIMAL.ZTAG1): the store holds 'five' (text)"
        ),
        Case(
            name: "a missing file before a bad value in a later table",
            sql: ["UPDATE ZZONE SET ZTITLE = X'00' WHERE Z_PK = 2"], message: "Cat Z_PK 2 attribute \"photo\"",
            removeExternalFile: true),
        Case(
            name: "a bad value before a link to nothing",
            sql: ["UPDATE ZZONE SET ZTITLE = X'00' WHERE Z_PK = 2", "INSERT INTO Z_4ZONES VALUES (1, 7, 10)"],
            message: "Zone Z_PK 2 attribute \"title\""),
    ]

    /// Imports `source` with the checks made ahead of the copy at `pace`, or (`nil`) in the copy alone.
    static func importing(_ source: String, bundle: ModelBundle, into target: String, pace: CoreDataValueScan.Pace?)
        -> RemodelError?
    {
        let importer = CoreDataImporter(
            source: source, models: .bundle(bundle), target: target, requestedVersion: nil,
            missingExternalData: .refuse, danglingLinks: .refuse, progress: OperationProgressReporter(nil))
        importer.valueScanPace = pace
        do {
            _ = try importer.run()
            return nil
        } catch {
            return error
        }
    }

    @Test(arguments: cases)
    func refusesAsTheChecksInTheCopyDo(case refusal: Case) throws {
        let folder = try TemporaryFolder()
        let source = try CoreDataStoreBuilder.zoo(at: folder.file("Zoo.sqlite"), extraSQL: refusal.sql)
        if refusal.removeExternalFile {
            try FileManager.default.removeItem(
                atPath: folder.file(".Zoo_SUPPORT/_EXTERNAL_DATA/5F0F6A5B-2C6B-4B4B-9B1A-0E3A4D5C6B7A"))
        }
        let bundle = try CoreDataStoreBuilder.zooBundle(in: folder.path)
        let before = try Data(contentsOf: URL(fileURLWithPath: source))
        let inCopy = try #require(Self.importing(source, bundle: bundle, into: folder.file("a.sqlite"), pace: nil))
        #expect(inCopy.message.hasPrefix(refusal.message), "\(inCopy.message)")
        // Where the copy waits for the scan, every range before the value's is copied unchecked.
        for pace in [CoreDataValueScan.Pace.waitedFor, .whereAhead] {
            let ahead = try #require(Self.importing(source, bundle: bundle, into: folder.file("b.sqlite"), pace: pace))
            #expect(ahead.message == inCopy.message, "\(pace)")
            #expect(
                ahead.code == inCopy.code && ahead.entity == inCopy.entity && ahead.property == inCopy.property
                    && ahead.primaryKey == inCopy.primaryKey && ahead.path == inCopy.path)
        }
        #expect(try Data(contentsOf: URL(fileURLWithPath: source)) == before)
        let left = try folder.contents()
        #expect(!left.contains("a.sqlite") && !left.contains("b.sqlite"), "\(left)")
        #expect(left.allSatisfy { !$0.contains("remodel-core-data") }, "a temporary file was left: \(left)")
    }

    /// A store whose every value passes imports the same through the ranges the scan vouched for.
    @Test func importsTheSameRowsWithTheChecksAheadOfTheCopy() throws {
        let folder = try TemporaryFolder()
        let source = try CoreDataStoreBuilder.zoo(at: folder.file("Zoo.sqlite"), extraSQL: [Self.lastRangeDog])
        let bundle = try CoreDataStoreBuilder.zooBundle(in: folder.path)
        var dumps: [[[SQLiteValue]]] = []
        for (name, pace) in [("a", nil), ("b", CoreDataValueScan.Pace.waitedFor)] {
            #expect(Self.importing(source, bundle: bundle, into: folder.file("\(name).sqlite"), pace: pace) == nil)
            let store = try SQLiteConnection(path: folder.file("\(name).sqlite"), mode: .readOnly)
            dumps.append(
                try store.rows("SELECT * FROM Animal ORDER BY _pk") + store.rows("SELECT * FROM Keeper ORDER BY _pk")
                    + store.rows("SELECT * FROM Zone ORDER BY _pk"))
        }
        #expect(dumps[0].count == 10 && dumps[0] == dumps[1])
    }

    /// The scan alone: it mirrors the copy's `CASE` over entity numbers (a value of another entity's
    /// column is not checked), reads every range of keys, and fails where it cannot read the table.
    @Test func scanFindsAValueOnlyWhereTheCopyChecksIt() throws {
        let folder = try TemporaryFolder()
        let lives = CoreDataMapping.Source(
            numbers: [2], column: "ZLIVES", entity: "Cat", property: "lives", type: .integer16, isExternal: false,
            isOptional: true)
        let table = CoreDataMapping.Table(
            target: "Animal", source: "ZANIMAL", entityByNumber: [1: "Animal", 2: "Cat", 3: "Dog"],
            abstractNumbers: [:], columns: [CoreDataMapping.ValueColumn(target: "lives", sources: [lives])],
            orders: [])
        /// The ranges of keys the scan vouches for, out of those of the store (`nil` for all of them).
        func vouched(_ sql: [String]) throws -> [Int64]? {
            let path = folder.file("Zoo-\(UUID().uuidString).sqlite")
            try CoreDataStoreBuilder.zoo(at: path, extraSQL: sql)
            let reader = try CoreDataSource(path: path)
            let bounds = try reader.connection().rows("SELECT min(Z_PK), max(Z_PK) FROM ZANIMAL")[0]
            guard case .integer(let lowest) = bounds[0], case .integer(let highest) = bounds[1] else { return [] }
            let ranges = CoreDataTableCopier.ranges(from: lowest, to: highest).map {
                CoreDataValueScan.Range(table: "ZANIMAL", start: $0.start, end: $0.end)
            }
            let found = CoreDataValueScan(store: reader.opening, tables: [table], ranges: ranges, pace: .waitedFor)
                .vouchedWhenDone()
            return found == ranges ? nil : found.map(\.start)
        }
        func passes(_ sql: [String]) throws -> Bool { try vouched(sql) == nil }
        #expect(try passes([]))
        #expect(try passes([Self.lastRangeDog]))
        // A Dog's ZLIVES is no column of a Dog: the copy leaves it, so does the scan.
        #expect(try passes(["UPDATE ZANIMAL SET ZLIVES = 40000 WHERE Z_PK = 4"]))
        #expect(try !passes(["UPDATE ZANIMAL SET ZLIVES = 40000 WHERE Z_PK = 3"]))
        #expect(try !passes(["UPDATE ZANIMAL SET ZLIVES = 1.5 WHERE Z_PK = 3"]))
        #expect(try !passes(["UPDATE ZANIMAL SET Z_ENT = NULL WHERE Z_PK = 5"]))
        // A value to refuse in the last of three ranges: the first two are vouched for.
        #expect(try vouched([Self.lastRangeDog, "UPDATE ZANIMAL SET ZLIVES = 1.5 WHERE Z_PK = 3"]) == [])
        #expect(
            try vouched([
                Self.lastRangeDog,
                "UPDATE ZANIMAL SET Z_ENT = 2, ZLIVES = 'x' WHERE Z_PK = \(2 * CoreDataImporter.batchSpan + 1000)",
            ]) == [1, CoreDataImporter.batchSpan + 1])
        #expect(
            try !passes([
                "DROP TABLE ZANIMAL", "CREATE TABLE ZANIMAL (Z_PK INTEGER PRIMARY KEY, Z_ENT INTEGER)",
                "INSERT INTO ZANIMAL VALUES (1, 1)",
            ]))
    }
}
