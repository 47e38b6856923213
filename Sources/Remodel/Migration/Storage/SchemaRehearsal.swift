/// Tries the schema a pass leaves — the destination layout's tables with the app's columns, the app's own
/// tables — in an empty in-memory database, and creates the app's indexes, views and triggers on it as
/// they are. One that names a table or column the pass renames or drops fails there, before anything
/// is written, and stops the migration naming it: Remodel never drops an app's object silently.
struct SchemaRehearsal {
    let app: AppSchema
    let destination: StoreLayout
    let changes: StorageChanges
    /// Names the step that is rehearsed, for messages (`Library → Library 2`).
    let stepName: String

    /// The columns the app added that each destination table keeps, with their definitions.
    func appColumns(of table: String) -> [(name: String, definition: String)] {
        let sources = changes.carriedTables[table].map { [$0.source] } ?? (changes.feeders[table].map { Array($0).sorted() } ?? [])
        var result: [(name: String, definition: String)] = []
        for source in sources {
            for column in app.extraColumns[source] ?? [] where !result.contains(where: { $0.name.lowercased() == column.name.lowercased() }) {
                result.append(column)
            }
        }
        return result
    }

    /// The `CREATE TABLE` of a destination hierarchy table, with the app's columns after the layout's.
    func createSQL(of table: StoreLayout.Table) -> String {
        let columns = table.columns.map(\.definitionSQL) + appColumns(of: table.name).map(\.definition)
        return "CREATE TABLE \(quoteIdentifier(table.name)) (" + columns.joined(separator: ", ") + ")"
    }

    /// What the app has in the store once the step is done: its columns where they went, the destination
    /// layout's indexes; its own tables, indexes, triggers and views as they were.
    var appAfter: AppSchema {
        var next = app
        next.extraColumns = [:]
        for table in destination.tables {
            let columns = appColumns(of: table.name)
            if !columns.isEmpty { next.extraColumns[table.name] = columns }
        }
        next.layoutIndexes = Set(destination.indexes.map(\.name))
        return next
    }

    /// Builds the step's schema in memory and replays every app object on it (nothing to do when the app
    /// added nothing to the store).
    /// - Throws: ``RemodelError`` (``RemodelError/Code/migrationNotPlannable``) naming the first app object
    ///   that does not fit the new schema and what to do.
    func run() throws(RemodelError) {
        guard !app.isEmpty else { return }
        let scratch = try SQLiteConnection(path: ":memory:")
        for table in destination.tables {
            let layoutNames = Set(table.columns.map { $0.name.lowercased() })
            if let clash = appColumns(of: table.name).first(where: { layoutNames.contains($0.name.lowercased()) }) {
                throw RemodelError(
                    .migrationNotPlannable,
                    "the app's column \(table.name).\(clash.name) has the name of a column that \(stepName) gives the model; rename the app's column before migrating",
                    entity: table.name, property: clash.name)
            }
            try scratch.execute(createSQL(of: table))
        }
        for join in destination.joinTables { try scratch.execute(join.createSQL) }
        for table in app.tables where table.type == "table" {
            do {
                try scratch.execute(table.sql)
            } catch {
                // A virtual table whose module this SQLite lacks: a plain table of the same name stands in.
                try scratch.execute("CREATE TABLE \(quoteIdentifier(table.name)) (placeholder)")
            }
        }
        for index in app.modelTableIndexes { try replay(index, on: scratch) }
        for view in app.views {
            try replay(view, on: scratch)
            try compile("SELECT * FROM \(quoteIdentifier(view.name))", for: view, on: scratch)
        }
        for trigger in app.triggers {
            try replay(trigger, on: scratch)
            for statement in try firingStatements(of: trigger, on: scratch) { try compile(statement, for: trigger, on: scratch) }
        }
    }

    private func replay(_ object: AppSchema.Object, on scratch: SQLiteConnection) throws(RemodelError) {
        do {
            try scratch.execute(object.sql)
        } catch {
            throw refusal(object, error)
        }
    }

    private func compile(_ sql: String, for object: AppSchema.Object, on scratch: SQLiteConnection) throws(RemodelError) {
        do {
            _ = try scratch.prepare(sql)
        } catch {
            throw refusal(object, error)
        }
    }

    /// Statements that fire a trigger, for SQLite to compile its body against the new schema (never run).
    private func firingStatements(of trigger: AppSchema.Object, on scratch: SQLiteConnection) throws(RemodelError) -> [String] {
        let table = quoteIdentifier(trigger.table)
        let columns = try scratch.rows("SELECT name FROM pragma_table_info(?)", [.text(trigger.table)]).compactMap { row -> String? in
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
        if let colon = reason.range(of: ": "), reason.hasPrefix("SQLite error") { reason = String(reason[colon.upperBound...]) }
        let on = object.type == "view" || object.table == object.name ? "" : " (on \(object.table))"
        return RemodelError(
            .migrationNotPlannable,
            "the app's \(object.type) \(object.name)\(on) does not fit the schema \(stepName) leaves (\(reason)): it names a table or column the step renames or drops. Drop it before migrating and create it again for the new version; Remodel does not drop it silently",
            entity: object.table, cause: error)
    }
}
