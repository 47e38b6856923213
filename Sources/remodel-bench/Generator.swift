import Foundation
import Remodel

/// Builds a store of BenchLibrary's first version (or of a model whose first version is the same, like
/// BenchAddAttribute) of a given size: created with `Store.create` so its tables and metadata are exactly
/// the library's, then filled with SQL in one transaction, indexes dropped during the load and built again
/// after it.
enum Generator {
    static func generate(at path: String, objects: Int, bundle: ModelBundle, version: String) throws {
        _ = try Store.create(at: path, bundle: bundle, version: version)
        let counts = BenchModel.Counts(objects: objects)
        let (connection, indexes) = try openForLoading(path)
        // Every person has both names, two thirds an e-mail; every second book has an author;
        // every book has two distinct tags (7i+3 ≢ i modulo an even tag count).
        try connection.run(
            """
            INSERT INTO "Person" ("_pk", "_entity", "firstName", "lastName", "yearsSinceBirth", "email", "score")
            WITH RECURSIVE n(i) AS (SELECT 1 UNION ALL SELECT i + 1 FROM n WHERE i < ?)
            SELECT i, 'Person', 'First' || i, 'Last' || (i % 1000), i % 100,
                   CASE WHEN i % 3 = 0 THEN NULL ELSE 'person' || i || '@example.com' END, (i * 7919) % 100000 FROM n
            """, [.integer(Int64(counts.people))])
        try connection.run(
            """
            INSERT INTO "Tag" ("_pk", "_entity", "name")
            WITH RECURSIVE n(i) AS (SELECT 1 UNION ALL SELECT i + 1 FROM n WHERE i < ?)
            SELECT i, 'Tag', 'tag-' || i FROM n
            """, [.integer(Int64(counts.tags))])
        try connection.run(
            """
            INSERT INTO "Book" ("_pk", "_entity", "title", "pageCount", "author")
            WITH RECURSIVE n(i) AS (SELECT 1 UNION ALL SELECT i + 1 FROM n WHERE i < ?)
            SELECT i, 'Book', 'Book number ' || i, 10 + i % 900, CASE WHEN i % 2 = 0 THEN 1 + (i * 31) % ? ELSE NULL END FROM n
            """, [.integer(Int64(counts.books)), .integer(Int64(counts.people))])
        try connection.run(
            """
            INSERT OR IGNORE INTO "_Book_tags" ("source", "destination")
            WITH RECURSIVE n(i) AS (SELECT 1 UNION ALL SELECT i + 1 FROM n WHERE i < ?)
            SELECT i, 1 + i % ?1b FROM n UNION ALL SELECT i, 1 + (7 * i + 3) % ?1b FROM n
            """.replacingOccurrences(of: "?1b", with: "\(counts.tags)"), [.integer(Int64(counts.books))])
        try finishLoading(connection, indexes: indexes)
    }

    /// Opens a new store for a fast load: no journal, no syncing, a large cache, a transaction begun and
    /// the indexes dropped. Returns the indexes' SQL for ``finishLoading(_:indexes:)``.
    static func openForLoading(_ path: String) throws -> (SQLiteConnection, [String]) {
        let connection = try SQLiteConnection(path: path, mode: .readWrite)
        try connection.execute("PRAGMA journal_mode = OFF; PRAGMA synchronous = OFF; PRAGMA cache_size = -65536")
        let indexes = try connection.rows(
            "SELECT name, sql FROM sqlite_master WHERE type = 'index' AND sql IS NOT NULL")
        try connection.execute("BEGIN")
        for index in indexes { try connection.execute("DROP INDEX \(quoteIdentifier(textOf(index[0])))") }
        return (connection, indexes.map { textOf($0[1]) })
    }

    /// Builds the indexes again and commits.
    static func finishLoading(_ connection: SQLiteConnection, indexes: [String]) throws {
        for index in indexes { try connection.execute(index) }
        try connection.execute("COMMIT")
        try connection.execute("PRAGMA journal_mode = DELETE")
    }

    static func textOf(_ value: SQLiteValue) -> String {
        if case .text(let text) = value { return text }
        return ""
    }
}
