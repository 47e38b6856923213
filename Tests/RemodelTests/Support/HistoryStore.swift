import Foundation

@testable import Remodel

/// A generated history written to disk (bundle and mapping files), a store of its first version with
/// generated objects and what an app adds to a store — a column that travels with its objects, a table
/// whose foreign key names them, a column declared `REFERENCES`, an index, a view, a trigger, an FTS5
/// index over a model table — and the two roads to migrate it: composed and step by step.
final class HistoryStore {
    let folder: TemporaryFolder
    let bundle: ModelBundle
    let history: HistoryGenerator.History
    /// The SQL that added the app's objects, for a failure's message.
    let appSQL: [String]
    private let template: String

    var mappings: String { folder.file("Mappings") }

    /// Plans made once for both roads: they differ only in how the steps are grouped into passes.
    private let plans: MigrationPlanCache

    /// Memory-backed where the system has it (`/dev/shm`): the property is about what the passes write, and
    /// a file system that syncs would spend most of a seed's time on the many small stores' flushes.
    private static let base =
        FileManager.default.isWritableFile(atPath: "/dev/shm") ? "/dev/shm" : NSTemporaryDirectory()

    /// `searchIndex`: the app's objects are a full-text index with external content over a string attribute alone
    /// (``searchIndex(_:layout:random:template:bundle:mappings:)``), for ``AppSearchIndexPropertyTests``; otherwise those of
    /// ``appObjects(_:layout:random:)``.
    init(_ history: HistoryGenerator.History, random: inout SplitMix64, searchIndex: Bool = false) throws {
        folder = try TemporaryFolder(in: Self.base)
        self.history = history
        let path = try BundleWriting.write(
            history.name, in: folder.path, versions: history.versions.map { ($0.name, $0.model.xml) })
        try FileManager.default.createDirectory(atPath: folder.file("Mappings"), withIntermediateDirectories: true)
        for (name, xml) in history.mappings { _ = try folder.write(xml, to: "Mappings/" + name) }
        // The versions as the generator read them (each once), at the files just written (a store carries its
        // version's file).
        bundle = ModelBundle(
            name: history.name, path: path,
            versions: history.parsed.map { version in
                var version = version
                version.path = "\(path)/\(version.name).xcdatamodel/contents"
                return version
            })
        plans = MigrationPlanCache(
            bundle: bundle, options: MigrationOptions(mappingsDirectory: folder.file("Mappings")))
        template = folder.file("template.sqlite")
        let first = try bundle.loadVersion(named: bundle.versionNames[0])
        _ = try Store.create(at: template, bundle: bundle, version: first.name)
        let connection = try SQLiteConnection(path: template, mode: .readWrite)
        try GeneratedStoreData.fill(connection, version: first, objectsPerEntity: 3)
        if searchIndex {
            appSQL = try Self.searchIndex(
                history, layout: StoreLayout(version: first), random: &random, template: template, bundle: bundle,
                mappings: folder.file("Mappings"))
        } else {
            appSQL = Self.appObjects(history, layout: StoreLayout(version: first), random: &random)
        }
        for statement in appSQL { try connection.execute(statement) }
    }

    /// Copies the bundle, the mapping files and the first version's store to `path` (for a failing seed,
    /// `REMODEL_HISTORY_KEEP`), to look at with `remodel`.
    func keep(at path: String) throws {
        try? FileManager.default.removeItem(atPath: path)
        try FileManager.default.createDirectory(atPath: path, withIntermediateDirectories: true)
        for name in ["\(history.name).xcdatamodeld", "Mappings", "template.sqlite"] {
            try FileManager.default.copyItem(atPath: folder.file(name), toPath: path + "/" + name)
        }
    }

    /// Runs `statements` on the first version's store, which both roads copy (the write paths' test puts edge
    /// values there).
    func changeFirstStore(_ statements: [String]) throws {
        let connection = try SQLiteConnection(path: template, mode: .readWrite)
        for statement in statements { try connection.execute(statement) }
    }

    /// The first version's store, which both roads copy.
    var firstStore: String { template }

    /// What one road gives: the store's dump after migrating, or the refusal's message.
    enum Outcome: Equatable {
        case migrated(String)
        case refused(String)
    }

    /// Migrates a copy of the store to the last version, composed (one pass) or step by step.
    func migrate(composed: Bool) async throws -> Outcome {
        let road = folder.file(composed ? "composed" : "stepwise")
        try FileManager.default.createDirectory(atPath: road, withIntermediateDirectories: true)
        let store = road + "/store.sqlite"
        try FileManager.default.copyItem(atPath: template, toPath: store)
        var options = MigrationOptions(mappingsDirectory: mappings, batchSize: 2)
        options.composesSteps = composed
        var migrator = Migrator(bundle: bundle, options: options)
        migrator.plans = plans
        let report: MigrationReport
        do {
            report = try await migrator.migrate(storeAt: store)
        } catch {
            return .refused(error.message.replacingOccurrences(of: road, with: "<store folder>"))
        }
        // The ledger of what the steps lost (dropped, or turned into nil) is part of what both roads must agree on.
        let losses = report.losses.map { "lost: \($0)" }
        return .migrated(([try Self.dump(store, bundle: bundle)] + losses).joined(separator: "\n"))
    }

    // MARK: - What an app adds

    /// The app's objects on the first version's store: on an entity (most often one every version keeps) and
    /// one of its attributes.
    static func appObjects(
        _ history: HistoryGenerator.History, layout: StoreLayout, random: inout SplitMix64
    ) -> [String] {
        let first = history.versions[0].model
        let concrete = first.entities.filter { !$0.isAbstract }
        guard !concrete.isEmpty else { return [] }
        let entity =
            history.kept.flatMap { kept in concrete.first { $0.id == kept.entity } }
            ?? concrete[Int.random(in: 0..<concrete.count, using: &random)]
        guard let table = layout.table(forEntity: entity.name)?.name else { return [] }
        let t = quoteIdentifier(table)
        var sql = [
            "ALTER TABLE \(t) ADD COLUMN app_tag TEXT",
            "UPDATE \(t) SET app_tag = 'object ' || \(StoreColumn.pk)",
            "CREATE TABLE app_ref (id INTEGER PRIMARY KEY, target INTEGER REFERENCES \(t) (\(StoreColumn.pk)), tag TEXT)",
            "INSERT INTO app_ref (target, tag) SELECT \(StoreColumn.pk), app_tag FROM \(t)",
        ]
        let keptAttribute = history.kept?.attribute.flatMap { id in entity.attributes.first { $0.id == id } }
        if let attribute = keptAttribute
            ?? (entity.attributes.isEmpty
                ? nil : entity.attributes[Int.random(in: 0..<entity.attributes.count, using: &random)]),
            let column = layout.columnName(of: attribute.name, in: entity.name).map(quoteIdentifier)
        {
            if Int.random(in: 0..<100, using: &random) < 50 {
                sql.append("CREATE INDEX app_index ON \(t) (\(column))")
            }
            if Int.random(in: 0..<100, using: &random) < 50 {
                sql.append("CREATE VIEW app_view AS SELECT \(StoreColumn.pk), \(column) FROM \(t)")
            }
            if Int.random(in: 0..<100, using: &random) < 40 {
                sql += [
                    "CREATE TABLE app_log (id INTEGER PRIMARY KEY, what TEXT)",
                    "CREATE TRIGGER app_trigger AFTER UPDATE OF \(column) ON \(t) BEGIN INSERT INTO app_log (what) VALUES (NEW.\(StoreColumn.pk)); END",
                ]
            }
            if attribute.type == .string, Int.random(in: 0..<100, using: &random) < 40 {
                sql += [
                    "CREATE VIRTUAL TABLE app_search USING fts5(\(column), content=\(quoteLiteral(table)), content_rowid='\(StoreColumn.pk)')",
                    "INSERT INTO app_search (app_search) VALUES ('rebuild')",
                ]
            }
        }
        let others = layout.tables.filter { $0.name != table }
        if !others.isEmpty, Int.random(in: 0..<100, using: &random) < 40 {
            let other = quoteIdentifier(others[Int.random(in: 0..<others.count, using: &random)].name)
            sql += [
                "ALTER TABLE \(other) ADD COLUMN app_link INTEGER REFERENCES \(t) (\(StoreColumn.pk))",
                "ALTER TABLE \(other) ADD COLUMN app_link_tag TEXT",
                "UPDATE \(other) SET app_link = (SELECT \(StoreColumn.pk) FROM \(t) ORDER BY \(StoreColumn.pk) DESC LIMIT 1)",
                "UPDATE \(other) SET app_link_tag = (SELECT app_tag FROM \(t) WHERE \(StoreColumn.pk) = \(other).app_link)",
            ]
        }
        return sql
    }

    /// The app's objects of a store for ``AppSearchIndexPropertyTests``: an FTS4 or FTS5 index with external content
    /// over a string attribute, kept by the usual triggers half the time. Over the first entity whose table a step
    /// rewrites, where one does (each candidate is tried on a copy of `template` and planned): the property is about
    /// those; else over the entity every version keeps, or the first.
    static func searchIndex(
        _ history: HistoryGenerator.History, layout: StoreLayout, random: inout SplitMix64, template: String,
        bundle: ModelBundle, mappings: String
    ) throws -> [String] {
        let model = history.versions[0].model
        let kept = history.kept.flatMap { kept in model.entities.filter { $0.id == kept.entity } } ?? []
        var candidates: [[String]] = []
        for entity in (kept + model.entities) where !entity.isAbstract {
            guard let table = layout.table(forEntity: entity.name)?.name,
                let attribute = entity.attributes.first(where: { $0.type == .string }),
                let column = layout.columnName(of: attribute.name, in: entity.name),
                !candidates.contains(where: { $0[0].contains("content=\(quoteLiteral(table))") })
            else { continue }
            candidates.append(searchIndex(over: table, column: column, random: &random))
        }
        let trial = template + "-trial"
        defer { try? FileManager.default.removeItem(atPath: trial) }
        for candidate in candidates {
            try? FileManager.default.removeItem(atPath: trial)
            try FileManager.default.copyItem(atPath: template, toPath: trial)
            let connection = try SQLiteConnection(path: trial, mode: .readWrite)
            for statement in candidate { try connection.execute(statement) }
            let plan = try? Migrator(bundle: bundle, options: MigrationOptions(mappingsDirectory: mappings)).plan(
                storeAt: trial)
            if plan?.description.contains("Rebuilds the app's full-text index") == true { return candidate }
        }
        return candidates.first ?? []
    }

    private static func searchIndex(over table: String, column: String, random: inout SplitMix64) -> [String] {
        let (t, c) = (quoteIdentifier(table), quoteIdentifier(column))
        let fts5 = Int.random(in: 0..<2, using: &random) == 0
        var sql = [
            fts5
                ? "CREATE VIRTUAL TABLE app_words USING fts5(\(c), content=\(quoteLiteral(table)), content_rowid='\(StoreColumn.pk)')"
                : "CREATE VIRTUAL TABLE app_words USING fts4(content=\(quoteLiteral(table)), \(c))",
            "INSERT INTO app_words (app_words) VALUES ('rebuild')",
        ]
        if Int.random(in: 0..<2, using: &random) == 0 {
            let delete =
                fts5
                ? "AFTER DELETE ON \(t) BEGIN INSERT INTO app_words (app_words, rowid, \(c)) VALUES ('delete', old.\(StoreColumn.pk), old.\(c)); END"
                : "BEFORE DELETE ON \(t) BEGIN DELETE FROM app_words WHERE docid = old.\(StoreColumn.pk); END"
            sql += [
                "CREATE TRIGGER app_words_ai AFTER INSERT ON \(t) BEGIN INSERT INTO app_words (rowid, \(c)) VALUES (new.\(StoreColumn.pk), new.\(c)); END",
                "CREATE TRIGGER app_words_ad \(delete)",
            ]
        }
        return sql
    }

    /// What an app full-text index with external content says that its content does not: for every word of its
    /// content (read with a `LIKE` scan for each word, then split as the default tokenizer splits ASCII text), the
    /// rows `MATCH` finds must be exactly those whose content holds the word, and SQLite's `integrity-check` of the
    /// index must pass. Empty when every index is true (or the store has none).
    static func untrueSearchIndexes(_ path: String) throws -> [String] {
        let connection = try SQLiteConnection(path: path, mode: .readWrite)
        var found: [String] = []
        let tables = try connection.rows(
            "SELECT name, sql FROM sqlite_master WHERE type = 'table' AND sql LIKE 'CREATE VIRTUAL TABLE%'")
        for row in tables {
            guard case .text(let index) = row[0], case .text(let sql) = row[1],
                let options = SQLVirtualTableOptions(sql), options.isFullTextIndex,
                let content = options.value(of: "content"), !content.isEmpty
            else { continue }
            let (i, t) = (quoteIdentifier(index), quoteIdentifier(content))
            let key = quoteIdentifier(options.value(of: "content_rowid") ?? "rowid")
            do {
                try connection.execute("INSERT INTO \(i) (\(i)) VALUES ('integrity-check')")
            } catch {
                found.append("\(index): integrity-check: \(error.message)")
            }
            for column in try connection.rows("SELECT name FROM pragma_table_info(?)", [.text(index)]) {
                guard case .text(let name) = column[0] else { continue }
                let c = quoteIdentifier(name)
                var words: Set<String> = []
                for value in try connection.rows("SELECT \(c) FROM \(t) WHERE \(c) IS NOT NULL") {
                    if case .text(let text) = value[0] { words.formUnion(Self.words(text)) }
                }
                for word in words.sorted() {
                    let held = try connection.rows(
                        "SELECT \(key), \(c) FROM \(t) WHERE \(c) LIKE ? ORDER BY \(key)", [.text("%\(word)%")]
                    ).filter { row in
                        if case .text(let text) = row[1] { return Self.words(text).contains(word) }
                        return false
                    }.map { $0[0] }
                    let matched = try connection.rows(
                        "SELECT rowid FROM \(i) WHERE \(c) MATCH ? ORDER BY rowid", [.text("\"\(word)\"")]
                    ).map { $0[0] }
                    if matched != held {
                        found.append(
                            "\(index): '\(word)' in \(content).\(name) finds \(matched), the table holds it in \(held)")
                    }
                }
            }
        }
        return found
    }

    /// The words of a text as SQLite's default tokenizers read ASCII text: runs of letters and digits, lowercased.
    private static func words(_ text: String) -> Set<String> {
        Set(
            text.lowercased().split { !($0.isASCII && ($0.isLetter || $0.isNumber)) }.map(String.init))
    }

    /// References the app declared that name another object than they named before the migration: each
    /// `app_ref` row and `app_link` value must still reach the object whose `app_tag` it recorded.
    static func misdirectedReferences(_ path: String) throws -> [String] {
        let connection = try SQLiteConnection(path: path, mode: .readOnly)
        var found: [String] = []
        let keys = try connection.rows(
            """
            SELECT m.name, p."table", p."from" FROM sqlite_master AS m JOIN pragma_foreign_key_list(m.name) AS p
            WHERE m.type = 'table' ORDER BY m.name
            """)
        for key in keys {
            guard case .text(let child) = key[0], case .text(let parent) = key[1], case .text(let column) = key[2]
            else { continue }
            let tag = column == "target" ? "tag" : "app_link_tag"
            let (c, p) = (quoteIdentifier(child), quoteIdentifier(parent))
            let wrong = try connection.rows(
                "SELECT c.\(quoteIdentifier(column)), c.\(tag), p.app_tag FROM \(c) AS c LEFT JOIN \(p) AS p ON p.\(StoreColumn.pk) = c.\(quoteIdentifier(column)) WHERE c.\(quoteIdentifier(column)) IS NOT NULL AND p.app_tag IS NOT c.\(tag)"
            )
            for row in wrong {
                found.append("\(child).\(column) = \(row[0]) recorded \(row[1]) and reaches \(row[2]) in \(parent)")
            }
        }
        return found
    }

    // MARK: - Comparing two stores

    /// Everything a store holds, as text: its schema, every table's rows (sorted), its metadata but the
    /// history's dates, and `remodel export`'s JSON.
    static func dump(_ path: String, bundle: ModelBundle) throws -> String {
        let connection = try SQLiteConnection(path: path, mode: .readOnly)
        var lines: [String] = []
        let objects = try connection.rows(
            "SELECT type, name, tbl_name, sql FROM sqlite_master ORDER BY type, name")
        for object in objects { lines.append(object.map(describe).joined(separator: " | ")) }
        for object in objects {
            guard case .text("table") = object[0], case .text(let name) = object[1], !name.hasPrefix("sqlite_")
            else { continue }
            if name == StoreMetadata.tableName {
                let rows = try connection.rows(
                    "SELECT key, value FROM \(quoteIdentifier(name)) WHERE key <> 'history' ORDER BY key")
                lines += rows.map { $0.map(describe).joined(separator: " | ") }
                continue
            }
            lines.append("rows of \(name):")
            let rows = try connection.rows("SELECT * FROM \(quoteIdentifier(name))").map {
                $0.map(describe).joined(separator: " | ")
            }
            lines += rows.sorted()
        }
        if case .success(let metadata) = try StoreMetadata.read(from: connection) {
            lines += metadata.history.map { "history: \($0.from ?? "-") → \($0.to) \($0.mapping)" }
        }
        let export = path + ".json"
        defer { try? FileManager.default.removeItem(atPath: export) }
        try Store.open(at: path, bundle: bundle).exportJSON(to: export)
        lines.append(try String(contentsOfFile: export, encoding: .utf8))
        return lines.joined(separator: "\n")
    }

    private static func describe(_ value: SQLiteValue) -> String {
        switch value {
        case .null: return "NULL"
        case .integer(let number): return String(number)
        case .real(let number): return "\(number)r"
        case .text(let text): return "'\(text)'"
        case .blob(let data): return "x'\(data.map { String(format: "%02x", $0) }.joined())'"
        }
    }
}
