import Foundation
import Testing

@testable import Remodel
@testable import RemodelModel

struct SQLiteConnectionTests {
    @Test func bindsAndReadsEveryStorageClass() throws {
        let connection = try SQLiteConnection(path: ":memory:")
        try connection.execute("CREATE TABLE t (a, b, c, d, e)")
        let values: [SQLiteValue] = [
            .null, .integer(Int64.min), .real(-0.5), .text("é\"'; DROP"), .blob(Data([0, 1, 255])),
        ]
        try connection.run("INSERT INTO t VALUES (?, ?, ?, ?, ?)", values)
        #expect(try connection.rows("SELECT * FROM t") == [values])
    }

    /// Text is bound as its bytes with their count: empty text stays text (not NULL), a U+0000
    /// inside does not cut it short, and short (inline) and long strings arrive alike.
    @Test func bindsEmptyTextAndTextWithNULWhole() throws {
        let connection = try SQLiteConnection(path: ":memory:")
        try connection.execute("CREATE TABLE t (x)")
        let texts = ["", "a\u{0}b", "short", String(repeating: "long é ", count: 40)]
        let insert = try connection.prepare("INSERT INTO t VALUES (?)")
        for text in texts {
            try insert.bind(.text(text), at: 1)
            try insert.step()
            insert.reset()
        }
        #expect(
            try connection.rows("SELECT x, typeof(x), length(CAST(x AS BLOB)) FROM t ORDER BY rowid")
                == texts.map {
                    [.text($0), .text("text"), .integer(Int64($0.utf8.count))]
                })
    }

    @Test func errorsCarryTheSQL() throws {
        let connection = try SQLiteConnection(path: ":memory:")
        let error = #expect(throws: RemodelError.self) { try connection.execute("SELECT * FROM missing") }
        #expect(
            error?.description
                == ":memory:: SQLite error 1: no such table: missing - while executing `SELECT * FROM missing`")
    }

    @Test func swiftFunctionsAreCallableFromSQL() throws {
        let connection = try SQLiteConnection(path: ":memory:")
        try connection.createFunction("twice", argumentCount: 1) { arguments in
            guard case .integer(let value) = arguments[0] else { return .null }
            return .integer(value * 2)
        }
        #expect(try connection.scalar("SELECT twice(21)") == .integer(42))
    }

    @Test func quotesIdentifiers() {
        #expect(quoteIdentifier("a\"b") == "\"a\"\"b\"")
    }

    /// Random names of quotes, spaces and characters of several UTF-8 lengths: each quoted name is what Foundation's
    /// replacement gives, and SQLite reads the name back from it, as a table's name and as a literal.
    @Test func quotedNamesAndLiteralsReadBackAsTheyWere() throws {
        let pieces = ["\"", "'", "\"\"", "a", "Z", " ", "_", "é", "ß", "日本", "🦆", "\\", "--", ";", "x\u{301}"]
        var random = SplitMix64(seed: 29)
        let connection = try SQLiteConnection(path: ":memory:")
        for round in 0..<300 {
            let name = (0..<(1 + Int(random.next() % 6))).map { _ in pieces[Int(random.next() % UInt64(pieces.count))] }
                .joined()
            #expect(quoteIdentifier(name) == "\"" + name.replacingOccurrences(of: "\"", with: "\"\"") + "\"")
            #expect(quoteLiteral(name) == "'" + name.replacingOccurrences(of: "'", with: "''") + "'")
            #expect(try connection.scalar("SELECT \(quoteLiteral(name))") == .text(name))
            try connection.execute("CREATE TABLE \(quoteIdentifier(name)) (x)")
            #expect(try connection.scalar("SELECT name FROM sqlite_master") == .text(name), "round \(round)")
            try connection.execute("DROP TABLE \(quoteIdentifier(name))")
        }
    }

    /// Random paths of every byte class a file name can hold: each store's URI is what Foundation's percent-encoding
    /// gives, and SQLite opens the file by it (a store is created, then found again by its plain path).
    @Test func storePathsBecomeTheURIsFoundationWrites() throws {
        let pieces = [
            "a", "Z", "0", " ", "%", "?", "#", "&", "=", ";", ":", "@", "!", "$", "'", "(", ")", "*", "+", ",", "-",
            ".",
            "_", "~", "[", "]", "\"", "<", ">", "^", "`", "{", "|", "}", "\\", "é", "日本", "🦆", "\u{7F}", "\t",
        ]
        var allowed = CharacterSet.urlPathAllowed
        allowed.remove(charactersIn: "?#%")
        var random = SplitMix64(seed: 31)
        let folder = try TemporaryFolder()
        for round in 0..<200 {
            let name = (0..<(1 + Int(random.next() % 8))).map { _ in pieces[Int(random.next() % UInt64(pieces.count))] }
                .joined()
            let path = folder.path + "/" + name
            #expect(sqliteFileURI(path) == "file:" + path.addingPercentEncoding(withAllowedCharacters: allowed)!)
            guard round % 10 == 0, !name.contains("/") else { continue }
            try SQLiteConnection(path: path, mode: .create).execute("CREATE TABLE t (x)")
            #expect(FileManager.default.fileExists(atPath: path), "\(name)")
            try? FileManager.default.removeItem(atPath: path)
        }
    }
}
