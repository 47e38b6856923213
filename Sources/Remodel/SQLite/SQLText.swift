/// The few ways Remodel writes names and values into SQL text. Values are bound (`?`) wherever SQLite
/// takes them; names are quoted, and literals are spliced only where SQL takes no bound value (DDL).

/// Quotes an SQL identifier (table, column, index name): the only way Remodel puts a name into SQL text.
package func quoteIdentifier(_ name: String) -> String {
    "\"" + name.replacingOccurrences(of: "\"", with: "\"\"") + "\""
}

/// Quotes an SQL string literal, for the few places SQL cannot take a bound value (DDL).
package func quoteLiteral(_ text: String) -> String {
    "'" + text.replacingOccurrences(of: "'", with: "''") + "'"
}

/// `?, ?, ?` for `count` bound values (`NULL` for none, so `IN ()` never appears).
package func placeholders(_ count: Int) -> String {
    count == 0 ? "NULL" : Array(repeating: "?", count: count).joined(separator: ", ")
}

/// `?, ?, ?` for a list of texts, appending them to `parameters` to bind.
package func placeholders(_ values: [String], _ parameters: inout [SQLiteValue]) -> String {
    parameters += values.map(SQLiteValue.text)
    return placeholders(values.count)
}
