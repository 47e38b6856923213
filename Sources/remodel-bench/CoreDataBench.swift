import Foundation
import Remodel
import RemodelCoreData

/// `coreData`: a store in Core Data's layout of BenchLibrary's first version (people, books with an
/// author and two tags each, tags), imported with `Store.importCoreData`, against the floor of such an
/// import: the same data copied into the same layout by hand-written SQL (a byte copy is no floor for a
/// transformation).
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

    /// The floor: the same data imported into the same layout by hand-written SQL, as a person who knows
    /// both layouts would write it: the source attached, one `INSERT … SELECT` per table, the join table
    /// in its key order, the layout's indexes built after the rows, the metadata, then fsync and rename.
    /// No check of any value, key or link: what the import does beyond this is its own cost.
    static func floor(_ source: String, result: inout ScenarioResult) throws {
        let target = source + ".floor"
        let temporary = source + ".floor-building"
        for path in [target, temporary] { try? FileManager.default.removeItem(atPath: path) }
        defer { try? FileManager.default.removeItem(atPath: target) }
        let start = Measure.now()
        let connection = try SQLiteConnection(path: temporary, mode: .create)
        try connection.execute("PRAGMA journal_mode = OFF; PRAGMA synchronous = OFF")
        try connection.run("ATTACH DATABASE ? AS source", [.text("file:\(source)?mode=ro&immutable=1")])
        try connection.execute(
            """
            BEGIN;
            CREATE TABLE "Book" ("_pk" INTEGER PRIMARY KEY, "_entity" TEXT NOT NULL, "title" TEXT, "pageCount" INTEGER, "author" INTEGER);
            CREATE TABLE "Person" ("_pk" INTEGER PRIMARY KEY, "_entity" TEXT NOT NULL, "firstName" TEXT, "lastName" TEXT, "yearsSinceBirth" INTEGER, "email" TEXT, "score" INTEGER);
            CREATE TABLE "Tag" ("_pk" INTEGER PRIMARY KEY, "_entity" TEXT NOT NULL, "name" TEXT);
            CREATE TABLE "_Book_tags" ("source" INTEGER NOT NULL, "destination" INTEGER NOT NULL, "source_order" INTEGER, "destination_order" INTEGER, PRIMARY KEY ("source", "destination"));
            CREATE TABLE "_RemodelMetadata" (key TEXT PRIMARY KEY, value TEXT);
            INSERT INTO "Book" SELECT Z_PK, 'Book', ZTITLE, ZPAGECOUNT, ZAUTHOR FROM source.ZBOOK ORDER BY Z_PK;
            INSERT INTO "Person" SELECT Z_PK, 'Person', ZFIRSTNAME, ZLASTNAME, ZYEARSSINCEBIRTH, ZEMAIL, ZSCORE FROM source.ZPERSON ORDER BY Z_PK;
            INSERT INTO "Tag" SELECT Z_PK, 'Tag', ZNAME FROM source.ZTAG ORDER BY Z_PK;
            INSERT INTO "_Book_tags" ("source", "destination") SELECT Z_1BOOKS, Z_3TAGS FROM source.Z_1TAGS ORDER BY Z_1BOOKS, Z_3TAGS;
            CREATE INDEX "_Book_author_index" ON "Book" ("author");
            CREATE UNIQUE INDEX "_Tag_unique_1" ON "Tag" ("name");
            CREATE INDEX "__Book_tags_destination_index" ON "_Book_tags" ("destination");
            INSERT INTO "_RemodelMetadata" VALUES ('modelName', 'BenchLibrary'), ('versionName', 'BenchLibrary');
            COMMIT;
            """)
        try connection.execute("DETACH DATABASE source")
        withExtendedLifetime(connection) {}
        try HandWritten.flush(temporary)
        guard rename(temporary, target) == 0 else { throw BenchError("cannot rename \(temporary)") }
        try HandWritten.flush(URL(fileURLWithPath: target).deletingLastPathComponent().path)
        result.seconds = Measure.now() - start
    }

    /// Generates a store per size, then times the import and the floor alternately (`repeats` times each, in
    /// one run) and returns the table with the medians.
    static func run(
        sizes: [Int], repeats: Int, folder: String, child: ([String]) throws -> ScenarioResult, log: (String) -> Void
    ) throws -> String {
        var lines = [
            "",
            "Core Data import (BenchLibrary in Core Data's layout; floor: the hand-written SQL import into the same layout)",
            "| objects | store MiB | import s (runs) | floor s (runs) | ratio | import peak MiB | floor peak MiB | peak above floor MiB | import CPU s | floor CPU s |",
            "| ---: | ---: | --- | --- | ---: | ---: | ---: | ---: | ---: | ---: |",
        ]
        for size in sizes {
            let store = "\(folder)/CoreData-\(size).sqlite"
            _ = try child(["--scenario", "generate-core-data", "--objects", "\(size)", "--store", store])
            try HandWritten.flush(store)
            let bytes = (try? FileManager.default.attributesOfItem(atPath: store)[.size] as? Int) ?? 0
            var imports: [ScenarioResult] = []
            var floors: [ScenarioResult] = []
            for _ in 0..<max(1, repeats) {
                let arguments = ["--objects", "\(size)", "--store", store, "--no-trace"]
                imports.append(try child(["--scenario", "core-data-import"] + arguments))
                floors.append(try child(["--scenario", "core-data-floor"] + arguments))
            }
            func median(_ runs: [ScenarioResult], _ value: (ScenarioResult) -> Double) -> Double {
                let sorted = runs.map(value).sorted()
                return sorted[sorted.count / 2]
            }
            let importSeconds = median(imports, \.seconds)
            let floorSeconds = median(floors, \.seconds)
            let importPeak = median(imports) { Double($0.maxRSSKiB) / 1024 }
            let floorPeak = median(floors) { Double($0.maxRSSKiB) / 1024 }
            func runs(_ results: [ScenarioResult]) -> String {
                results.map { String(format: "%.2f", $0.seconds) }.joined(separator: ", ")
            }
            log(
                "\(size) objects: core-data-import \(String(format: "%.3f", importSeconds)) s, floor \(String(format: "%.3f", floorSeconds)) s"
            )
            lines.append(
                "| \(size) | \(String(format: "%.0f", Double(bytes) / 1_048_576)) | \(String(format: "%.3f", importSeconds)) (\(runs(imports))) | \(String(format: "%.3f", floorSeconds)) (\(runs(floors))) | \(String(format: "%.2f", importSeconds / max(floorSeconds, 0.000_001)))× | \(String(format: "%.1f", importPeak)) | \(String(format: "%.1f", floorPeak)) | \(String(format: "%.1f", importPeak - floorPeak)) | \(String(format: "%.2f", median(imports) { $0.extra["cpuSeconds"] ?? 0 })) | \(String(format: "%.2f", median(floors) { $0.extra["cpuSeconds"] ?? 0 })) |"
            )
            try? FileManager.default.removeItem(atPath: store)
        }
        return lines.joined(separator: "\n") + "\n"
    }
}
