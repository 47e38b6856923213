extension StoreLayout {
    /// `CREATE TABLE` statements for every hierarchy table and join table, without indexes.
    package var createTablesSQL: [String] {
        tables.map(\.createSQL) + joinTables.map(\.createSQL)
    }

    /// `CREATE INDEX` statements, to run after a bulk load.
    var createIndexesSQL: [String] {
        indexes.map(\.createSQL)
    }
}

extension StoreLayout.Table {
    /// `CREATE TABLE` for this table.
    package var createSQL: String {
        "CREATE TABLE \(quoteIdentifier(name)) (" + columns.map(\.definitionSQL).joined(separator: ", ") + ")"
    }
}

extension StoreLayout.JoinTable {
    /// `CREATE TABLE` for this join table.
    package var createSQL: String {
        let source = quoteIdentifier(Self.sourceColumn)
        let destination = quoteIdentifier(Self.destinationColumn)
        return "CREATE TABLE \(quoteIdentifier(name)) (\(source) INTEGER NOT NULL, \(destination) INTEGER NOT NULL, "
            + "\(quoteIdentifier(Self.sourceOrderColumn)) INTEGER, \(quoteIdentifier(Self.destinationOrderColumn)) INTEGER, "
            + "PRIMARY KEY (\(source), \(destination)))"
    }
}

extension StoreLayout.Index {
    /// `CREATE [UNIQUE] INDEX IF NOT EXISTS` for this index. A partial index names its entities as
    /// SQL string literals: DDL takes no bound parameters.
    package var createSQL: String {
        let columns = keys.map { $0.sql + ($0.ascending ? "" : " DESC") }.joined(separator: ", ")
        var sql =
            "CREATE \(isUnique ? "UNIQUE " : "")INDEX IF NOT EXISTS \(quoteIdentifier(name)) ON \(quoteIdentifier(table)) (\(columns))"
        if let entities {
            sql +=
                " WHERE \(quoteIdentifier(StoreColumn.entity)) IN ("
                + entities.map(quoteLiteral).joined(separator: ", ") + ")"
        }
        return sql
    }
}
