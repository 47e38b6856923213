import Foundation
import Remodel

/// `coreData`: a store in Core Data's layout of BenchLibrary's first version (people, books with an
/// author and two tags each, tags), imported with `Store.importCoreData`, against a plain copy of the
/// same file (read, written, synced) as the limit: an import cannot beat reading and writing the bytes once.
enum CoreDataBench {
    /// Writes the Core Data store: entity numbers Book 1, Person 2, Tag 3 (alphabetical, as Core Data
    /// numbers them); the join table `Z_1TAGS (Z_1BOOKS, Z_3TAGS)`; Core Data's own indexes.
    static func generate(at path: String, objects: Int) throws {
        let counts = BenchModel.Counts(objects: objects)
        let connection = try SQLiteConnection(path: path, mode: .create)
        try connection.execute(
            """
            PRAGMA journal_mode = OFF; PRAGMA synchronous = OFF;
            CREATE TABLE Z_PRIMARYKEY (Z_ENT INTEGER PRIMARY KEY, Z_NAME VARCHAR, Z_SUPER INTEGER, Z_MAX INTEGER);
            CREATE TABLE Z_METADATA (Z_VERSION INTEGER PRIMARY KEY, Z_UUID VARCHAR(255), Z_PLIST BLOB);
            CREATE TABLE Z_MODELCACHE (Z_CONTENT BLOB);
            CREATE TABLE ZBOOK ( Z_PK INTEGER PRIMARY KEY, Z_ENT INTEGER, Z_OPT INTEGER, ZPAGECOUNT INTEGER, ZAUTHOR INTEGER, ZTITLE VARCHAR );
            CREATE TABLE ZPERSON ( Z_PK INTEGER PRIMARY KEY, Z_ENT INTEGER, Z_OPT INTEGER, ZSCORE INTEGER, ZYEARSSINCEBIRTH INTEGER,
              ZEMAIL VARCHAR, ZFIRSTNAME VARCHAR, ZLASTNAME VARCHAR );
            CREATE TABLE ZTAG ( Z_PK INTEGER PRIMARY KEY, Z_ENT INTEGER, Z_OPT INTEGER, ZNAME VARCHAR );
            CREATE TABLE Z_1TAGS ( Z_1BOOKS INTEGER, Z_3TAGS INTEGER, PRIMARY KEY (Z_1BOOKS, Z_3TAGS) );
            BEGIN
            """)
        try connection.run(
            "INSERT INTO Z_PRIMARYKEY VALUES (1, 'Book', 0, ?), (2, 'Person', 0, ?), (3, 'Tag', 0, ?)",
            [.integer(Int64(counts.books)), .integer(Int64(counts.people)), .integer(Int64(counts.tags))])
        try connection.run(
            """
            INSERT INTO ZPERSON WITH RECURSIVE n(i) AS (SELECT 1 UNION ALL SELECT i + 1 FROM n WHERE i < ?)
            SELECT i, 2, 1, (i * 7919) % 100000, i % 100, CASE WHEN i % 3 = 0 THEN NULL ELSE 'person' || i || '@example.com' END,
                   'First' || i, 'Last' || (i % 1000) FROM n
            """, [.integer(Int64(counts.people))])
        try connection.run(
            "INSERT INTO ZTAG WITH RECURSIVE n(i) AS (SELECT 1 UNION ALL SELECT i + 1 FROM n WHERE i < ?) SELECT i, 3, 1, 'tag-' || i FROM n",
            [.integer(Int64(counts.tags))])
        try connection.run(
            """
            INSERT INTO ZBOOK WITH RECURSIVE n(i) AS (SELECT 1 UNION ALL SELECT i + 1 FROM n WHERE i < ?)
            SELECT i, 1, 1, 10 + i % 900, CASE WHEN i % 2 = 0 THEN 1 + (i * 31) % ? ELSE NULL END, 'Book number ' || i FROM n
            """, [.integer(Int64(counts.books)), .integer(Int64(counts.people))])
        try connection.run(
            """
            INSERT OR IGNORE INTO Z_1TAGS WITH RECURSIVE n(i) AS (SELECT 1 UNION ALL SELECT i + 1 FROM n WHERE i < ?)
            SELECT i, 1 + i % ?1b FROM n UNION ALL SELECT i, 1 + (7 * i + 3) % ?1b FROM n
            """.replacingOccurrences(of: "?1b", with: "\(counts.tags)"), [.integer(Int64(counts.books))])
        try connection.execute(
            """
            COMMIT;
            CREATE INDEX ZBOOK_ZAUTHOR_INDEX ON ZBOOK (ZAUTHOR);
            CREATE INDEX Z_1TAGS_Z_3TAGS_INDEX ON Z_1TAGS (Z_3TAGS, Z_1BOOKS);
            CREATE UNIQUE INDEX Z_Tag_UNIQUE_name ON ZTAG (ZNAME COLLATE BINARY ASC)
            """)
    }

    /// Imports the store at `source` into a new Remodel store beside it.
    static func importStore(_ source: String, result: inout ScenarioResult) throws {
        let target = source + ".remodel"
        try? FileManager.default.removeItem(atPath: target)
        defer { try? FileManager.default.removeItem(atPath: target) }
        let bundle = try SourceModel.library.bundle()
        let start = Measure.now()
        let imported = try Store.importCoreData(from: source, bundle: bundle, into: target)
        result.seconds = Measure.now() - start
        result.extra["importedObjects"] = Double(imported.totalObjects)
        result.extra["links"] = Double(imported.linkCounts.values.reduce(0, +))
        result.note = "version \(imported.versionName)"
    }

    /// The limit: the file read and written once, then synced, as the import's target is.
    static func copy(_ source: String, result: inout ScenarioResult) throws {
        let target = source + ".copy"
        try? FileManager.default.removeItem(atPath: target)
        defer { try? FileManager.default.removeItem(atPath: target) }
        let start = Measure.now()
        let data = try Data(contentsOf: URL(fileURLWithPath: source))
        try data.write(to: URL(fileURLWithPath: target))
        try HandWritten.flush(target)
        result.seconds = Measure.now() - start
    }

    /// Generates a store per size, times the import and the copy (medians of `repeats`), and returns the table.
    static func run(
        sizes: [Int], repeats: Int, folder: String, child: ([String]) throws -> ScenarioResult, log: (String) -> Void
    ) throws -> String {
        var lines = [
            "", "Core Data import (BenchLibrary in Core Data's layout; limit: a plain copy of the file, synced)",
            "| objects | store MiB | import s | copy s | ratio | import CPU s | import peak MiB |",
            "| ---: | ---: | ---: | ---: | ---: | ---: | ---: |",
        ]
        for size in sizes {
            let store = "\(folder)/CoreData-\(size).sqlite"
            _ = try child(["--scenario", "generate-core-data", "--objects", "\(size)", "--store", store])
            try HandWritten.flush(store)
            let bytes = (try? FileManager.default.attributesOfItem(atPath: store)[.size] as? Int) ?? 0
            func median(_ scenario: String) throws -> ScenarioResult {
                var runs: [ScenarioResult] = []
                for _ in 0..<max(1, repeats) {
                    runs.append(
                        try child(["--scenario", scenario, "--objects", "\(size)", "--store", store, "--no-trace"]))
                }
                runs.sort { $0.seconds < $1.seconds }
                return runs[runs.count / 2]
            }
            let imported = try median("core-data-import")
            let copied = try median("core-data-copy")
            log(
                "\(size) objects: core-data-import \(String(format: "%.3f", imported.seconds)) s, copy \(String(format: "%.3f", copied.seconds)) s"
            )
            lines.append(
                "| \(size) | \(String(format: "%.0f", Double(bytes) / 1_048_576)) | \(String(format: "%.3f", imported.seconds)) | \(String(format: "%.3f", copied.seconds)) | \(String(format: "%.2f", imported.seconds / max(copied.seconds, 0.000_001)))× | \(String(format: "%.2f", imported.extra["cpuSeconds"] ?? 0)) | \(String(format: "%.1f", Double(imported.maxRSSKiB) / 1024)) |"
            )
            try? FileManager.default.removeItem(atPath: store)
        }
        return lines.joined(separator: "\n") + "\n"
    }
}
