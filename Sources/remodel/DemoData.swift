import Foundation
import Remodel

/// Generates the demo's people and books with SQL, fast.
enum DemoData {
    struct Generated {
        var people: Int
        var books: Int
        var seconds: Double
    }

    /// Creates a store at `version` and fills it: `people` people and about 1.5 books each, some without an author.
    static func generate(at path: String, bundle: ModelBundle, version: String, people: Int) throws(RemodelError)
        -> Generated
    {
        let started = Date()
        _ = try Store.create(at: path, bundle: bundle, version: version)
        let connection = try SQLiteConnection(path: path, mode: .readWrite)
        let books = people * 3 / 2
        try connection.transaction { () throws(RemodelError) in
            try connection.run(
                """
                WITH RECURSIVE n(i) AS (SELECT 1 UNION ALL SELECT i + 1 FROM n WHERE i < ?),
                first(k, name) AS (VALUES (0,'Ada'),(1,'Charles'),(2,'Grace'),(3,'Alan'),(4,'Katherine'),(5,'Edsger'),(6,'Barbara'),(7,'Donald'),(8,'Frances'),(9,'Tim')),
                last(k, name) AS (VALUES (0,'Lovelace'),(1,'Babbage'),(2,'Hopper'),(3,'Turing'),(4,'Johnson'),(5,'Dijkstra'),(6,'Liskov'),(7,'Knuth'),(8,'Allen'),(9,'Berners-Lee'))
                INSERT INTO Person (\(StoreColumn.pk), \(StoreColumn.entity), firstName, lastName, yearsSinceBirth, email)
                SELECT i, 'Person', first.name, last.name, 18 + (i * 7) % 70,
                       CASE WHEN i % 3 = 0 THEN NULL ELSE lower(first.name) || '.' || i || '@example.com' END
                FROM n JOIN first ON first.k = i % 10 JOIN last ON last.k = (i / 10) % 10
                """, [.integer(Int64(people))])
            try connection.run(
                """
                WITH RECURSIVE n(i) AS (SELECT 1 UNION ALL SELECT i + 1 FROM n WHERE i < ?)
                INSERT INTO Book (\(StoreColumn.pk), \(StoreColumn.entity), title, isbn, publishedOn, price, author)
                SELECT i, 'Book', 'Volume ' || i, printf('978-%010d', i * 7919 % 10000000000),
                       -631152000.0 + (i * 86400 * 37) % 1900000000, printf('%d.%02d', 5 + i % 60, i % 100),
                       CASE WHEN i % 5 = 0 THEN NULL ELSE 1 + (i * 48271) % ? END
                FROM n
                """, [.integer(Int64(books)), .integer(Int64(people))])
        }
        return Generated(people: people, books: books, seconds: Date().timeIntervalSince(started))
    }

    /// One row of a table, as `column=value` pairs.
    static func sample(at path: String, table: String) throws -> String {
        try runReportingFailure { () throws(RemodelError) in
            let connection = try SQLiteConnection(path: path, mode: .readOnly)
            let statement = try connection.prepare(
                "SELECT * FROM \(quoteIdentifier(table)) ORDER BY \(StoreColumn.pk) LIMIT 1")
            guard try statement.step() else { return "(none)" }
            return (0..<statement.columnCount).map { "\(statement.columnName(at: $0))=\(statement.value(at: $0))" }
                .joined(separator: ", ")
        }
    }

    /// The first object lines of each entity of an export, with `…` where more follow.
    static func firstObjects(ofExport text: String, perEntity count: Int) -> [String] {
        var lines: [String] = []
        var taken = 0
        for line in text.split(separator: "\n") {
            let trimmed = line.trimmingCharacters(in: .whitespaces)
            if trimmed.hasSuffix("[") || trimmed == "[]," || trimmed.hasSuffix(": []") || trimmed.hasSuffix(": [],") {
                lines.append(trimmed)
                taken = 0
            } else if trimmed.hasPrefix("{\"\(StoreColumn.pk)\"") {
                if taken < count { lines.append("  " + trimmed) }
                if taken == count { lines.append("  …") }
                taken += 1
            }
        }
        return lines
    }
}
