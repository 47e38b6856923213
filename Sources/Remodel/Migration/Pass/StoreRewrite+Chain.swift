/// A step that follows another in the same pass reads that step's result in the file both write: the
/// tables it rebuilds or drops are renamed aside first (so the rebuilt tables can take their names), its
/// carried tables are read where they are, through views where it renames their columns, and what it set
/// aside is dropped once its phases have read it.
extension StoreRewrite {
    /// Where a chained step's source tables are, and what it must drop once its phases are done.
    struct ChainedSource {
        /// The step's source tables.
        var tables: TableReferences
        /// The tables renamed aside and the views made for it.
        var setAside: [String] = []
        var views: [String] = []
    }

    /// Before ``prepare()``: renames every source table the step does not carry to `_remodel_prior_N`, after
    /// dropping its indexes (the rebuilt table builds its own under the same names). Other tables keep
    /// their references to it as they are (`legacy_alter_table`): an app's `REFERENCES Person` names the
    /// rebuilt `Person` afterwards, as in a step that reads the store being migrated. A table rebuilt under a
    /// new name (``StorageChanges/rebuiltRenames()``) is first renamed to it, references and all.
    func setAside() throws(RemodelError) -> ChainedSource {
        let carriedSources = Set(changes.carriedTables.values.map(\.source)).union(changes.carriedJoins.values)
        let names = source.tables.map(\.name) + source.joinTables.map(\.name)
        let renames = changes.rebuiltRenames()
        // Those renamed last: a new name may be that of a table set aside before it.
        let order = names.filter { renames[$0] == nil } + names.filter { renames[$0] != nil }
        var result = ChainedSource(tables: .destination)
        do {
            try connection.transaction { () throws(RemodelError) in
                for name in order where !carriedSources.contains(name) {
                    let indexes = try connection.rows(
                        "SELECT name FROM main.sqlite_master WHERE type = 'index' AND tbl_name = ? COLLATE NOCASE AND sql IS NOT NULL",
                        [.text(name)])
                    for case .text(let index) in indexes.map({ $0[0] }) {
                        try connection.execute("DROP INDEX main.\(quoteIdentifier(index))")
                    }
                    var current = name
                    if let renamed = renames[name] {
                        try connection.execute(
                            "ALTER TABLE main.\(quoteIdentifier(name)) RENAME TO \(quoteIdentifier(renamed))")
                        current = renamed
                    }
                    let prior = "_remodel_prior_\(result.setAside.count)"
                    try connection.execute("PRAGMA legacy_alter_table = ON")
                    try connection.execute(
                        "ALTER TABLE main.\(quoteIdentifier(current)) RENAME TO \(quoteIdentifier(prior))")
                    try connection.execute("PRAGMA legacy_alter_table = OFF")
                    result.tables.elsewhere[SQLName(name)] = "main.\(quoteIdentifier(prior))"
                    result.setAside.append(prior)
                }
            }
        } catch {
            try? connection.execute("PRAGMA legacy_alter_table = OFF")
            throw error
        }
        return result
    }

    /// After ``prepare()``: the carried tables it renamed are read under their new names, through a view
    /// that gives their columns the source names where it renamed columns.
    func readCarriedTables(_ chained: inout ChainedSource) throws(RemodelError) {
        for carried in changes.carriedTables.values.sorted(by: { $0.destination < $1.destination }) {
            let renamed = carried.renamedColumns
            guard !SQLName.identical(carried.source, carried.destination) || !renamed.isEmpty else { continue }
            guard !renamed.isEmpty, let table = source.tables.first(where: { $0.name == carried.source }) else {
                chained.tables.elsewhere[SQLName(carried.source)] = "main.\(quoteIdentifier(carried.destination))"
                continue
            }
            var now: [String: String] = [:]
            for (from, to) in renamed { now[from] = to }
            let columns = table.columns.map { column in
                now[column.name].map { "\(quoteIdentifier($0)) AS \(quoteIdentifier(column.name))" }
                    ?? quoteIdentifier(column.name)
            }
            let view = "_remodel_source_\(chained.views.count)"
            try connection.execute(
                "CREATE TEMP VIEW \(quoteIdentifier(view)) AS SELECT \(columns.joined(separator: ", ")) FROM main.\(quoteIdentifier(carried.destination))"
            )
            chained.tables.elsewhere[SQLName(carried.source)] = "temp.\(quoteIdentifier(view))"
            chained.views.append(view)
        }
        for (destination, from) in changes.carriedJoins where !SQLName.identical(destination, from) {
            chained.tables.elsewhere[SQLName(from)] = "main.\(quoteIdentifier(destination))"
        }
    }

    /// After phases 1 and 2: drops what ``setAside()`` and ``readCarriedTables(_:)`` made.
    func dropSetAside(_ chained: ChainedSource) throws(RemodelError) {
        for view in chained.views { try connection.execute("DROP VIEW temp.\(quoteIdentifier(view))") }
        try connection.transaction { () throws(RemodelError) in
            for table in chained.setAside { try connection.execute("DROP TABLE main.\(quoteIdentifier(table))") }
        }
    }
}
