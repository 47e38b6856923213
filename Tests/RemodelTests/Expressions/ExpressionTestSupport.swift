import Foundation

@testable import Remodel
@testable import RemodelModel

/// SplitMix64: a tiny seeded generator so every run draws the same cases.
struct SplitMix64: RandomNumberGenerator {
    var state: UInt64
    init(seed: UInt64) { state = seed }
    mutating func next() -> UInt64 {
        state &+= 0x9E37_79B9_7F4A_7C15
        var z = state
        z = (z ^ (z >> 30)) &* 0xBF58_476D_1CE4_E5B9
        z = (z ^ (z >> 27)) &* 0x94D0_49BB_1331_11EB
        return z ^ (z >> 31)
    }
}

/// The library model the expression tests run against: `Person` and `Book`.
enum LibraryFixture {
    static let person = Entity(
        name: "Person",
        attributes: [
            Attribute(name: "name", type: .string),
            Attribute(name: "nickname", type: .string, isOptional: false),
            Attribute(name: "fullName", type: .string),
            Attribute(name: "age", type: .integer64),
            Attribute(name: "small", type: .integer16, isOptional: false),
            Attribute(name: "score", type: .double),
            Attribute(name: "ratio", type: .float),
            Attribute(name: "balance", type: .decimal),
            Attribute(name: "active", type: .boolean),
            Attribute(name: "birthday", type: .date),
            Attribute(name: "id", type: .uuid),
            Attribute(name: "photo", type: .binary),
            Attribute(name: "homepage", type: .uri),
            Attribute(name: "blob", type: .transformable),
            Attribute(name: "scratch", type: .string, isTransient: true),
        ],
        relationships: [
            Relationship(
                name: "books", destinationEntity: "Book", inverseName: "author", inverseEntity: "Book", isToMany: true),
            Relationship(name: "favoriteBook", destinationEntity: "Book"),
        ])

    static let book = Entity(
        name: "Book",
        attributes: [
            Attribute(name: "title", type: .string),
            Attribute(name: "pages", type: .integer32),
            Attribute(name: "price", type: .decimal),
            Attribute(name: "rating", type: .double),
        ],
        relationships: [
            Relationship(name: "author", destinationEntity: "Person", inverseName: "books", inverseEntity: "Person")
        ])

    static let model = ModelVersion(name: "Library", entities: [person, book])

    static var checker: ExpressionTypeChecker { ExpressionTypeChecker(model: model, entity: person) }

    static let personColumns: [(String, String)] = [
        ("name", "TEXT"), ("nickname", "TEXT"), ("fullName", "TEXT"), ("age", "INTEGER"), ("small", "INTEGER"),
        ("score", "REAL"), ("ratio", "REAL"), ("balance", "TEXT"), ("active", "INTEGER"), ("birthday", "REAL"),
        ("id", "TEXT"), ("photo", "BLOB"), ("homepage", "TEXT"), ("blob", "BLOB"), ("favoriteBook", "INTEGER"),
    ]
    static let bookColumns: [(String, String)] = [
        ("title", "TEXT"), ("pages", "INTEGER"), ("price", "TEXT"), ("rating", "REAL"), ("author", "INTEGER"),
    ]

    /// Creates both tables, as the store layout would.
    static func createTables(on connection: SQLiteConnection) throws {
        for (table, columns) in [("Person", personColumns), ("Book", bookColumns)] {
            let list = columns.map { "\(quoteIdentifier($0.0)) \($0.1)" }.joined(separator: ", ")
            try connection.execute(
                "CREATE TABLE \(quoteIdentifier(table)) (_pk INTEGER PRIMARY KEY, _entity TEXT NOT NULL, \(list))")
        }
    }

    /// The entity a to-one relationship leads to.
    static func destination(of relationship: String, from table: String) -> String {
        switch (table, relationship) {
        case ("Person", "favoriteBook"): return "Book"
        case ("Book", "author"): return "Person"
        default: return "Person"
        }
    }
}

/// The store-layout knowledge the migrator will have, for the test tables.
/// The source row is `"t0"` (a `Person`).
struct LibrarySQLContext: ExpressionSQLContext {
    /// The table reached through `path` from Person.
    func table(after path: [String]) -> String {
        path.reduce("Person") { LibraryFixture.destination(of: $1, from: $0) }
    }

    /// A column of the object reached through `path`.
    func column(_ column: String, through path: [String]) -> String {
        guard let last = path.last else { return "\"t0\".\(quoteIdentifier(column))" }
        let owner = Array(path.dropLast())
        let alias = quoteIdentifier("t\(path.count)")
        return
            "(SELECT \(alias).\(quoteIdentifier(column)) FROM \(quoteIdentifier(table(after: path))) AS \(alias) WHERE \(alias).\"_pk\" = \(self.column(last, through: owner)))"
    }

    func attributeSQL(_ attribute: String, through relationships: [String]) -> String {
        column(attribute, through: relationships)
    }

    func countSQL(of relationship: String, through relationships: [String]) -> String {
        let owner = column("_pk", through: relationships)
        // Only Person.books (inverse Book.author) is to-many in the fixture.
        return
            "(CASE WHEN \(owner) IS NULL THEN NULL ELSE (SELECT count(*) FROM \"Book\" AS \"c\" WHERE \"c\".\"author\" = \(owner)) END)"
    }
}

/// The rows of both tables as read back from SQLite, for the interpreter.
struct LibraryRows {
    var persons: [Int64: [String: SQLiteValue]] = [:]
    var books: [Int64: [String: SQLiteValue]] = [:]

    init(connection: SQLiteConnection) throws {
        for (table, columns) in [("Person", LibraryFixture.personColumns), ("Book", LibraryFixture.bookColumns)] {
            let names = ["_pk"] + columns.map(\.0)
            for row in try connection.rows(
                "SELECT \(names.map(quoteIdentifier).joined(separator: ", ")) FROM \(quoteIdentifier(table))")
            {
                guard case .integer(let pk) = row[0] else { continue }
                let values = Dictionary(uniqueKeysWithValues: zip(names, row))
                if table == "Person" { persons[pk] = values } else { books[pk] = values }
            }
        }
    }

    func row(_ pk: Int64) -> Row { Row(rows: self, pk: pk) }

    struct Row: ExpressionRow {
        let rows: LibraryRows
        let pk: Int64

        /// The object reached through `path`, as (table, values), nil when a relationship is empty.
        func object(through path: [String]) -> (String, [String: SQLiteValue])? {
            var table = "Person"
            guard var values = rows.persons[pk] else { return nil }
            for relationship in path {
                guard case .integer(let next) = values[relationship] ?? .null else { return nil }
                table = LibraryFixture.destination(of: relationship, from: table)
                guard let found = table == "Person" ? rows.persons[next] : rows.books[next] else { return nil }
                values = found
            }
            return (table, values)
        }

        func value(of attribute: String, through relationships: [String]) -> SQLiteValue {
            object(through: relationships)?.1[attribute] ?? .null
        }

        func count(of relationship: String, through relationships: [String]) -> SQLiteValue {
            guard let (_, values) = object(through: relationships), case .integer(let owner) = values["_pk"] ?? .null
            else { return .null }
            return .integer(Int64(rows.books.values.filter { $0["author"] == .integer(owner) }.count))
        }
    }
}

/// Exact equality: doubles by bit pattern (so -0.0 differs from 0.0), text by UTF-8 bytes
/// (Swift's `==` on strings would call "é" and "e\u{301}" equal).
func identical(_ a: SQLiteValue, _ b: SQLiteValue) -> Bool {
    switch (a, b) {
    case (.real(let x), .real(let y)): return x.bitPattern == y.bitPattern
    case (.text(let x), .text(let y)): return Array(x.utf8) == Array(y.utf8)
    default: return a == b
    }
}

/// A value as tests print it, with text escaped so invisible differences show.
func show(_ value: SQLiteValue) -> String {
    switch value {
    case .text(let text): return "TEXT " + text.unicodeScalars.map { $0.escaped(asASCII: true) }.joined()
    case .real(let real): return "REAL \(real) (bits \(String(real.bitPattern, radix: 16)))"
    default: return value.description
    }
}
