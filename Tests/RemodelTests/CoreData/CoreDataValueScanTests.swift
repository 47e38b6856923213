import Foundation
import Testing

@testable import Remodel

/// The value checks made beside the copy (``CoreDataValueScan``): every value the copy with the checks
/// in it refuses is found by the scan (else the import would succeed), and the refusal then reads word
/// for word as the checks in the copy alone word it, whichever range of keys the value is in.
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

    /// Imports `source` with the checks beside the copy (the default) or in the copy alone.
    static func importing(_ source: String, bundle: ModelBundle, into target: String, checksBeside: Bool)
        -> RemodelError?
    {
        let importer = CoreDataImporter(
            source: source, models: .bundle(bundle), target: target, requestedVersion: nil,
            missingExternalData: .refuse, progress: OperationProgressReporter(nil))
        importer.checksBesideTheCopy = checksBeside
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
        let beside = try #require(
            Self.importing(source, bundle: bundle, into: folder.file("beside.sqlite"), checksBeside: true))
        let inCopy = try #require(
            Self.importing(source, bundle: bundle, into: folder.file("in-copy.sqlite"), checksBeside: false))
        #expect(beside.message.hasPrefix(refusal.message), "\(beside.message)")
        #expect(beside.message == inCopy.message)
        #expect(
            beside.code == inCopy.code && beside.entity == inCopy.entity && beside.property == inCopy.property
                && beside.primaryKey == inCopy.primaryKey && beside.path == inCopy.path)
        #expect(try Data(contentsOf: URL(fileURLWithPath: source)) == before)
        let left = try folder.contents()
        #expect(!left.contains("beside.sqlite") && !left.contains("in-copy.sqlite"), "\(left)")
        #expect(left.allSatisfy { !$0.contains("remodel-core-data") }, "a temporary file was left: \(left)")
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
        func passes(_ sql: [String]) throws -> Bool {
            let path = folder.file("Zoo-\(UUID().uuidString).sqlite")
            try CoreDataStoreBuilder.zoo(at: path, extraSQL: sql)
            let reader = try CoreDataSource(path: path)
            return CoreDataValueScan(store: reader.opening, tables: [table]).passed()
        }
        #expect(try passes([]))
        #expect(try passes([Self.lastRangeDog]))
        // A Dog's ZLIVES is no column of a Dog: the copy leaves it, so does the scan.
        #expect(try passes(["UPDATE ZANIMAL SET ZLIVES = 40000 WHERE Z_PK = 4"]))
        #expect(try !passes(["UPDATE ZANIMAL SET ZLIVES = 40000 WHERE Z_PK = 3"]))
        #expect(try !passes(["UPDATE ZANIMAL SET ZLIVES = 1.5 WHERE Z_PK = 3"]))
        #expect(try !passes(["UPDATE ZANIMAL SET Z_ENT = NULL WHERE Z_PK = 5"]))
        #expect(
            try !passes([
                Self.lastRangeDog,
                "UPDATE ZANIMAL SET Z_ENT = 2, ZLIVES = 'x' WHERE Z_PK = \(2 * CoreDataImporter.batchSpan + 1000)",
            ]))
        #expect(
            try !passes([
                "DROP TABLE ZANIMAL", "CREATE TABLE ZANIMAL (Z_PK INTEGER PRIMARY KEY, Z_ENT INTEGER)",
                "INSERT INTO ZANIMAL VALUES (1, 1)",
            ]))
    }
}
