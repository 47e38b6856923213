/// One way a store no longer matches the layout of the version it records: a model table, join table or
/// column that was dropped or renamed by hand or by another tool (`sqlite3`, a database browser), or rows
/// whose `_entity` the version cannot place.
///
/// Remodel compares the schema before it opens, launches, migrates, exports or imports a store, as Room
/// checks its identity hash at every open, and refuses a drifted store untouched
/// (``/RemodelModel/RemodelError/Code/schemaDrift``): reading or migrating it would fail halfway or lose the values of
/// what is missing. Tables, columns, indexes, triggers and views the app added are not drift. Rows are
/// looked for in the `_entity` index of each table of several entities (a few page reads); a table of one
/// entity is read whole only where it is read anyway (an export, a migration that rebuilds it).
///
/// For example:
/// ```swift
/// let inspection = try StoreInspector.inspect(path: "library.sqlite", bundle: bundle)
/// if case .schemaDrift(_, let drifts) = inspection.state {
///     for drift in drifts { print(drift) } // table "Person" has no column "age"
/// }
/// ```
public struct SchemaDrift: Sendable, Hashable, CustomStringConvertible {
    /// What drifted.
    public enum Kind: Sendable, Hashable {
        /// The model table of an entity hierarchy is missing.
        case missingTable
        /// A join table of a many-to-many (or inverse-less to-many) relationship is missing.
        case missingJoinTable
        /// The table is there but is a view, not a table.
        case notATable
        /// The table is there, but a column of the version's layout is not.
        case missingColumn
        /// Rows of the table name in `_entity` no concrete entity stored in it (see ``unplaceable``): export
        /// and migration read a table entity by entity, and would leave them out.
        case unplaceableRows
        /// A derived attribute's column is not kept as the layout keeps it (see ``detail``): a generated column
        /// that is a plain one or computes something else, a plain one that is generated, a trigger of the store's
        /// own that is missing or changed, or the table of text folds missing. Its values may be wrong.
        case derivedAttribute
    }

    /// Why the version cannot place rows, for ``Kind/unplaceableRows``.
    public enum UnplaceableReason: Sendable, Hashable {
        /// The version has no entity of that name.
        case unknown
        /// The entity is abstract: it has no objects of its own.
        case abstract
        /// The entity is stored in another table (named).
        case otherTable(String)
    }

    /// The rows of one `_entity` value the version cannot place, for ``Kind/unplaceableRows``.
    public struct UnplaceableRows: Sendable, Hashable {
        /// The value in `_entity`, as SQL writes it (`'Ghost'`, `NULL`, `X'00'`).
        public let value: String
        /// The smallest `_pk` among those rows.
        public let firstKey: Int64
        /// How many rows have that value.
        public let count: Int
        /// Why the version cannot place them.
        public let reason: UnplaceableReason
    }

    /// What drifted.
    public let kind: Kind
    /// The table at fault (an entity hierarchy's table or a join table).
    public let table: String
    /// The missing column, for ``Kind/missingColumn``.
    public let column: String?
    /// For ``Kind/missingColumn``: the columns of the table that neither the layout has nor the app's
    /// additions are known by (a renamed column shows up here), in table order.
    public let unexpectedColumns: [String]
    /// For ``Kind/unplaceableRows``: the value, the first `_pk` and the count of those rows.
    public var unplaceable: UnplaceableRows? = nil
    /// For ``Kind/derivedAttribute``: what differs, such as `its trigger _remodel_derived_Person_bookCount_2 is
    /// missing`.
    public var detail: String? = nil

    init(kind: Kind, table: String, column: String?, unexpectedColumns: [String]) {
        self.kind = kind
        self.table = table
        self.column = column
        self.unexpectedColumns = unexpectedColumns
    }

    init(unplaceable table: String, value: SQLiteValue, firstKey: Int64, count: Int, reason: UnplaceableReason) {
        self.init(kind: .unplaceableRows, table: table, column: StoreColumn.entity, unexpectedColumns: [])
        unplaceable = UnplaceableRows(value: value.description, firstKey: firstKey, count: count, reason: reason)
    }

    /// The drift in words: `table "Person" has no column "age" (its columns the model does not have: "years")`.
    public var description: String {
        switch kind {
        case .missingTable: return "table \"\(table)\" is missing"
        case .missingJoinTable: return "join table \"\(table)\" is missing"
        case .notATable: return "\"\(table)\" is a view, not a table"
        case .missingColumn:
            let others =
                unexpectedColumns.isEmpty
                ? ""
                : " (its columns the model does not have: \(unexpectedColumns.map { "\"\($0)\"" }.joined(separator: ", ")))"
            return "table \"\(table)\" has no column \"\(column ?? "")\"\(others)"
        case .derivedAttribute:
            guard let column else { return detail ?? "a trigger of the store's own is not its version's" }
            return
                "table \"\(table)\" column \"\(column)\" is a derived attribute the store no longer keeps as its model says: \(detail ?? "")"
        case .unplaceableRows:
            guard let rows = unplaceable else { return "table \"\(table)\" has rows of no entity" }
            let why: String
            switch rows.reason {
            case .unknown: why = "no entity of this version"
            case .abstract: why = "an abstract entity, which has no objects of its own"
            case .otherTable(let other): why = "an entity stored in table \"\(other)\""
            }
            let which = rows.count == 1 ? "a row" : "\(rows.count) rows"
            let first = rows.count == 1 ? "_pk \(rows.firstKey)" : "the first _pk \(rows.firstKey)"
            return "table \"\(table)\" has \(which) (\(first)) whose \(StoreColumn.entity) is \(rows.value), \(why)"
        }
    }
}

/// Compares a store's schema with a version's layout, from `sqlite_master` and `pragma_table_xinfo` in
/// one query: no row of any table is read, so an app's launch pays a millisecond, not the store's size.
enum SchemaDriftCheck {
    /// What drifted in the store on `connection` from `layout`, tables in layout order, then join tables.
    static func drifts(on connection: SQLiteConnection, layout: StoreLayout) throws(RemodelError) -> [SchemaDrift] {
        // Names as SQLite compares them (SQLName): a column renamed only in ASCII case is no drift; one renamed
        // `É` → `é`, or `é` → `e` and U+0301, is.
        var columnsByTable: [SQLName: [String]] = [:]
        var kindByTable: [SQLName: String] = [:]
        var generated: Set<SQLName.Column> = []
        let schema = try connection.rows(
            """
            SELECT m.type, m.name, p.name, p.hidden FROM sqlite_master AS m LEFT JOIN pragma_table_xinfo(m.name) AS p
            WHERE m.type IN ('table', 'view') ORDER BY m.name, p.cid
            """)
        for row in schema {
            guard case .text(let type) = row[0], case .text(let table) = row[1] else { continue }
            let key = SQLName(table)
            kindByTable[key] = type
            if case .text(let column) = row[2] {
                columnsByTable[key, default: []].append(column)
                // 2: a virtual generated column, 3: a stored one.
                if case .integer(let hidden) = row[3], hidden == 2 || hidden == 3 {
                    generated.insert(SQLName.Column(table, column))
                }
            }
        }
        var drifts: [SchemaDrift] = []
        func check(_ table: String, _ expected: [String], missing: SchemaDrift.Kind) {
            let key = SQLName(table)
            guard let type = kindByTable[key] else {
                drifts.append(SchemaDrift(kind: missing, table: table, column: nil, unexpectedColumns: []))
                return
            }
            guard type == "table" else {
                drifts.append(SchemaDrift(kind: .notATable, table: table, column: nil, unexpectedColumns: []))
                return
            }
            let found = columnsByTable[key] ?? []
            let foundKeys = Set(found.map(SQLName.init))
            let expectedKeys = Set(expected.map(SQLName.init))
            // An app's own columns are carried, never drift; they are named only beside a missing column.
            let unexpected = found.filter { !expectedKeys.contains(SQLName($0)) }
            for column in expected where !foundKeys.contains(SQLName(column)) {
                drifts.append(
                    SchemaDrift(kind: .missingColumn, table: table, column: column, unexpectedColumns: unexpected))
            }
        }
        for table in layout.tables {
            check(table.name, table.columns.map(\.name), missing: .missingTable)
        }
        for join in layout.joinTables {
            // Every join table has both order columns (used or not), as `createSQL` makes them.
            let columns = [
                StoreLayout.JoinTable.sourceColumn, StoreLayout.JoinTable.destinationColumn,
                StoreLayout.JoinTable.sourceOrderColumn,
                StoreLayout.JoinTable.destinationOrderColumn,
            ]
            check(join.name, columns, missing: .missingJoinTable)
        }
        if drifts.isEmpty, !layout.derivedColumns.isEmpty {
            drifts += try DerivedDrift.drifts(
                on: connection, layout: layout, generated: generated, tables: Set(kindByTable.keys))
        }
        return drifts
    }

    /// `state` as classified from the metadata, or ``StoreInspection/State/schemaDrift(version:drifts:)``
    /// when the store's schema no longer matches the version it is at, or rows in the tables `rows` searches
    /// have an `_entity` the version cannot place (``UnplaceableRows``).
    static func checked(
        _ state: StoreInspection.State, on connection: SQLiteConnection, bundle: ModelBundle,
        rows: UnplaceableRows.Scope = .indexed
    ) throws(RemodelError) -> StoreInspection.State {
        let name: String
        switch state {
        case .current(let version), .older(let version, _): name = version
        default: return state
        }
        // The version the store is at is about to be used: a model with errors never is.
        try bundle.requireNoErrors(inVersions: [name])
        let layout = StoreLayout(version: try bundle.loadVersion(named: name))
        var drifts = try drifts(on: connection, layout: layout)
        // Rows are looked for only in tables that are all there.
        if drifts.isEmpty { drifts = try UnplaceableRows.drifts(on: connection, layout: layout, scope: rows) }
        return drifts.isEmpty ? state : .schemaDrift(version: name, drifts: drifts)
    }
}
