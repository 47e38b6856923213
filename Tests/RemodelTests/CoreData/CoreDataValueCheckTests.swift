import Foundation
import Testing

@testable import Remodel
@testable import RemodelModel

/// The value checks an import runs in its copy (comparisons that rest on SQLite's ordering of storage
/// classes and on the column's affinity) give the same answer as `typeof()`, for every attribute type,
/// every column type Core Data declares for it, and values of every storage class: fixed edge cases, then
/// values drawn from seeds.
struct CoreDataValueCheckTests {
    /// Values of every storage class, as SQL literals, with the edges of each check.
    static let edges = [
        "NULL", "0", "1", "2", "-1", "32767", "32768", "-32769", "2147483647", "2147483648", "9223372036854775807",
        "-9223372036854775808", "1.5", "2.0", "-0.0", "1e30", "-1e30", "9.2233720368547758e18", "'text'", "'12'",
        "''", "'1.5'", "' 7 '", "'0x10'", "X''", "X'00'", "X'01'", "X'0102'", "X'02414200'", "X'03'", "X'FF'",
        "X'0123456789ABCDEF0123456789ABCDEF'", "X'0123456789ABCDEF0123456789ABCD'", "'0123456789ABCDEF'",
    ]

    /// SQL literals drawn from `seed`: integers, reals, texts and blobs of every size, as a generator
    /// of a store's values would.
    static func values(seed: UInt64, count: Int) -> [String] {
        var random = SplitMix64(seed: seed)
        let characters = Array("0123456789.e-ax ")
        let small = ["0", "1", "NULL", "16.0", "'1'"]
        return (0..<count).map { _ -> String in
            let pick = random.next() % 6
            if pick == 0 { return String(Int64(bitPattern: random.next()) >> Int64(random.next() % 64)) }
            if pick == 1 { return String(Double(Int64(bitPattern: random.next()) >> 20) / 1024) }
            if pick == 2 {
                let length = Int(random.next() % 6)
                let text: [Character] = (0..<length).map { _ in characters[Int(random.next() % 16)] }
                return "'" + String(text) + "'"
            }
            if pick == 3 {
                let length = Int(random.next() % 18)
                let bytes: [String] = (0..<length).map { _ in String(format: "%02X", Int(random.next() % 256)) }
                return "X'" + bytes.joined() + "'"
            }
            if pick == 4 { return small[Int(random.next() % 5)] }
            return "X'01" + String(format: "%02X", Int(random.next() % 256)) + "'"
        }
    }

    /// Every attribute type with every column type Core Data declares for it.
    static let columns: [(AttributeType, String)] = AttributeType.allCases.flatMap { type in
        (CoreDataValues.declaredTypes(of: type) ?? []).sorted().map { (type, $0) }
    }

    /// The rows where the comparison check and `typeof()` disagree, for values stored in a column of
    /// `declared` type.
    static func disagreements(_ values: [String], type: AttributeType, declared: String, external: Bool) throws
        -> [String]
    {
        let connection = try SQLiteConnection(path: ":memory:", mode: .create)
        try connection.execute("CREATE TABLE t (id INTEGER PRIMARY KEY, literal TEXT, x \(declared))")
        for (index, value) in values.enumerated() {
            try connection.run("INSERT INTO t VALUES (?, ?, \(value))", [.integer(Int64(index)), .text(value)])
        }
        let fast =
            (external ? CoreDataValues.externalCheck("x").check : CoreDataValues.check("x", type: type).check)?.problem
        let reference =
            external
            ? "typeof(x) NOT IN ('blob', 'null') OR (typeof(x) = 'blob' AND length(x) > 0 AND substr(x, 1, 1) NOT IN (X'01', X'02'))"
            : CoreDataValues.classProblem("x", type: type)
        let rows = try connection.rows(
            "SELECT literal, quote(x) FROM t WHERE coalesce((\(fast ?? "0")), 0) != coalesce((\(reference ?? "0")), 0)")
        return rows.map { "\(type.rawValue) in \(declared): \($0[0]) stored as \($0[1])" }
    }

    @Test func theChecksAgreeWithTypeofOnTheEdges() throws {
        for (type, declared) in Self.columns {
            #expect(try Self.disagreements(Self.edges, type: type, declared: declared, external: false) == [])
        }
        #expect(try Self.disagreements(Self.edges, type: .binary, declared: "BLOB", external: true) == [])
    }

    @Test(arguments: 1...40 as ClosedRange<UInt64>)
    func theChecksAgreeWithTypeofOnValuesFromASeed(seed: UInt64) throws {
        let values = Self.values(seed: seed, count: 60)
        for (type, declared) in Self.columns {
            #expect(
                try Self.disagreements(values, type: type, declared: declared, external: false) == [], "seed \(seed)")
        }
        #expect(try Self.disagreements(values, type: .binary, declared: "BLOB", external: true) == [], "seed \(seed)")
    }
}
