import Foundation
import Remodel

/// "The limit": the same change as the library makes, written by hand for this model as one SQL
/// copy — the source attached, one `INSERT … SELECT` per table with explicit columns, no journal and
/// no syncing while building, indexes after the load — then flushed and renamed over the source
/// like the library's replace. No validation, no key table, no progress.
enum HandWritten {
    /// The tables of BenchLibrary 2 (and 4) in the library's layout, and how each is filled from version 1.
    struct Table {
        var create: String
        var copy: String
    }

    static func tables(toVersion4: Bool) -> [Table] {
        let subtitle = toVersion4 ? ", \"subtitle\" TEXT" : ""
        let subtitleValue = toVersion4 ? ", NULL" : ""
        let nickname = toVersion4 ? "" : ", \"nickname\" TEXT"
        let nicknameValue = toVersion4 ? "" : ", NULL"
        let color = toVersion4 ? ", \"color\" TEXT" : ""
        let colorValue = toVersion4 ? ", NULL" : ""
        return [
            Table(
                create:
                    "CREATE TABLE \"Book\" (\"_pk\" INTEGER PRIMARY KEY, \"_entity\" TEXT NOT NULL, \"title\" TEXT, \"pageCount\" INTEGER\(subtitle), \"author\" INTEGER)",
                copy:
                    "INSERT INTO main.\"Book\" SELECT \"_pk\", \"_entity\", \"title\", \"pageCount\"\(subtitleValue), \"author\" FROM src.\"Book\""
            ),
            Table(
                create:
                    "CREATE TABLE \"Person\" (\"_pk\" INTEGER PRIMARY KEY, \"_entity\" TEXT NOT NULL, \"fullName\" TEXT, \"age\" INTEGER\(nickname), \"status\" INTEGER, \"score\" INTEGER)",
                copy:
                    "INSERT INTO main.\"Person\" SELECT \"_pk\", \"_entity\", \"firstName\" || ' ' || \"lastName\", \"yearsSinceBirth\"\(nicknameValue), 0, \"score\" FROM src.\"Person\""
            ),
            Table(
                create:
                    "CREATE TABLE \"Tag\" (\"_pk\" INTEGER PRIMARY KEY, \"_entity\" TEXT NOT NULL, \"name\" TEXT\(color))",
                copy: "INSERT INTO main.\"Tag\" SELECT \"_pk\", \"_entity\", \"name\"\(colorValue) FROM src.\"Tag\""),
            Table(
                create:
                    "CREATE TABLE \"_Book_tags\" (\"source\" INTEGER NOT NULL, \"destination\" INTEGER NOT NULL, \"source_order\" INTEGER, \"destination_order\" INTEGER, PRIMARY KEY (\"source\", \"destination\"))",
                copy:
                    "INSERT INTO main.\"_Book_tags\" SELECT \"source\", \"destination\", NULL, NULL FROM src.\"_Book_tags\""
            ),
        ]
    }

    static let indexes = [
        "CREATE INDEX \"_Book_author_index\" ON \"Book\" (\"author\")",
        "CREATE UNIQUE INDEX \"_Tag_unique_1\" ON \"Tag\" (\"name\")",
        "CREATE INDEX \"__Book_tags_destination_index\" ON \"_Book_tags\" (\"destination\")",
    ]

    /// Migrates the store at `path` in place; `template` is an empty store of the target version
    /// (made before timing) whose metadata rows are copied.
    /// - Returns: The seconds and I/O of its parts: `sql` (the new file built) and `replace`.
    static func migrate(storeAt path: String, template: String, toVersion4: Bool) throws -> PartClock {
        var clock = PartClock()
        let temporary = path + ".handwritten"
        try? FileManager.default.removeItem(atPath: temporary)
        do {
            let connection = try SQLiteConnection(path: temporary, mode: .create)
            try connection.execute("PRAGMA journal_mode = OFF; PRAGMA synchronous = OFF; PRAGMA cache_size = -16384")
            try connection.attach(path: path, as: "src", readOnly: true)
            try connection.attach(path: template, as: "template", readOnly: true)
            try connection.execute("BEGIN")
            for table in tables(toVersion4: toVersion4) {
                try connection.execute(table.create)
                try connection.execute(table.copy)
            }
            for index in indexes { try connection.execute(index) }
            try connection.execute("CREATE TABLE \"_RemodelMetadata\" (key TEXT PRIMARY KEY, value TEXT)")
            try connection.execute("INSERT INTO main.\"_RemodelMetadata\" SELECT * FROM template.\"_RemodelMetadata\"")
            try connection.execute("COMMIT")
            try connection.detach("src")
            try connection.detach("template")
            _ = try connection.scalar("PRAGMA journal_mode = DELETE")
        }
        clock.end("sql")
        try replace(path, with: temporary)
        clock.end("replace")
        return clock
    }

    /// Like the library's replace: `temporary` flushed, renamed over `path`, the folder flushed.
    static func replace(_ path: String, with temporary: String) throws {
        try flush(temporary)
        guard rename(temporary, path) == 0 else { throw BenchError("cannot rename \(temporary) over \(path)") }
        try flush(URL(fileURLWithPath: path).deletingLastPathComponent().path)
    }

    static func flush(_ path: String) throws {
        let descriptor = open(path, O_RDONLY)
        guard descriptor >= 0 else { throw BenchError("cannot open \(path) to flush it") }
        defer { close(descriptor) }
        guard fsync(descriptor) == 0 else { throw BenchError("cannot flush \(path)") }
    }
}
