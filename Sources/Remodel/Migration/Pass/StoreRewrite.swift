/// Changes the copy of a store into the destination version's schema around phases 1 and 2: before them,
/// carried tables are renamed and given new columns by schema statements, and tables to rebuild are
/// created empty (with the app's columns); after them, carried tables lose their dropped columns and get
/// their constants. The app's triggers and views are set aside so none fires while the migration writes,
/// and are created again at the end of the pass with the indexes the rebuilt tables lost.
///
/// SQLite's procedure for changes `ALTER TABLE` cannot make is followed: create the new table, copy the
/// rows (phases 1 and 2 do), drop the old one. The first step of a pass reads the store being migrated,
/// attached as `src`, so the old tables are dropped first and their pages reused; a later step reads the
/// tables the step before it left, which it first renames aside (``setAside()``) and drops once its
/// phases have read them (``dropSetAside(_:)``).
struct StoreRewrite {
    let connection: SQLiteConnection
    /// The layout of the pass's source version (the copy's schema before).
    let source: StoreLayout
    /// The layout of the version the pass writes.
    let destination: StoreLayout
    let changes: StorageChanges
    let app: AppSchema
    let rehearsal: SchemaRehearsal
    /// Whether the step follows another in the same pass: it reads the tables that step left, in this file.
    let chained: Bool

    /// Everything before the data: on the copy, in one transaction.
    func prepare() throws(RemodelError) {
        try connection.transaction { () throws(RemodelError) in
            if !chained {
                // The store's own triggers go too: the pass computes derived attributes itself, then puts them back.
                try DerivedMaintenance.suspend(on: connection)
                for trigger in app.triggers {
                    try connection.execute("DROP TRIGGER IF EXISTS main.\(quoteIdentifier(trigger.name))")
                }
                for view in app.views {
                    try connection.execute("DROP VIEW IF EXISTS main.\(quoteIdentifier(view.name))")
                }
                try dropTablesNotCarried()
            }
            try dropObsoleteIndexes()
            try renameCarriedTables()
            for carried in changes.carriedTables.values.sorted(by: { $0.destination < $1.destination }) {
                try alter(carried)
            }
            for table in destination.tables where changes.isRebuilt(table.name) {
                try connection.execute(rehearsal.createSQL(of: table))
            }
            for join in destination.joinTables where changes.isRebuilt(join.name) {
                try connection.execute(join.createSQL)
            }
        }
    }

    /// Drops the source tables the step does not carry: those rebuilt under a new name last, each renamed
    /// first (``StorageChanges/rebuiltRenames()``) so that the app's foreign keys to it follow it (the app's
    /// triggers and views are set aside already; the rows are read from the source file).
    private func dropTablesNotCarried() throws(RemodelError) {
        let dropped = Self.tablesNotCarried(source: source, changes: changes)
        let renames = changes.rebuiltRenames()
        for name in dropped where renames[name] == nil {
            try connection.execute("DROP TABLE IF EXISTS main.\(quoteIdentifier(name))")
        }
        for name in dropped {
            guard let renamed = renames[name] else { continue }
            try connection.execute(
                "ALTER TABLE main.\(quoteIdentifier(name)) RENAME TO \(quoteIdentifier(renamed))")
            try connection.execute("DROP TABLE IF EXISTS main.\(quoteIdentifier(renamed))")
        }
    }

    /// The tables (hierarchy and join) of the source layout that a step does not carry: the first step of a
    /// pass drops them from the copy, and reads their rows from the store being migrated.
    static func tablesNotCarried(source: StoreLayout, changes: StorageChanges) -> [String] {
        let carriedSources = Set(changes.carriedTables.values.map(\.source)).union(changes.carriedJoins.values)
        return (source.tables.map(\.name) + source.joinTables.map(\.name)).filter { !carriedSources.contains($0) }
    }

    /// Drops the source layout's indexes on carried tables that the destination does not keep as they are.
    private func dropObsoleteIndexes() throws(RemodelError) {
        var destinationTable: [String: StorageChanges.CarriedTable] = [:]
        for carried in changes.carriedTables.values { destinationTable[carried.source] = carried }
        var joinDestination: [String: String] = [:]
        for (to, from) in changes.carriedJoins { joinDestination[from] = to }
        var wantedByName: [String: StoreLayout.Index] = [:]
        for index in destination.indexes { wantedByName[index.name] = index }
        for index in source.indexes where app.layoutIndexes.contains(index.name) {
            var kept = false
            if let wanted = wantedByName[index.name] {
                if let carried = destinationTable[index.table] {
                    var moved = index
                    moved.table = carried.destination
                    // A key on a column the table does not carry matches no wanted key: the index is dropped.
                    moved.keys = index.keys.map { key in
                        var key = key
                        key.column = carried.destinationColumn(carrying: key.column) ?? "\u{0}"
                        return key
                    }
                    kept = moved == wanted
                } else if let to = joinDestination[index.table] {
                    var moved = index
                    moved.table = to
                    kept = moved == wanted
                }
            }
            if !kept { try connection.execute("DROP INDEX IF EXISTS main.\(quoteIdentifier(index.name))") }
        }
    }

    /// Renames carried tables (hierarchy and join) whose name changes, through temporary names so that two
    /// tables may trade names.
    private func renameCarriedTables() throws(RemodelError) {
        var moves = changes.carriedTables.values.filter { !SQLName.identical($0.source, $0.destination) }.map {
            ($0.source, $0.destination)
        }
        moves += changes.carriedJoins.filter { !SQLName.identical($0.key, $0.value) }.map { ($0.value, $0.key) }
        try rename(moves.sorted { $0.1 < $1.1 }, inPlaceCaseChange: false) {
            (from: String, to: String) throws(RemodelError) in
            try connection.execute("ALTER TABLE main.\(quoteIdentifier(from)) RENAME TO \(quoteIdentifier(to))")
        }
    }

    /// Renames the columns of a carried table and adds its new ones. The columns it drops stay until its
    /// phases are done (``finishCarriedTables()``): a step's own source reads may still need them.
    private func alter(_ carried: StorageChanges.CarriedTable) throws(RemodelError) {
        let table = "main." + quoteIdentifier(carried.destination)
        try rename(carried.renamedColumns.map { ($0.from, $0.to) }, inPlaceCaseChange: true) {
            (from: String, to: String) throws(RemodelError) in
            try connection.execute(
                "ALTER TABLE \(table) RENAME COLUMN \(quoteIdentifier(from)) TO \(quoteIdentifier(to))")
        }
        guard let layoutTable = destination.tables.first(where: { $0.name == carried.destination }) else { return }
        // A new column: in the carried table's columns, from no source column. Generated ones last: they may read
        // another new one.
        let added = layoutTable.columns.filter { carried.columns[$0.name].map({ $0.column == nil }) == true }
        for column in added.filter({ $0.generated == nil }) + added.filter({ $0.generated != nil }) {
            try connection.execute("ALTER TABLE \(table) ADD COLUMN \(column.definitionSQL)")
        }
    }

    /// After phases 1 and 2: drops the columns carried tables lose and writes their constants.
    func finishCarriedTables() throws(RemodelError) {
        try connection.transaction { () throws(RemodelError) in
            for carried in changes.carriedTables.values.sorted(by: { $0.destination < $1.destination }) {
                try finish(carried)
            }
        }
    }

    private func finish(_ carried: StorageChanges.CarriedTable) throws(RemodelError) {
        let table = "main." + quoteIdentifier(carried.destination)
        // A generated column goes before the columns it reads: SQLite refuses to drop a column one reads.
        let sourceTable = source.table(named: carried.source)
        let generated = carried.droppedColumns.filter { sourceTable?.column(named: $0)?.generated != nil }
        for column in generated + carried.droppedColumns.filter({ !generated.contains($0) }) {
            try connection.execute("ALTER TABLE \(table) DROP COLUMN \(quoteIdentifier(column))")
        }
        guard let layoutTable = destination.tables.first(where: { $0.name == carried.destination }) else { return }
        for column in layoutTable.columns {
            for fill in carried.columns[column.name]?.fills ?? [] {
                let name = quoteIdentifier(column.name)
                try connection.run(
                    "UPDATE \(table) SET \(name) = ? WHERE \(StoreColumn.entity) IN (\(placeholders(fill.entities.count)))\(fill.onlyNulls ? " AND \(name) IS NULL" : "")",
                    [fill.value] + fill.entities.map(SQLiteValue.text))
            }
        }
    }

    /// Runs renames in two rounds, through `_remodel_moving_N`, so that names may be traded; in one round when no
    /// new name is a name being moved (SQLite compares names without case). A column may change only the case of
    /// its name in place (`inPlaceCaseChange`); SQLite refuses that of a table, which takes two rounds. Every
    /// `ALTER TABLE … RENAME` rewrites and parses the whole schema again: the renames of the benchmark's 96-version
    /// history, two rounds each, were 9% of its composed migration's CPU.
    private func rename(
        _ moves: [(String, String)], inPlaceCaseChange: Bool,
        _ apply: (_ from: String, _ to: String) throws(RemodelError) -> Void
    ) throws(RemodelError) {
        var mover: [SQLName: Int] = [:]
        for (offset, move) in moves.enumerated() { mover[SQLName(move.0)] = offset }
        let traded = moves.enumerated().contains { offset, move in
            guard let other = mover[SQLName(move.1)] else { return false }
            return other != offset || !inPlaceCaseChange
        }
        if !traded {
            for move in moves { try apply(move.0, move.1) }
            return
        }
        for (offset, move) in moves.enumerated() { try apply(move.0, "_remodel_moving_\(offset)") }
        for (offset, move) in moves.enumerated() { try apply("_remodel_moving_\(offset)", move.1) }
    }

    // MARK: - After the data

    /// Gives the rows of rebuilt tables the values of the app's columns, from the source object each row
    /// was made from.
    func copyAppColumns(keys: KeyPlan, from sources: TableReferences) throws(RemodelError) {
        for table in destination.tables where changes.isRebuilt(table.name) {
            let columns = rehearsal.appColumns(of: table.name)
            guard !columns.isEmpty else { continue }
            for feeder in (changes.feeders[table.name] ?? []).sorted() {
                // A generated column computes its values itself: it is declared again, never written.
                let present = Set((app.extraColumns[feeder] ?? []).map { SQLName($0.name) }).subtracting(
                    app.generatedColumns[feeder] ?? [])
                let own = columns.filter { present.contains(SQLName($0.name)) }.map { quoteIdentifier($0.name) }
                guard !own.isEmpty else { continue }
                let target = "main.\(quoteIdentifier(table.name))"
                // Only the rows made from this source table's objects: the others (another table merged into
                // this one) keep what their own source table gave them.
                let rows: String
                switch keys.mode(ofDestinationTable: table.name) {
                case .remapped?:
                    rows =
                        "main.\"_RemodelKeys\" AS k JOIN \(sources(feeder)) AS s ON s.\(StoreColumn.pk) = k.source_pk "
                        + "WHERE k.destination_table = \(quoteLiteral(table.name)) AND k.source_table = \(quoteLiteral(feeder)) "
                        + "AND k.destination_pk = \(target).\(StoreColumn.pk)"
                default:
                    rows = "\(sources(feeder)) AS s WHERE s.\(StoreColumn.pk) = \(target).\(StoreColumn.pk)"
                }
                try connection.execute(
                    "UPDATE \(target) SET (\(own.joined(separator: ", "))) = (\(own.map { "s.\($0)" }.joined(separator: ", "))) FROM \(rows)"
                )
            }
        }
    }

    /// The app's indexes that rebuilt tables lost, then its views and triggers, as they were: at the end of a pass.
    static func restoreAppObjects(_ app: AppSchema, on connection: SQLiteConnection) throws(RemodelError) {
        for index in app.modelTableIndexes {
            let exists = try connection.scalar(
                "SELECT count(*) FROM main.sqlite_master WHERE type = 'index' AND name = ?", [.text(index.name)])
            if exists != .integer(1) { try create(index, on: connection) }
        }
        for view in app.views { try create(view, on: connection) }
        for trigger in app.triggers { try create(trigger, on: connection) }
    }

    private static func create(_ object: AppSchema.Object, on connection: SQLiteConnection) throws(RemodelError) {
        do {
            try connection.execute(object.sql)
        } catch {
            throw RemodelError(
                .validationFailed,
                "the app's \(object.type) \(object.name) could not be created again on the migrated data (\(error.message)); the store was left as it was",
                entity: object.table, cause: error)
        }
    }
}
