/// What a store holds beyond its model's layout — the app's own tables, the columns it added to model
/// tables, its indexes, triggers and views — read from the store's schema, so a migration can carry it.
/// Reading it also checks that the model's tables have every column the layout gives them.
struct AppSchema: Sendable {
    /// One schema object of the app.
    struct Object: Sendable, Hashable {
        /// `table`, `index`, `view` or `trigger`.
        var type: String
        var name: String
        /// The table it is on (for an index or trigger), or its own name.
        var table: String
        /// Its `CREATE` statement as the store keeps it.
        var sql: String
    }

    /// Tables that are neither the layout's nor Remodel's own, with their indexes; carried untouched.
    var tables: [Object] = []
    /// Indexes the layout does not define, on model tables.
    var modelTableIndexes: [Object] = []
    /// Every trigger and every view of the store.
    var triggers: [Object] = []
    var views: [Object] = []
    /// Columns the app added to model tables, by table: name and definition text.
    var extraColumns: [String: [(name: String, definition: String)]] = [:]
    /// The layout's indexes that the store has, by name.
    var layoutIndexes: Set<String> = []
    /// The app's generated columns (`GENERATED ALWAYS AS (…)`) among `extraColumns`, by table, as SQLite
    /// compares names: declared again on a rebuilt table, never written.
    var generatedColumns: [String: Set<SQLName>] = [:]
    /// The layout's join tables, by name: an app column on one is named as such in a refusal.
    var joinTables: Set<String> = []
    /// The layout's tables (hierarchy and join), as SQLite compares names: an app's foreign key to one must still
    /// find it.
    var layoutTables: Set<SQLName> = []

    /// Whether the app added anything to the store.
    var isEmpty: Bool {
        tables.isEmpty && modelTableIndexes.isEmpty && triggers.isEmpty && views.isEmpty && extraColumns.isEmpty
    }

    /// Reads the schema of `schema` on `connection`, a store laid out as `layout`.
    /// - Throws: ``/RemodelModel/RemodelError`` when a model table lacks a column of the layout (a store edited by
    ///   hand, or written with another layout): a migration would otherwise read what is not there.
    static func read(from connection: SQLiteConnection, schema: String, layout: StoreLayout) throws(RemodelError)
        -> AppSchema
    {
        var app = AppSchema()
        // Keyed as SQLite compares names: `zcafé` is not the model's `ZCAFÉ`, nor is `ZCAFE\u{301}`.
        var modelTables: [SQLName: (name: String, columns: [String])] = [:]
        for table in layout.tables { modelTables[SQLName(table.name)] = (table.name, table.columns.map(\.name)) }
        for join in layout.joinTables {
            modelTables[SQLName(join.name)] = (
                join.name,
                [
                    StoreLayout.JoinTable.sourceColumn, StoreLayout.JoinTable.destinationColumn,
                    StoreLayout.JoinTable.sourceOrderColumn, StoreLayout.JoinTable.destinationOrderColumn,
                ]
            )
        }
        let layoutIndexes = Set(layout.indexes.map { SQLName($0.name) })
        app.joinTables = Set(layout.joinTables.map(\.name))
        app.layoutTables = Set(modelTables.keys)
        let shadows = try shadowTables(connection, schema: schema)
        let rows = try connection.rows(
            "SELECT type, name, tbl_name, sql FROM \(schema).sqlite_master WHERE sql IS NOT NULL ORDER BY rowid")
        for row in rows {
            guard case .text(let type) = row[0], case .text(let name) = row[1], case .text(let table) = row[2],
                case .text(let sql) = row[3]
            else { continue }
            let object = Object(type: type, name: name, table: table, sql: sql)
            let key = SQLName(name)
            switch type {
            case "table":
                if SQLName.hasPrefix(name, "sqlite_") || SQLName.same(name, StoreMetadata.tableName)
                    || SQLName.same(name, StoreLayout.textFoldsTable) || shadows.contains(key)
                {
                    continue
                }
                if let model = modelTables[key] {
                    try app.readExtraColumns(
                        of: model.name, sql: sql, layoutColumns: model.columns, connection: connection,
                        schema: schema)
                } else {
                    app.tables.append(object)
                }
            case "index":
                if modelTables[SQLName(table)] != nil {
                    if layoutIndexes.contains(key) {
                        app.layoutIndexes.insert(name)
                    } else {
                        app.modelTableIndexes.append(object)
                    }
                }
            case "trigger":
                // The store's own triggers keep derived attributes: the layout makes them, the app does not.
                if !StoreLayout.isDerivedTrigger(name) { app.triggers.append(object) }
            case "view": app.views.append(object)
            default: continue
            }
        }
        return app
    }

    /// Checks a model table against its layout columns and records the columns the app added.
    private mutating func readExtraColumns(
        of table: String, sql: String, layoutColumns: [String], connection: SQLiteConnection, schema: String
    ) throws(RemodelError) {
        var present: [String] = []
        for row in try connection.rows(
            "SELECT name, hidden FROM pragma_table_xinfo(?, ?)", [.text(table), .text(schema)])
        {
            guard case .text(let name) = row[0] else { continue }
            present.append(name)
            // 2: a virtual generated column, 3: a stored one.
            if case .integer(let hidden) = row[1], hidden == 2 || hidden == 3 {
                generatedColumns[table, default: []].insert(SQLName(name))
            }
        }
        let found = Set(present.map(SQLName.init))
        if let missing = layoutColumns.first(where: { !found.contains(SQLName($0)) }) {
            throw RemodelError(
                .incompatibleStore,
                "the store's table \(table) has no column \(missing), which its version's layout has: the store was edited by hand or written by another program; restore it from a backup",
                entity: table)
        }
        let layout = Set(layoutColumns.map(SQLName.init))
        let extra = present.filter { !layout.contains(SQLName($0)) }
        guard !extra.isEmpty else { return }
        let definitions = SQLTableDefinition(sql)
        extraColumns[table] = extra.map { name in (name, definitions?.definition(of: name) ?? quoteIdentifier(name)) }
    }

    /// The shadow tables of virtual tables (an FTS index's `_content`, `_data`, …): SQLite makes them itself.
    private static func shadowTables(_ connection: SQLiteConnection, schema: String) throws(RemodelError)
        -> Set<SQLName>
    {
        let rows = try connection.rows("SELECT name, type FROM pragma_table_list WHERE schema = ?", [.text(schema)])
        return Set(
            rows.compactMap { row in
                if case .text(let name) = row[0], case .text("shadow") = row[1] { return SQLName(name) }
                return nil
            })
    }

    /// The app's objects, listed for `status` and `--dry-run`: `table Notes`, `column Person.nickname`, ….
    var summary: [String] {
        var lines: [String] = []
        lines += tables.map { "table \($0.name)" }
        for (table, columns) in extraColumns.sorted(by: { $0.key < $1.key }) {
            lines += columns.map { "column \(table).\($0.name)" }
        }
        lines += modelTableIndexes.map { "index \($0.name) on \($0.table)" }
        lines += triggers.map { "trigger \($0.name) on \($0.table)" }
        lines += views.map { "view \($0.name)" }
        return lines
    }
}
