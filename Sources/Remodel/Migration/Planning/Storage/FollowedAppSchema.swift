/// What the app added to the store once a step's renames are made, as SQLite makes them: a table or column
/// the step renames (a carried table, a column of one, a table rebuilt under a new name) is renamed with
/// `ALTER TABLE … RENAME`, which rewrites every index, view, trigger, foreign key and column definition of
/// the app that names it. The step does that on the store for what stands there (the app's indexes on
/// carried tables, its foreign keys); its views and triggers are set aside while the pass writes, so the
/// same renames are made here, on the source schema in an empty in-memory database, and the pass creates
/// them again from what SQLite wrote. So an app's object follows a rename — `title` to `heading` and back
/// in one pass or step by step alike — and what the step drops still refuses it (``SchemaRehearsal``).
///
/// Objects are created here without SQLite's double-quoted-string fallback: an object that needs it (a
/// view written with `"text"` for a string) is noted, and rehearsed with it; every other one is rehearsed
/// without, so that `"title"` naming a column the step renames or drops is found, not taken as a string.
struct FollowedAppSchema {
    /// The app's objects as the step leaves them.
    private(set) var app: AppSchema
    /// Objects (`type name`, as SQLite compares names) that SQLite accepts on the store's schema only by taking a
    /// double-quoted name as a string.
    private(set) var needsDoubleQuotedStrings: Set<SQLName> = []

    static func key(_ object: AppSchema.Object) -> SQLName { SQLName("\(object.type) \(object.name)") }

    /// Follows the renames of a step from `source`; where SQLite cannot make them on the app's schema (a
    /// broken object), the app's objects are kept as they are and rehearsed so.
    init(app: AppSchema, source: StoreLayout, changes: StorageChanges) {
        self.app = app
        guard !app.isEmpty, let scratch = try? SQLiteConnection(path: ":memory:") else { return }
        do {
            try createSource(source, on: scratch)
            // SQLite checks every object again after a rename: those that need the fallback need it there too.
            try scratch.setDoubleQuotedStrings(true)
            let names = try rename(changes, source: source, on: scratch)
            try readBack(names, from: scratch)
        } catch {
            self.app = app
        }
    }

    /// The source layout's tables with the app's columns, its join tables and the app's own tables, then the
    /// app's indexes, views and triggers as the store has them.
    private mutating func createSource(_ source: StoreLayout, on scratch: SQLiteConnection) throws(RemodelError) {
        for table in source.tables {
            let columns = table.columns.map(\.definitionSQL) + (app.extraColumns[table.name] ?? []).map(\.definition)
            try scratch.execute("CREATE TABLE \(quoteIdentifier(table.name)) (\(columns.joined(separator: ", ")))")
        }
        for join in source.joinTables { try scratch.execute(join.createSQL) }
        for table in app.tables where table.type == "table" {
            do {
                try scratch.execute(table.sql)
            } catch {
                // A virtual table whose module this SQLite lacks: a plain table of the same name stands in.
                try scratch.execute("CREATE TABLE \(quoteIdentifier(table.name)) (placeholder)")
            }
        }
        // The tables as the store has them; the objects on them as strictly as SQLite allows.
        // (A view's query and a trigger's body are compiled when they are used: so they are here.)
        for object in app.modelTableIndexes + app.views + app.triggers {
            do {
                try scratch.setDoubleQuotedStrings(false)
                try scratch.execute(object.sql)
                try compileUses(of: object, on: scratch)
                continue
            } catch {}
            needsDoubleQuotedStrings.insert(Self.key(object))
            try scratch.setDoubleQuotedStrings(true)
            try scratch.execute("DROP \(object.type.uppercased()) IF EXISTS \(quoteIdentifier(object.name))")
            try scratch.execute(object.sql)
        }
    }

    /// Compiles what uses a view or a trigger (never run).
    private func compileUses(of object: AppSchema.Object, on scratch: SQLiteConnection) throws(RemodelError) {
        switch object.type {
        case "view":
            _ = try scratch.prepare("SELECT * FROM \(quoteIdentifier(object.name))")
        case "trigger":
            for statement in try SchemaRehearsal.firingStatements(of: object, on: scratch) {
                _ = try scratch.prepare(statement)
            }
        default:
            break
        }
    }

    /// The step's renames, made as ``StoreRewrite`` makes them: the tables it drops set aside first (names
    /// that name them then name nothing), tables rebuilt under a new name, carried tables and join tables
    /// (through temporary names, so that two may trade names), then the carried tables' columns.
    /// - Returns: Each source table's name in the scratch database afterwards.
    private func rename(_ changes: StorageChanges, source: StoreLayout, on scratch: SQLiteConnection)
        throws(RemodelError) -> [String: String]
    {
        let carriedSources = Set(changes.carriedTables.values.map(\.source)).union(changes.carriedJoins.values)
        let renames = changes.rebuiltRenames()
        let names = source.tables.map(\.name) + source.joinTables.map(\.name)
        var now: [String: String] = [:]
        try scratch.execute("PRAGMA legacy_alter_table = ON")
        for (offset, name) in names.enumerated() where !carriedSources.contains(name) && renames[name] == nil {
            now[name] = "\(Self.gonePrefix)\(offset)"
            try scratch.execute("ALTER TABLE \(quoteIdentifier(name)) RENAME TO \(quoteIdentifier(now[name] ?? ""))")
        }
        try scratch.execute("PRAGMA legacy_alter_table = OFF")
        for (from, to) in renames.sorted(by: { $0.key < $1.key }) {
            try scratch.execute("ALTER TABLE \(quoteIdentifier(from)) RENAME TO \(quoteIdentifier(to))")
            now[from] = to
        }
        var moves = changes.carriedTables.values.filter { !SQLName.identical($0.source, $0.destination) }.map {
            ($0.source, $0.destination)
        }
        moves += changes.carriedJoins.filter { !SQLName.identical($0.key, $0.value) }.map { ($0.value, $0.key) }
        moves.sort { $0.1 < $1.1 }
        for (offset, move) in moves.enumerated() {
            try scratch.execute("ALTER TABLE \(quoteIdentifier(move.0)) RENAME TO \"_remodel_moving_\(offset)\"")
        }
        for (offset, move) in moves.enumerated() {
            try scratch.execute("ALTER TABLE \"_remodel_moving_\(offset)\" RENAME TO \(quoteIdentifier(move.1))")
        }
        for carried in changes.carriedTables.values { now[carried.source] = carried.destination }
        for (destination, from) in changes.carriedJoins { now[from] = destination }
        for carried in changes.carriedTables.values.sorted(by: { $0.destination < $1.destination }) {
            let table = quoteIdentifier(carried.destination)
            let columns = carried.renamedColumns
            for (offset, column) in columns.enumerated() {
                try scratch.execute(
                    "ALTER TABLE \(table) RENAME COLUMN \(quoteIdentifier(column.from)) TO \"_remodel_moving_\(offset)\""
                )
            }
            for (offset, column) in columns.enumerated() {
                try scratch.execute(
                    "ALTER TABLE \(table) RENAME COLUMN \"_remodel_moving_\(offset)\" TO \(quoteIdentifier(column.to))")
            }
        }
        return now
    }

    /// The name a table the step drops is set aside under here.
    private static let gonePrefix = "_remodel_gone_"

    /// The app's objects as SQLite rewrote them, and the definitions of its columns on the model's tables (a
    /// `REFERENCES` to a table renamed follows it; a column renamed, in a `CHECK` or generated column of a
    /// carried table, too). `names` gives each source table's name in `scratch`.
    private mutating func readBack(_ names: [String: String], from scratch: SQLiteConnection) throws(RemodelError) {
        func rewritten(_ object: AppSchema.Object) throws(RemodelError) -> AppSchema.Object {
            guard
                let row = try scratch.rows(
                    "SELECT sql, tbl_name FROM sqlite_master WHERE type = ? AND name = ?",
                    [.text(object.type), .text(object.name)]
                ).first,
                case .text(let sql) = row[0], case .text(let table) = row[1],
                // An object on a table the step drops keeps its words: it is refused, naming that table.
                !table.hasPrefix(Self.gonePrefix)
            else { return object }
            var changed = object
            changed.sql = sql
            changed.table = table
            return changed
        }
        var next = app
        next.tables = try app.tables.map(rewritten)
        next.modelTableIndexes = try app.modelTableIndexes.map(rewritten)
        next.views = try app.views.map(rewritten)
        next.triggers = try app.triggers.map(rewritten)
        for (table, columns) in app.extraColumns {
            guard let name = names[table],
                case .text(let sql)? = try scratch.scalar(
                    "SELECT sql FROM sqlite_master WHERE type = 'table' AND name = ?", [.text(name)]),
                let definitions = SQLTableDefinition(sql)
            else { continue }
            next.extraColumns[table] = columns.map { column in
                (column.name, definitions.definition(of: column.name) ?? column.definition)
            }
        }
        app = next
    }
}
