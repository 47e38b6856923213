import Foundation
import Testing

@testable import Remodel
@testable import RemodelModel

struct SQLitePragmaTests {
    @Test func userVersionIntegrityAndTables() throws {
        let connection = try SQLiteConnection(path: ":memory:")
        try connection.setUserVersion(7)
        #expect(try connection.userVersion() == 7)
        #expect(try connection.integrityProblems().isEmpty)
        try connection.execute("CREATE TABLE b (x); CREATE TABLE a (y)")
        #expect(try connection.tableNames() == ["a", "b"])
        #expect(try connection.tableExists("a"))
        #expect(try !connection.tableExists("c"))
    }

    @Test func streamsRowsWithTypedAccessors() throws {
        let connection = try SQLiteConnection(path: ":memory:")
        try connection.execute(
            "CREATE TABLE t (i, r, s, b); INSERT INTO t VALUES (1, 2.5, 'é', x'0102'), (NULL, NULL, NULL, NULL)")
        let statement = try connection.prepare("SELECT i, r, s, b FROM t ORDER BY rowid")
        var seen: [String] = []
        try statement.forEachRow { row throws(RemodelError) in
            if row.storageClass(at: 0) == .null { seen.append("null"); return }
            let text = try row.withUTF8(at: 2) { bytes throws(RemodelError) in String(decoding: bytes, as: UTF8.self) }
            let count = try row.withBytes(at: 3) { bytes throws(RemodelError) in bytes.count }
            seen.append("\(row.int64(at: 0)) \(row.double(at: 1)) \(text) \(count)")
        }
        #expect(seen == ["1 2.5 é 2", "null"])
    }
}
