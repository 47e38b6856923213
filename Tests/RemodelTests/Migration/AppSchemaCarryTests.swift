import Foundation
import Testing

@testable import Remodel
@testable import RemodelModel

/// What the app added to its store survives every kind of step (the issue "Migrate the store the app
/// has"): its own table with rows, index and trigger; a column it added to a model table, with its values;
/// its index, trigger and view on model tables; the file's header settings. A step that changes the
/// schema only, one that rebuilds a table, a composed run and a step-by-step run.
struct AppSchemaCarryTests {
    private static let person =
        #"<attribute name="name" attributeType="String"/><attribute name="email" optional="YES" attributeType="String"/>"#
    private static let personV2 = person + #"<attribute name="nickname" optional="YES" attributeType="String"/>"#
    private static let book =
        #"<entity name="Book"><attribute name="title" attributeType="String"/><relationship name="author" optional="YES" maxCount="1" deletionRule="Nullify" destinationEntity="Person" inverseName="books" inverseEntity="Person"/></entity>"#
    private static let note =
        #"<entity name="Note"><attribute name="text" optional="YES" attributeType="String"/></entity>"#
    private static let books =
        #"<relationship name="books" optional="YES" toMany="YES" deletionRule="Nullify" destinationEntity="Book" inverseName="author" inverseEntity="Book"/>"#

    /// App 1; App 2 adds `Person.nickname` (schema only); App 3 computes `Person.name` (Person rebuilt);
    /// App 4 drops `Person.email`. Book and Note never change.
    private func bundle(in folder: TemporaryFolder) throws -> (ModelBundle, mappings: String) {
        let versions = [
            ("App", "<entity name=\"Person\">\(Self.person)\(Self.books)</entity>" + Self.book + Self.note),
            ("App 2", "<entity name=\"Person\">\(Self.personV2)\(Self.books)</entity>" + Self.book + Self.note),
            ("App 3", "<entity name=\"Person\">\(Self.personV2)\(Self.books)</entity>" + Self.book + Self.note),
            (
                "App 4",
                "<entity name=\"Person\"><attribute name=\"name\" attributeType=\"String\"/><attribute name=\"nickname\" optional=\"YES\" attributeType=\"String\"/>\(Self.books)</entity>"
                    + Self.book + Self.note
            ),
        ]
        let path = try BundleWriting.write("App", in: folder.path, versions: versions)
        let mappings = folder.file("Mappings")
        try FileManager.default.createDirectory(atPath: mappings, withIntermediateDirectories: true)
        // App 3's version differs from App 2's only by a hash modifier; the mapping file computes the name.
        let app3 = "\(path)/App 3.xcdatamodel/contents"
        try String(contentsOfFile: app3, encoding: .utf8).replacingOccurrences(
            of: "<entity name=\"Person\">", with: "<entity name=\"Person\" versionHashModifier=\"3\">"
        )
        .write(toFile: app3, atomically: true, encoding: .utf8)
        _ = try folder.write(
            #"<mapping model="App" sourceVersion="App 2" destinationVersion="App 3"><entity source="Person" destination="Person"><attribute name="name" value="uppercase($source.name)"/></entity></mapping>"#,
            to: "Mappings/name.xml")
        return (try ModelBundle(contentsOf: path), mappings)
    }

    /// A store at App 1 with objects, and everything an app may add to it.
    private func store(_ bundle: ModelBundle, in folder: TemporaryFolder, wal: Bool = false) throws -> String {
        let seed = try folder.write(
            """
            {"Person": [{"_pk": 1, "name": "ada", "email": "a@x"}, {"_pk": 2, "name": "grace", "email": "g@x"}],
             "Book": [{"_pk": 1, "title": "Notes", "author": 1}, {"_pk": 2, "title": "Cobol", "author": 2}],
             "Note": [{"_pk": 1, "text": "n1"}, {"_pk": 2, "text": "n2"}]}
            """, to: "seed.json")
        let plain = folder.file("plain.sqlite")
        _ = try Store.create(at: plain, bundle: bundle, version: "App", seed: seed)
        // A UTF-16 store with 8 KiB pages and incremental vacuum: the model's tables and rows copied into a new file.
        let path = folder.file("app.sqlite")
        let connection = try SQLiteConnection(path: path)
        try connection.execute(
            "PRAGMA encoding = 'UTF-16le'; PRAGMA page_size = 8192; PRAGMA auto_vacuum = INCREMENTAL")
        // SQLite attaches only stores of the same text encoding: rows go through values.
        let source = try SQLiteConnection(path: plain, mode: .readOnly)
        for row in try source.rows("SELECT name, sql FROM sqlite_master WHERE type = 'table' ORDER BY rowid") {
            guard case .text(let name) = row[0], case .text(let sql) = row[1] else { continue }
            try connection.execute(sql)
            for values in try source.rows("SELECT * FROM \(quoteIdentifier(name))") {
                try connection.run(
                    "INSERT INTO \(quoteIdentifier(name)) VALUES (\(values.map { _ in "?" }.joined(separator: ", ")))",
                    values)
            }
        }
        for row in try source.rows("SELECT sql FROM sqlite_master WHERE type = 'index' AND sql IS NOT NULL") {
            if case .text(let sql) = row[0] { try connection.execute(sql) }
        }
        try connection.execute(
            """
            PRAGMA user_version = 42; PRAGMA application_id = 1380272460;
            CREATE TABLE tb_clientstage (id INTEGER PRIMARY KEY, stage TEXT NOT NULL);
            INSERT INTO tb_clientstage (stage) VALUES ('onboarded'), ('synced');
            CREATE INDEX tb_clientstage_stage ON tb_clientstage (stage);
            CREATE TABLE tb_log (event TEXT);
            CREATE TRIGGER tb_clientstage_log AFTER INSERT ON tb_clientstage BEGIN INSERT INTO tb_log VALUES ('stage ' || NEW.stage); END;
            ALTER TABLE Person ADD COLUMN app_score INTEGER DEFAULT 7 CHECK (app_score >= 0);
            UPDATE Person SET app_score = 10 * _pk;
            CREATE INDEX app_person_score ON Person (app_score);
            CREATE TRIGGER app_book_audit AFTER UPDATE OF title ON Book BEGIN INSERT INTO tb_log VALUES ('book ' || NEW.title); END;
            CREATE VIEW app_people AS SELECT name, app_score FROM Person ORDER BY _pk;
            """)
        if wal { _ = try connection.scalar("PRAGMA journal_mode = WAL") }
        return path
    }

    private func plain(_ value: SQLiteValue?) -> String {
        switch value {
        case .text(let text)?: return text
        case let other?: return "\(other)"
        case nil: return "nil"
        }
    }

    /// What the app sees of its additions, and the header settings.
    private func appState(_ path: String) throws -> [String] {
        let connection = try SQLiteConnection(path: path, mode: .readWrite)
        var state: [String] = []
        for pragma in ["user_version", "application_id", "page_size", "auto_vacuum", "encoding", "journal_mode"] {
            state.append("\(pragma)=\(plain(try connection.scalar("PRAGMA \(pragma)")))")
        }
        state += try connection.rows(
            "SELECT type || ' ' || name FROM sqlite_master WHERE name NOT LIKE 'sqlite_%' AND name NOT LIKE '\\_%' ESCAPE '\\' ORDER BY 1"
        ).map { plain($0[0]) }
        state += try connection.rows("SELECT id, stage FROM tb_clientstage ORDER BY id").map {
            "stage \(plain($0[0])) \(plain($0[1]))"
        }
        state += try connection.rows("SELECT * FROM app_people").map { "view \(plain($0[0])) \(plain($0[1]))" }
        // The triggers still fire: an insert into the app's table and a title change are logged.
        try connection.execute(
            "DELETE FROM tb_log; INSERT INTO tb_clientstage (stage) VALUES ('checked'); UPDATE Book SET title = title || '!' WHERE _pk = 1"
        )
        state += try connection.rows("SELECT event FROM tb_log ORDER BY rowid").map { "log \(plain($0[0]))" }
        try connection.execute(
            "DELETE FROM tb_log; DELETE FROM tb_clientstage WHERE stage = 'checked'; UPDATE Book SET title = rtrim(title, '!') WHERE _pk = 1"
        )
        #expect(try connection.scalar("PRAGMA integrity_check") == .text("ok"))
        return state
    }

    private static let expectedState = [
        "user_version=42", "application_id=1380272460", "page_size=8192", "auto_vacuum=2", "encoding=UTF-16le",
        "index app_person_score", "index tb_clientstage_stage", "table Book", "table Note", "table Person",
        "table tb_clientstage",
        "table tb_log", "trigger app_book_audit", "trigger tb_clientstage_log", "view app_people",
        "stage 1 onboarded", "stage 2 synced", "log stage checked", "log book Notes!",
    ]

    private func expectCarried(
        _ path: String, names: [String], journal: String = "delete",
        sourceLocation: Testing.SourceLocation = #_sourceLocation
    ) throws {
        var expected = Self.expectedState
        expected.insert("journal_mode=\(journal)", at: 5)
        let views = zip(names, [10, 20]).map { "view \($0) \($1)" }
        expected.insert(contentsOf: views, at: expected.count - 2)
        let state = try appState(path)
        #expect(state == expected, "\(state)", sourceLocation: sourceLocation)
    }

    @Test(arguments: [true, false])
    func theAppsAdditionsSurviveEveryKindOfStep(composed: Bool) async throws {
        let folder = try TemporaryFolder()
        let (bundle, mappings) = try bundle(in: folder)
        let path = try store(bundle, in: folder)
        try expectCarried(path, names: ["ada", "grace"])
        var options = MigrationOptions(mappingsDirectory: mappings, targetVersion: "App 2")
        options.composesSteps = composed
        // Schema only.
        _ = try await Migrator(bundle: bundle, options: options).migrate(storeAt: path)
        try expectCarried(path, names: ["ada", "grace"])
        // Person rebuilt.
        options.targetVersion = "App 3"
        _ = try await Migrator(bundle: bundle, options: options).migrate(storeAt: path)
        try expectCarried(path, names: ["ADA", "GRACE"])
        // Both in one run, from a fresh store.
        let again = try TemporaryFolder()
        let (sameBundle, sameMappings) = try self.bundle(in: again)
        let second = try store(sameBundle, in: again, wal: true)
        options = MigrationOptions(mappingsDirectory: sameMappings, targetVersion: "App 3")
        options.composesSteps = composed
        let report = try await Migrator(bundle: sameBundle, options: options).migrate(storeAt: second)
        #expect(report.steps == 2)
        try expectCarried(second, names: ["ADA", "GRACE"], journal: "wal")
    }

    /// The pages of every table a step does not change are the same bytes after it: the step never wrote them.
    @Test func tablesTheStepDoesNotChangeAreNotRewritten() async throws {
        let folder = try TemporaryFolder()
        let (bundle, mappings) = try bundle(in: folder)
        let path = try store(bundle, in: folder)
        let untouched = try pages(of: ["Book", "Note", "tb_clientstage"], in: path)
        #expect(untouched.count >= 3)
        _ = try await Migrator(
            bundle: bundle, options: MigrationOptions(mappingsDirectory: mappings, targetVersion: "App 2")
        ).migrate(storeAt: path)
        #expect(try pages(of: ["Book", "Note", "tb_clientstage"], in: path) == untouched)
        _ = try await Migrator(
            bundle: bundle, options: MigrationOptions(mappingsDirectory: mappings, targetVersion: "App 3")
        ).migrate(storeAt: path)
        #expect(try pages(of: ["Book", "Note", "tb_clientstage"], in: path) == untouched)
    }

    /// The bytes of every page of the tables named (as SQLite's `dbstat` lists them), by page number.
    private func pages(of tables: [String], in path: String) throws -> [Int64: Data] {
        let connection = try SQLiteConnection(path: path, mode: .readOnly)
        let size = try #require(try connection.scalar("PRAGMA page_size")?.integerValue)
        let numbers = try connection.rows(
            "SELECT pageno FROM dbstat WHERE name IN (\(tables.map(quoteLiteral).joined(separator: ", ")))"
        ).compactMap { $0[0].integerValue }
        let bytes = try Data(contentsOf: URL(fileURLWithPath: path))
        var result: [Int64: Data] = [:]
        for number in numbers { result[number] = bytes.subdata(in: Int((number - 1) * size)..<Int(number * size)) }
        return result
    }

    /// App 4 drops `Person.email`; an app trigger that reads it stops planning, naming the trigger and the step
    /// that drops the column, and the store is left as it was.
    @Test func anAppTriggerNamingADroppedColumnStopsPlanning() async throws {
        let folder = try TemporaryFolder()
        let (bundle, mappings) = try bundle(in: folder)
        let path = try store(bundle, in: folder)
        try SQLiteConnection(path: path, mode: .readWrite).execute(
            "CREATE TRIGGER app_email_lower AFTER UPDATE ON Person BEGIN UPDATE Person SET email = lower(NEW.email) WHERE _pk = NEW._pk; END"
        )
        let before = try fileBytes(path)
        let migrator = Migrator(bundle: bundle, options: MigrationOptions(mappingsDirectory: mappings))
        for attempt in 0..<2 {
            do {
                if attempt == 0 {
                    _ = try migrator.plan(storeAt: path)
                } else {
                    _ = try await migrator.migrate(storeAt: path)
                }
                Issue.record("the trigger on a dropped column was not noticed")
            } catch {
                #expect(error.code == .migrationNotPlannable)
                #expect(
                    error.message.contains(
                        "the app's trigger app_email_lower (on Person) does not fit the schema App 3 → App 4 leaves (no such column: NEW.email)"
                    ), "\(error.message)")
            }
        }
        #expect(try fileBytes(path) == before)
        #expect(try folder.contents() == ["App.xcdatamodeld", "Mappings", "app.sqlite", "plain.sqlite", "seed.json"])
    }
}
