/// Tries the schema a pass leaves — the destination layout's tables with the app's columns, the app's own
/// tables — in an empty in-memory database, and creates the app's indexes, views and triggers on it as
/// SQLite leaves them once it has made the step's renames (``FollowedAppSchema``). One that names a table
/// or column the pass drops (or renames where SQLite cannot follow it: a column of a rebuilt table) fails
/// there, before anything is written, and stops the migration naming it: Remodel never drops an app's
/// object silently. A table of the new version that takes the name of another table of the store (`NOTE`
/// beside `Note`, whose table becomes `Note_table`) is rehearsed under a name of its own, so that an app's
/// object still naming `Note` fails too instead of reading the new table.
struct SchemaRehearsal {
    /// What the app has in the store when the step starts.
    let app: AppSchema
    let destination: StoreLayout
    let changes: StorageChanges
    /// Names the step that is rehearsed, for messages (`Library → Library 2`).
    let stepName: String
    /// The app's objects once SQLite has made the step's renames.
    let followed: FollowedAppSchema
    /// The source layout's tables (hierarchy and join), by name as SQLite compares names.
    private let sourceTables: [SQLName: String]
    /// What the step's writes mean for the app's indexes and triggers over the model's tables, once ``run()`` worked
    /// it out.
    private(set) var upkeep = AppUpkeep()

    init(app: AppSchema, source: StoreLayout, destination: StoreLayout, changes: StorageChanges, stepName: String) {
        self.app = app
        self.destination = destination
        self.changes = changes
        self.stepName = stepName
        followed = FollowedAppSchema(app: app, source: source, changes: changes)
        sourceTables = Dictionary(
            (source.tables.map(\.name) + source.joinTables.map(\.name)).map { (SQLName($0), $0) },
            uniquingKeysWith: { first, _ in first })
    }

    /// The prefix of the name a table that takes another table's name is rehearsed under.
    private static let takenPrefix = "_remodel_taken_"

    /// The columns the app added that each destination table keeps, with their definitions.
    func appColumns(of table: String) -> [(name: String, definition: String)] {
        var result: [(name: String, definition: String)] = []
        for source in sources(of: table) {
            for column in followed.app.extraColumns[source] ?? []
            where !result.contains(where: { SQLName.same($0.name, column.name) }) {
                result.append(column)
            }
        }
        return result
    }

    /// The source tables whose rows a destination hierarchy table holds.
    private func sources(of table: String) -> [String] {
        changes.carriedTables[table].map { [$0.source] } ?? (changes.feeders[table].map { Array($0).sorted() } ?? [])
    }

    /// The `CREATE TABLE` of a destination hierarchy table, with the app's columns after the layout's.
    func createSQL(of table: StoreLayout.Table) -> String {
        createSQL(of: table, named: table.name)
    }

    private func createSQL(of table: StoreLayout.Table, named name: String) -> String {
        let columns = table.columns.map(\.definitionSQL) + appColumns(of: table.name).map(\.definition)
        return "CREATE TABLE \(quoteIdentifier(name)) (" + columns.joined(separator: ", ") + ")"
    }

    /// Whether a destination table (hierarchy or join) has the name, as SQLite compares names, of a source
    /// table its rows do not come from: an app's object naming that table meant the other one.
    func takesAnotherTablesName(_ table: String) -> Bool {
        guard let source = sourceTables[SQLName(table)] else { return false }
        if changes.sourceTable(ofCarried: table) == source { return false }
        if destination.joinTable(named: table) != nil { return !changes.isRebuilt(table) || source != table }
        return !(changes.feeders[table]?.contains(source) ?? false)
    }

    /// What the app has in the store once the step is done: its columns where they went, the destination
    /// layout's tables and indexes; its own tables, indexes, triggers and views as SQLite left them.
    var appAfter: AppSchema {
        var next = followed.app
        next.extraColumns = [:]
        next.generatedColumns = [:]
        for table in destination.tables {
            let columns = appColumns(of: table.name)
            if !columns.isEmpty { next.extraColumns[table.name] = columns }
            let generated = sources(of: table.name).reduce(into: Set<SQLName>()) {
                $0.formUnion(app.generatedColumns[$1] ?? [])
            }
            if !generated.isEmpty { next.generatedColumns[table.name] = generated }
        }
        next.layoutIndexes = Set(destination.indexes.map(\.name))
        next.joinTables = Set(destination.joinTables.map(\.name))
        next.layoutTables = Set((destination.tables.map(\.name) + destination.joinTables.map(\.name)).map(SQLName.init))
        return next
    }

    /// Builds the step's schema in memory and replays every app object on it (nothing to do when the app
    /// added nothing to the store), and works out the step's ``upkeep``.
    /// - Throws: ``/RemodelModel/RemodelError`` (``/RemodelModel/RemodelError/Code/migrationNotPlannable``) naming the
    ///   first app object that does not fit the new schema and what to do.
    mutating func run() throws(RemodelError) {
        do {
            upkeep = try rehearse()
        } catch  where error.code == .sqlite {
            // Never SQLite's words on `:memory:` alone: what was rehearsed, and what to do.
            var reason = error.message.components(separatedBy: " - while").first ?? error.message
            if let colon = reason.range(of: ": "), reason.hasPrefix("SQLite error") {
                reason = String(reason[colon.upperBound...])
            }
            throw RemodelError(
                .migrationNotPlannable,
                "the schema \(stepName) leaves cannot take what the app added to the store (\(reason)); list the app's tables, indexes, triggers and views (`sqlite3 STORE .schema`), drop or rename the one at fault before migrating, and create it again after",
                cause: error)
        }
    }

    private func rehearse() throws(RemodelError) -> AppUpkeep {
        guard !app.isEmpty else { return AppUpkeep() }
        let app = followed.app
        try checkAppColumnsArrive()
        try checkAppTableNames()
        let scratch = try SQLiteConnection(path: ":memory:")
        try scratch.setDoubleQuotedStrings(false)
        for table in destination.tables {
            let layoutNames = Set(table.columns.map { SQLName($0.name) })
            if let clash = appColumns(of: table.name).first(where: { layoutNames.contains(SQLName($0.name)) }) {
                throw RemodelError(
                    .migrationNotPlannable,
                    "the app's column \(table.name).\(clash.name) has the name of a column that \(stepName) gives the model; rename the app's column before migrating",
                    entity: table.name, property: clash.name)
            }
            try createTable(table, on: scratch)
        }
        for (offset, join) in destination.joinTables.enumerated() {
            var sql = join.createSQL
            if takesAnotherTablesName(join.name) {
                sql = sql.replacingEvery(
                    "CREATE TABLE \(quoteIdentifier(join.name))",
                    with: "CREATE TABLE \"_remodel_taken_join_\(offset)\"")
            }
            try scratch.execute(sql)
        }
        for table in app.tables where table.type == "table" {
            do {
                try scratch.execute(table.sql)
            } catch {
                // A virtual table whose module this SQLite lacks: a plain table of the same name stands in.
                try scratch.execute("CREATE TABLE \(quoteIdentifier(table.name)) (placeholder)")
                continue
            }
            // An index over a model table (FTS `content=`) reads it on a scan: a table or column the pass
            // renames or drops fails here, on the empty schema.
            if isVirtual(table) {
                try scan(table, on: scratch)
                try checkContentTable(of: table)
            }
        }
        try checkForeignKeys(on: scratch)
        for index in app.modelTableIndexes { try replay(index, on: scratch) }
        for view in app.views {
            try replay(view, on: scratch)
            try compile("SELECT * FROM \(quoteIdentifier(view.name))", for: view, on: scratch)
        }
        for trigger in app.triggers {
            try replay(trigger, on: scratch)
            try checkUpdatedColumns(of: trigger, on: scratch)
            for statement in try Self.firingStatements(of: trigger, on: scratch) {
                try compile(statement, for: trigger, on: scratch)
            }
        }
        return try AppUpkeep(
            app: app, destination: destination, changes: changes, stepName: stepName, scratch: scratch)
    }

    /// Creates a destination table with the app's columns; one whose definition no longer fits (a generated
    /// column or a `CHECK` over a column the pass renames or drops) is found by adding the app's columns one
    /// by one, and named.
    private func createTable(_ table: StoreLayout.Table, on scratch: SQLiteConnection) throws(RemodelError) {
        // A table that takes another table's name is created under one of its own (see the type's summary).
        let name = takesAnotherTablesName(table.name) ? Self.takenPrefix + table.name : table.name
        do {
            try scratch.execute(createSQL(of: table, named: name))
            return
        } catch {}
        var columns = table.columns.map(\.definitionSQL)
        let probe = "_remodel_probe"
        for column in appColumns(of: table.name) {
            columns.append(column.definition)
            do {
                try scratch.execute("CREATE TABLE \(probe) (" + columns.joined(separator: ", ") + ")")
                try scratch.execute("DROP TABLE \(probe)")
            } catch {
                var reason = error.message.components(separatedBy: " - while").first ?? error.message
                if let colon = reason.range(of: ": "), reason.hasPrefix("SQLite error") {
                    reason = String(reason[colon.upperBound...])
                }
                throw RemodelError(
                    .migrationNotPlannable,
                    "the app's column \(table.name).\(column.name) (\(column.definition)) does not fit the table \(stepName) leaves (\(reason)): it names a column the step renames or drops. Drop it before migrating and add it again for the new version; Remodel does not drop it silently",
                    entity: table.name, property: column.name, cause: error)
            }
        }
        // Not an app column's doing: the model's own schema, which Remodel makes.
        try scratch.execute(createSQL(of: table, named: name))
    }

    /// Every column the app added to a model table must arrive somewhere: on a table the pass carries, or
    /// copied into a rebuilt table from the rows its objects make. A column on the table of an entity the
    /// pass removes, or on a join table it rebuilds or removes, would lose its values.
    private func checkAppColumnsArrive() throws(RemodelError) {
        let kept = Set(changes.carriedTables.values.map(\.source)).union(changes.carriedJoins.values)
            .union(changes.feeders.values.flatMap { $0 })
        for (table, columns) in followed.app.extraColumns.sorted(by: { $0.key < $1.key }) where !kept.contains(table) {
            guard let column = columns.first else { continue }
            let what =
                app.joinTables.contains(table)
                ? "the join table \(table), which \(stepName) rebuilds or removes"
                : "the table of entity \(table), whose objects \(stepName) does not carry into any table (the entity is removed)"
            throw RemodelError(
                .migrationNotPlannable,
                "the app's column \(table).\(column.name) is on \(what): its values would be lost. Copy them into a table of the app's own (or drop the column) before migrating; Remodel does not drop them silently",
                entity: table, property: column.name)
        }
    }

    /// An app table may not have the name of a table the pass's version gives the model (SQLite names
    /// tables case-insensitively).
    private func checkAppTableNames() throws(RemodelError) {
        let model = Dictionary(
            (destination.tables.map(\.name) + destination.joinTables.map(\.name)).map { (SQLName($0), $0) },
            uniquingKeysWith: { a, _ in a })
        for table in app.tables where table.type == "table" {
            guard let clash = model[SQLName(table.name)] else { continue }
            throw RemodelError(
                .migrationNotPlannable,
                "the app's table \(table.name) has the name of the table \(clash) that \(stepName) gives the model; rename the app's table before migrating (its rows, indexes and triggers go with it)",
                entity: clash)
        }
    }

    /// Every foreign key the app declared (on its own tables, or on a column it added to a model table) that
    /// points at a model table must still find that table and its columns after the pass. A table the pass
    /// carries or rebuilds under a new name is followed (SQLite's `ALTER TABLE … RENAME` rewrites the
    /// references; see ``StorageChanges/rebuiltRenames()``); one it removes, or whose objects go
    /// to several tables, is refused, naming the key.
    private func checkForeignKeys(on scratch: SQLiteConnection) throws(RemodelError) {
        let followed = Set(
            changes.carriedTables.values.filter { !SQLName.identical($0.source, $0.destination) }.map {
                SQLName($0.source)
            }
        )
        .union(changes.carriedJoins.filter { !SQLName.identical($0.key, $0.value) }.map { SQLName($0.value) })
        .union(changes.rebuiltRenames().keys.map(SQLName.init))
        let keys = try scratch.rows(
            """
            SELECT m.name, p."table", p."from", p."to" FROM sqlite_master AS m JOIN pragma_foreign_key_list(m.name) AS p
            WHERE m.type = 'table' ORDER BY m.name, p.id, p.seq
            """)
        for row in keys {
            guard case .text(let scratchName) = row[0], case .text(let parent) = row[1], case .text(let from) = row[2]
            else { continue }
            // A table rehearsed under a name of its own (see the type's summary) is named as the store names it.
            let child =
                scratchName.utf8.starts(with: Self.takenPrefix.utf8)
                ? String(decoding: scratchName.utf8.dropFirst(Self.takenPrefix.utf8.count), as: UTF8.self)
                : scratchName
            let parentColumns = try scratch.rows("SELECT name FROM pragma_table_xinfo(?)", [.text(parent)]).compactMap {
                row -> SQLName? in
                if case .text(let name) = row[0] { return SQLName(name) }
                return nil
            }
            if let merged = mergedWithNewKeys(named: parent) {
                throw RemodelError(
                    .migrationNotPlannable,
                    "the app's foreign key \(child).\(from) references \(parent), whose objects \(stepName) merges into \(merged) with new keys (_pk): its rows would point at other objects or at nothing. Map its values to the new keys (the step's plan names the tables it renumbers) or drop the foreign key before migrating; Remodel does not change it silently",
                    entity: child, property: from)
            }
            let problem: String
            if parentColumns.isEmpty {
                // Not a table of the new schema: the step's doing only when it was a model table.
                guard app.layoutTables.contains(SQLName(parent)), !followed.contains(SQLName(parent)) else { continue }
                problem = "a table \(stepName) removes (or splits)"
            } else if case .text(let to) = row[3], !parentColumns.contains(SQLName(to)) {
                problem = "whose column \(to) \(stepName) renames or drops"
            } else {
                continue
            }
            throw RemodelError(
                .migrationNotPlannable,
                "the app's foreign key \(child).\(from) references \(parent), \(problem): its rows would point at nothing. Change or drop the foreign key before migrating and add it again for the new version; Remodel does not change it silently",
                entity: child, property: from)
        }
    }

    /// The destination table a source table's objects go to with new keys (merged into a table that another
    /// source table stays in, or into a new one), by the name an app's object gives it (SQLite's way).
    private func mergedWithNewKeys(named name: String) -> String? {
        guard let source = sourceTables[SQLName(name)] else { return nil }
        return changes.renumbered.keys.sorted().first { table in
            (changes.feeders[table]?.contains(source) ?? false) && (changes.renumbered[table] ?? nil) != source
        }
    }

    /// An FTS index of the app over a model table (`content=`) finds its rows by their keys: over a table whose
    /// objects the step gives new keys, it would point at other objects.
    private func checkContentTable(of table: AppSchema.Object) throws(RemodelError) {
        guard let content = SQLVirtualTableOptions(table.sql)?.value(of: "content"), !content.isEmpty,
            let merged = mergedWithNewKeys(named: content)
        else { return }
        throw RemodelError(
            .migrationNotPlannable,
            "the app's table \(table.name) indexes \(content) by its keys (content=), and \(stepName) merges the objects of \(content) into \(merged) with new keys (_pk): the index would point at other objects. Drop it before migrating and build it again for the new version (its 'rebuild' command); Remodel does not change it silently",
            entity: table.name)
    }

    private func isVirtual(_ table: AppSchema.Object) -> Bool {
        table.sql.uppercased().hasPrefix("CREATE VIRTUAL TABLE")
    }

    private func scan(_ table: AppSchema.Object, on scratch: SQLiteConnection) throws(RemodelError) {
        do {
            _ = try scratch.rows("SELECT * FROM \(quoteIdentifier(table.name)) LIMIT 1")
        } catch {
            throw refusal(table, error)
        }
    }

    private func replay(_ object: AppSchema.Object, on scratch: SQLiteConnection) throws(RemodelError) {
        do {
            try asTheStoreHasIt(object, on: scratch) { () throws(RemodelError) in try scratch.execute(object.sql) }
        } catch {
            throw refusal(object, error)
        }
    }

    private func compile(_ sql: String, for object: AppSchema.Object, on scratch: SQLiteConnection) throws(RemodelError)
    {
        do {
            try asTheStoreHasIt(object, on: scratch) { () throws(RemodelError) in _ = try scratch.prepare(sql) }
        } catch {
            throw refusal(object, error)
        }
    }

    /// Runs `body` with SQLite's double-quoted-string fallback where the object needs it on the store's own
    /// schema (``FollowedAppSchema/needsDoubleQuotedStrings``), and without it otherwise.
    private func asTheStoreHasIt(
        _ object: AppSchema.Object, on scratch: SQLiteConnection, _ body: () throws(RemodelError) -> Void
    ) throws(RemodelError) {
        guard followed.needsDoubleQuotedStrings.contains(FollowedAppSchema.key(object)) else { return try body() }
        try scratch.setDoubleQuotedStrings(true)
        defer { try? scratch.setDoubleQuotedStrings(false) }
        try body()
    }

    /// The columns a trigger's `UPDATE OF` lists must be columns of its table: SQLite does not check them, and
    /// a trigger on a column the step drops would never fire again.
    private func checkUpdatedColumns(of trigger: AppSchema.Object, on scratch: SQLiteConnection) throws(RemodelError) {
        let listed = SQLTriggerHeader(trigger.sql)?.updatedColumns ?? []
        guard !listed.isEmpty else { return }
        let columns = Set(
            try scratch.rows("SELECT name FROM pragma_table_xinfo(?)", [.text(trigger.table)]).compactMap {
                row -> SQLName? in
                if case .text(let name) = row[0] { return SQLName(name) }
                return nil
            })
        if let missing = listed.first(where: { !columns.contains(SQLName($0)) }) {
            throw refusal(trigger, RemodelError(.sqlite, "no such column: \(missing)"))
        }
    }

    /// Statements that fire a trigger, for SQLite to compile its body against the new schema (never run).
    static func firingStatements(of trigger: AppSchema.Object, on scratch: SQLiteConnection) throws(RemodelError)
        -> [String]
    {
        let table = quoteIdentifier(trigger.table)
        let columns = try scratch.rows("SELECT name FROM pragma_table_info(?)", [.text(trigger.table)]).compactMap {
            row -> String? in
            if case .text(let name) = row[0] { return quoteIdentifier(name) }
            return nil
        }
        let upper = trigger.sql.uppercased()
        let header = upper.range(of: "BEGIN").map { String(upper[..<$0.lowerBound]) } ?? upper
        var statements: [String] = []
        if header.contains(" INSERT") { statements.append("INSERT INTO \(table) DEFAULT VALUES") }
        if header.contains(" UPDATE"), !columns.isEmpty {
            statements.append("UPDATE \(table) SET " + columns.map { "\($0) = \($0)" }.joined(separator: ", "))
        }
        if header.contains(" DELETE") { statements.append("DELETE FROM \(table)") }
        return statements
    }

    private func refusal(_ object: AppSchema.Object, _ error: RemodelError) -> RemodelError {
        var reason = error.message.components(separatedBy: " - while").first ?? error.message
        if let colon = reason.range(of: ": "), reason.hasPrefix("SQLite error") {
            reason = String(reason[colon.upperBound...])
        }
        let on = object.type == "view" || object.table == object.name ? "" : " (on \(object.table))"
        return RemodelError(
            .migrationNotPlannable,
            "the app's \(object.type) \(object.name)\(on) does not fit the schema \(stepName) leaves (\(reason)): it names a table or column the step renames or drops. Drop it before migrating and create it again for the new version; Remodel does not drop it silently",
            entity: object.table, cause: error)
    }
}
