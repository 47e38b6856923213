internal import RemodelSQLite

/// Turns an SQLite failure while a pass builds its store into a refusal a person can act on: it names the
/// app's object at fault (a unique index the step's values break), the entity and attribute, and what to do,
/// never the temporary `.remodel-migrating` file (the migrator names the store itself).
enum StepFailure {
    /// `error` explained, reading the schema of the pass's copy at `copyPath` (still there when this runs)
    /// to name a unique index SQLite refused. Errors that are not SQLite's pass unchanged.
    static func explained(_ error: RemodelError, copyPath: String, stepName: String) -> RemodelError {
        guard error.code == .sqlite, error.sqliteCode.map({ $0 & 0xFF }) != SQLITE_FULL else { return error }
        let reason = Self.reason(of: error)
        if error.sqliteCode == 2067,
            let explained = uniqueIndexFailure(error, reason: reason, copyPath: copyPath, stepName: stepName)
        {
            return explained
        }
        if error.sqliteCode == 275,
            let explained = checkFailure(error, reason: reason, copyPath: copyPath, stepName: stepName)
        {
            return explained
        }
        var explained = RemodelError(
            .sqlite,
            "SQLite refused what \(stepName) writes (\(reason)), so the store was left as it was; if the store holds tables, triggers or constraints the app added, check that they allow the new version's data (`sqlite3 STORE .schema`), else report this with the store's schema",
            entity: error.entity, property: error.property, primaryKey: error.primaryKey, cause: error)
        explained.sqliteCode = error.sqliteCode
        return explained
    }

    /// SQLite's own words, without the code and the statement.
    private static func reason(of error: RemodelError) -> String {
        var reason = error.message.components(separatedBy: " - while").first ?? error.message
        if reason.hasPrefix("SQLite error"), let colon = reason.range(of: ": ") {
            reason = String(reason[colon.upperBound...])
        }
        return reason
    }

    /// `CHECK constraint failed: <expression or name>`: the table whose definition holds it (Remodel's own
    /// tables have no `CHECK`, so it is the app's).
    private static func checkFailure(_ error: RemodelError, reason: String, copyPath: String, stepName: String)
        -> RemodelError?
    {
        let prefix = "CHECK constraint failed: "
        guard reason.hasPrefix(prefix) else { return nil }
        let check = String(reason.dropFirst(prefix.count))
        guard let connection = try? SQLiteConnection(path: copyPath, mode: .readOnly),
            let tables = try? connection.rows(
                "SELECT name, sql FROM sqlite_master WHERE type = 'table' AND sql IS NOT NULL ORDER BY name")
        else { return nil }
        for row in tables {
            guard case .text(let table) = row[0], case .text(let sql) = row[1], sql.contains(check) else { continue }
            return RemodelError(
                .validationFailed,
                "the app's CHECK constraint (\(check)) on table \(table) does not allow what \(stepName) writes there, so SQLite refused it and the store was left as it was. Change or drop the constraint before migrating (it may name a column whose type or values the new version changes) and add it again after",
                entity: table, cause: error)
        }
        return nil
    }

    /// `UNIQUE constraint failed: Person.nick, Person.email`: the index of `Person` on exactly those columns.
    private static func uniqueIndexFailure(_ error: RemodelError, reason: String, copyPath: String, stepName: String)
        -> RemodelError?
    {
        let prefix = "UNIQUE constraint failed: "
        guard reason.hasPrefix(prefix) else { return nil }
        let qualified = reason.dropFirst(prefix.count).components(separatedBy: ", ")
        let parts = qualified.map { $0.split(separator: ".", maxSplits: 1).map(String.init) }
        guard let table = parts.first?.first, parts.allSatisfy({ $0.count == 2 && SQLName.identical($0[0], table) })
        else { return nil }
        let columns = parts.map { $0[1] }
        guard let connection = try? SQLiteConnection(path: copyPath, mode: .readOnly),
            let indexes = try? connection.rows(
                "SELECT name FROM sqlite_master WHERE type = 'index' AND tbl_name = ? COLLATE NOCASE AND sql IS NOT NULL ORDER BY name",
                [.text(table)])
        else { return nil }
        for row in indexes {
            guard case .text(let index) = row[0],
                let keyRows = try? connection.rows(
                    "SELECT name FROM pragma_index_info(?) ORDER BY seqno", [.text(index)])
            else { continue }
            let keys = keyRows.compactMap { row -> SQLName? in
                if case .text(let name) = row[0] { return SQLName(name) }
                return nil
            }
            guard keys == columns.map(SQLName.init) else { continue }
            let list = columns.joined(separator: ", ")
            let attribute = columns.count == 1 ? "attribute \(table).\(list)" : "attributes \(list) of \(table)"
            let owner =
                index.hasPrefix("_")
                ? "the model's uniqueness constraint (index \(index))" : "the app's unique index \(index)"
            return RemodelError(
                .validationFailed,
                "\(owner) on \(table) (\(list)) does not allow the values \(stepName) gives \(attribute): several objects get the same value (a default filled in, or a mapping's value), so SQLite refused them (\(reason)) and the store was left as it was. Give those objects values that differ (in a mapping file), or drop the index before migrating and create it again after",
                entity: table, property: columns.first, cause: error)
        }
        return nil
    }
}
