import Foundation
import Testing

@testable import Remodel

/// The store keeps every derived attribute of ``DerivedModel`` right whatever the app's SQL does: random objects,
/// links, renames, moves, kind changes and deletions (dangling keys included) are written with plain SQL, and after
/// each one every derived column equals the value computed here, in Swift, from the rows — the second road.
struct DerivedPropertyTests {
    /// Names drawn from ASCII, Latin, Greek and Cyrillic letters with case (a titlecase digraph, a dotted capital
    /// I, a combining acute), so both of the text folds' roads run. No capital sigma: Foundation folds it by its
    /// place in a word, the store by itself (MODELS.md says so).
    private static let alphabet = Array("aZ eÉéÄßǅǈİıŁłЖжĳΔδÿŸñ-") + ["e\u{301}"]

    @Test(arguments: 1...6 as ClosedRange<UInt64>)
    func everyDerivedColumnEqualsItsComputation(seed: UInt64) throws {
        let folder = try TemporaryFolder()
        let bundle = try ModelBundle(contentsOf: try DerivedModel.bundle(in: folder))
        let path = folder.file("library.sqlite")
        _ = try Store.create(at: path, bundle: bundle)
        let app = try SQLiteConnection(path: path, mode: .readWrite)
        var random = SplitMix64(seed: seed)
        var writer = AppWriter(app: app)
        for step in 1...140 {
            let statement = writer.randomStatement(&random)
            try app.execute(statement)
            let differences = Expected().differences(from: try Stored(app: app))
            #expect(differences.isEmpty, "seed \(seed), step \(step), after \(statement): \(differences.prefix(3))")
            if !differences.isEmpty { return }
        }
    }

    /// The app's writes: inserts with and without links (some to objects that do not exist), updates of every
    /// column a derivation reads, kind changes, link inserts and deletes, row deletes.
    private struct AppWriter {
        let app: SQLiteConnection
        private var nextKey: Int64 = 1

        init(app: SQLiteConnection) { self.app = app }

        private func keys(_ table: String) -> [Int64] {
            ((try? app.rows("SELECT _pk FROM \(quoteIdentifier(table)) ORDER BY _pk")) ?? []).compactMap {
                $0[0].integerValue
            }
        }

        private func pick(_ table: String, _ random: inout SplitMix64, dangling: Bool = true) -> String {
            let keys = keys(table)
            let roll = random.next() % 10
            if roll == 0 { return "NULL" }
            if roll == 1 && dangling { return "999" }
            guard !keys.isEmpty else { return "NULL" }
            return String(keys[Int(random.next() % UInt64(keys.count))])
        }

        private func name(_ random: inout SplitMix64) -> String {
            if random.next() % 8 == 0 { return "NULL" }
            let length = Int(random.next() % 7)
            let text = (0..<length).map { _ in
                DerivedPropertyTests.alphabet[Int(random.next() % UInt64(DerivedPropertyTests.alphabet.count))]
            }
            return quoteLiteral(String(text))
        }

        private func number(_ random: inout SplitMix64, _ range: Int64) -> String {
            random.next() % 6 == 0 ? "NULL" : String(Int64(random.next() % UInt64(range)) - range / 4)
        }

        private func date(_ random: inout SplitMix64) -> String {
            random.next() % 5 == 0 ? "NULL" : String(Double(Int64(random.next() % 6_000_000_000) - 4_000_000_000) / 8)
        }

        mutating func randomStatement(_ random: inout SplitMix64) -> String {
            let key = nextKey
            switch random.next() % 17 {
            case 0, 1:
                nextKey += 1
                let kind = random.next() % 2 == 0 ? "Person" : "Writer"
                return
                    "INSERT INTO Person (_pk, _entity, name, awards) VALUES (\(key), '\(kind)', \(name(&random)), \(number(&random, 40)))"
            case 2, 3, 4:
                nextKey += 1
                return
                    "INSERT INTO Book (_pk, _entity, title, pages, published, author, shelf) VALUES (\(key), 'Book', \(name(&random)), \(number(&random, 800)), \(date(&random)), \(pick("Person", &random)), \(pick("Shelf", &random)))"
            case 5:
                nextKey += 1
                return "INSERT INTO Tag (_pk, _entity, label) VALUES (\(key), 'Tag', \(name(&random)))"
            case 6:
                nextKey += 1
                return random.next() % 2 == 0
                    ? "INSERT INTO Shelf (_pk, _entity, number, room) VALUES (\(key), 'Shelf', 1, \(pick("Room", &random)))"
                    : "INSERT INTO Room (_pk, _entity, label) VALUES (\(key), 'Room', \(name(&random)))"
            case 7: return "UPDATE Person SET name = \(name(&random)) WHERE _pk = \(pick("Person", &random))"
            case 8: return "UPDATE Book SET author = \(pick("Person", &random)) WHERE _pk = \(pick("Book", &random))"
            case 9:
                return
                    "UPDATE Book SET pages = \(number(&random, 800)), published = \(date(&random)) WHERE _pk = \(pick("Book", &random))"
            case 10: return "UPDATE Book SET shelf = \(pick("Shelf", &random)) WHERE _pk = \(pick("Book", &random))"
            case 11:
                return random.next() % 2 == 0
                    ? "UPDATE Shelf SET room = \(pick("Room", &random)) WHERE _pk = \(pick("Shelf", &random))"
                    : "UPDATE Room SET label = \(name(&random)) WHERE _pk = \(pick("Room", &random))"
            case 12:
                let kind = random.next() % 2 == 0 ? "Person" : "Writer"
                return
                    "UPDATE Person SET _entity = '\(kind)', awards = \(number(&random, 40)) WHERE _pk = \(pick("Person", &random, dangling: false))"
            case 13, 14:
                return
                    "INSERT OR IGNORE INTO _Book_tags (source, destination) VALUES (\(pick("Book", &random, dangling: false)), \(pick("Tag", &random)))"
            case 15:
                let links = (try? app.rows("SELECT source, destination FROM _Book_tags ORDER BY 1, 2")) ?? []
                guard !links.isEmpty else { return "DELETE FROM _Book_tags WHERE 0" }
                let link = links[Int(random.next() % UInt64(links.count))]
                return "DELETE FROM _Book_tags WHERE source = \(link[0]) AND destination = \(link[1])"
            default:
                let table = ["Person", "Book", "Tag", "Shelf", "Room"][Int(random.next() % 5)]
                return "DELETE FROM \(table) WHERE _pk = \(pick(table, &random, dangling: false))"
            }
        }
    }

    /// Every row's columns, by table and `_pk`.
    private struct Stored {
        var tables: [String: [Int64: [String: SQLiteValue]]] = [:]
        var links: [(book: Int64, tag: Int64)] = []

        init(app: SQLiteConnection) throws {
            for table in ["Person", "Book", "Tag", "Shelf", "Room"] {
                let columns = try app.rows("SELECT name FROM pragma_table_xinfo(?)", [.text(table)]).compactMap {
                    row -> String? in if case .text(let name) = row[0] { name } else { nil }
                }
                var rows: [Int64: [String: SQLiteValue]] = [:]
                for row in try app.rows(
                    "SELECT \(columns.map(quoteIdentifier).joined(separator: ", ")) FROM \(quoteIdentifier(table))")
                {
                    let values = Dictionary(uniqueKeysWithValues: zip(columns, row))
                    if let key = values["_pk"]?.integerValue { rows[key] = values }
                }
                tables[table] = rows
            }
            links = try app.rows("SELECT source, destination FROM _Book_tags").compactMap { row in
                guard let book = row[0].integerValue, let tag = row[1].integerValue else { return nil }
                return (book, tag)
            }
        }
    }

    /// What each derived column holds, computed from the rows' other columns.
    private struct Expected {
        private static func text(_ value: SQLiteValue?) -> String? {
            if case .text(let text)? = value { return text }
            return nil
        }

        private static func fold(_ value: SQLiteValue?, _ function: Derivation.Function) -> SQLiteValue {
            guard let text = text(value) else { return .null }
            switch function {
            case .lowercase: return .text(text.lowercased())
            case .uppercase: return .text(text.uppercased())
            case .canonical:
                return .text(text.folding(options: [.caseInsensitive, .diacriticInsensitive], locale: nil))
            }
        }

        private static func same(_ found: SQLiteValue?, _ wanted: SQLiteValue) -> Bool {
            switch (found ?? .null, wanted) {
            case (.text(let a), .text(let b)): return Array(a.unicodeScalars) == Array(b.unicodeScalars)
            case (.real(let a), .real(let b)): return abs(a - b) <= 1e-9 * max(1, abs(a), abs(b))
            case (let a, let b): return a == b
            }
        }

        func differences(from stored: Stored) -> [String] {
            var result: [String] = []
            func check(_ table: String, _ key: Int64, _ column: String, _ wanted: SQLiteValue) {
                let found = stored.tables[table]?[key]?[column]
                if !Self.same(found, wanted) {
                    result.append("\(table) \(key) \(column): \(found ?? .null), computed \(wanted)")
                }
            }
            let people = stored.tables["Person"] ?? [:]
            let books = stored.tables["Book"] ?? [:]
            let tags = stored.tables["Tag"] ?? [:]
            func booksOf(_ person: Int64) -> [[String: SQLiteValue]] {
                books.values.filter { $0["author"]?.integerValue == person }
            }
            func linked(tag: Int64) -> [[String: SQLiteValue]] {
                stored.links.filter { $0.tag == tag }.compactMap { books[$0.book] }
            }
            for (key, person) in people {
                let name = person["name"] ?? .null
                check("Person", key, "shown", name)
                check("Person", key, "nameKey", Self.fold(name, .canonical))
                check("Person", key, "loud", Self.fold(name, .uppercase))
                check("Person", key, "quiet", Self.fold(name, .lowercase))
                let written = booksOf(key)
                let pages = written.compactMap { $0["pages"]?.integerValue }
                let dates = written.compactMap { book -> Double? in
                    if case .real(let time)? = book["published"] { time } else { nil }
                }
                check("Person", key, "bookCount", .integer(Int64(written.count)))
                check("Person", key, "pageTotal", .integer(pages.reduce(0, +)))
                check(
                    "Person", key, "pageMean",
                    pages.isEmpty ? .null : .real(Double(pages.reduce(0, +)) / Double(pages.count)))
                check("Person", key, "firstPublished", dates.min().map(SQLiteValue.real) ?? .null)
                let isWriter = person["_entity"] == .text("Writer")
                check("Person", key, "awardsShown", isWriter ? person["awards"] ?? .null : .null)
            }
            for (key, book) in books {
                let author = book["author"]?.integerValue
                let authorName = author.flatMap { people[$0]?["name"] } ?? .null
                check("Book", key, "authorName", authorName)
                check("Book", key, "authorKey", Self.fold(authorName, .canonical))
                check("Book", key, "authorBooks", author.map { .integer(Int64(booksOf($0).count)) } ?? .null)
                let room = book["shelf"]?.integerValue.flatMap { stored.tables["Shelf"]?[$0]?["room"]?.integerValue }
                check("Book", key, "roomLabel", room.flatMap { stored.tables["Room"]?[$0]?["label"] } ?? .null)
                let tagCount = stored.links.filter { $0.book == key && tags[$0.tag] != nil }.count
                check("Book", key, "tagCount", .integer(Int64(tagCount)))
            }
            for key in tags.keys {
                let linkedBooks = linked(tag: key)
                check("Tag", key, "bookCount", .integer(Int64(linkedBooks.count)))
                check(
                    "Tag", key, "longest",
                    linkedBooks.compactMap { $0["pages"]?.integerValue }.max().map(SQLiteValue.integer) ?? .null)
            }
            return result.sorted()
        }
    }
}
