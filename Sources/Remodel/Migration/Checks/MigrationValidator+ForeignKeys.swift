/// Phase 3: SQLite's foreign key check, over what the step wrote.
///
/// Remodel's own tables declare no foreign keys: the ones checked here are the app's (its own tables,
/// columns it added with `REFERENCES`). The check covers the tables with foreign keys that the step wrote,
/// and those whose parent table it wrote, and reports only the rows that did not already dangle in the
/// store the step read: keys the app left dangling (an app that never turned foreign keys on) are its data,
/// carried as they are, never a reason to refuse a step that did not touch them (DESIGN.md, Migration 4).
extension MigrationValidator {
    /// Rows the step left referencing a missing parent row, each named by the app's table, row and key.
    func foreignKeyFailures() throws(RemodelError) -> [ValidationFailure] {
        let written = Set(writtenTables.map(SQLName.init))
        var children: [String] = []
        var seen: Set<SQLName> = []
        // Only a table whose text says REFERENCES has a foreign key: the others are not asked for their list,
        // which costs a schema lookup each (a pass of 95 steps over 50 tables spent 8 % of its time there).
        let keys = try connection.rows(
            """
            SELECT m.name, p."table" FROM main.sqlite_master AS m JOIN pragma_foreign_key_list(m.name, 'main') AS p
            WHERE m.type = 'table' AND lower(m.sql) LIKE '%references%' ORDER BY m.name
            """)
        for row in keys {
            guard case .text(let child) = row[0], case .text(let parent) = row[1] else { continue }
            let inScope =
                checksWholeFile || written.contains(SQLName(child)) || written.contains(SQLName(parent))
            if inScope, seen.insert(SQLName(child)).inserted { children.append(child) }
        }
        var failures: [ValidationFailure] = []
        for child in children {
            let before = try danglingRows(of: child, schema: TableReferences.sourceSchema)
            for row in try connection.rows("PRAGMA main.foreign_key_check(\(quoteIdentifier(child)))") {
                guard case .text(let parent) = row[2] else { continue }
                let rowid = row[1].integerValue
                // The same row and key (by its position: the parent may have been renamed) dangled before.
                if let rowid, before.contains(Dangling(rowid: rowid, key: row[3].integerValue)) { continue }
                let columns = try keyColumns(of: child, id: row[3].integerValue)
                failures.append(
                    ValidationFailure(
                        entity: child, primaryKey: nil, property: columns.first, rule: .foreignKeyCheck,
                        message:
                            "row \(rowid.map(String.init) ?? "?") of the app's table \(child) references a missing row of \(parent) (its foreign key \(columns.joined(separator: ", ")) → \(parent)): the step removed or re-keyed the object it pointed to; delete or change that row (or its foreign key) before migrating"
                    ))
                if failures.count >= Self.offendersInAll { return failures }
            }
        }
        return failures
    }

    private struct Dangling: Hashable {
        var rowid: Int64
        var key: Int64?
    }

    /// The rows of `table` that already dangled in the store the step read (none when it has no such table).
    private func danglingRows(of table: String, schema: String) throws(RemodelError) -> Set<Dangling> {
        guard try connection.scalar("SELECT 1 FROM pragma_database_list WHERE name = ?", [.text(schema)]) != nil,
            try connection.tableExists(table, schema: schema)
        else { return [] }
        var rows: Set<Dangling> = []
        for row in try connection.rows("PRAGMA \(quoteIdentifier(schema)).foreign_key_check(\(quoteIdentifier(table)))")
        {
            if let rowid = row[1].integerValue { rows.insert(Dangling(rowid: rowid, key: row[3].integerValue)) }
        }
        return rows
    }

    private func keyColumns(of table: String, id: Int64?) throws(RemodelError) -> [String] {
        guard let id else { return [] }
        return try connection.rows(
            "SELECT \"from\" FROM pragma_foreign_key_list(?, 'main') WHERE id = ? ORDER BY seq",
            [.text(table), .integer(id)]
        )
        .compactMap { row -> String? in
            if case .text(let name) = row[0] { return name }
            return nil
        }
    }
}
