/// The few ways Remodel writes names and values into SQL text. Values are bound (`?`) wherever SQLite
/// takes them; names are quoted, and literals are spliced only where SQL takes no bound value (DDL).

/// Quotes an SQL identifier (table, column, index name): the only way Remodel puts a name into SQL text.
package func quoteIdentifier(_ name: String) -> String {
    "\"" + doubling(UInt8(ascii: "\""), in: name) + "\""
}

/// Quotes an SQL string literal, for the few places SQL cannot take a bound value (DDL).
package func quoteLiteral(_ text: String) -> String {
    "'" + doubling(UInt8(ascii: "'"), in: text) + "'"
}

/// `text` with every `quote` (an ASCII byte, so never part of another character in UTF-8) written twice, as SQL
/// escapes it between its quotes. Most names hold none and come back as they are: a migration quotes thousands
/// of names, and Foundation's `replacingOccurrences` was 2 % of a long history's CPU.
private func doubling(_ quote: UInt8, in text: String) -> String {
    let utf8 = text.utf8
    guard utf8.contains(quote) else { return text }
    var bytes: [UInt8] = []
    bytes.reserveCapacity(utf8.count + 2)
    for byte in utf8 {
        bytes.append(byte)
        if byte == quote { bytes.append(quote) }
    }
    return String(decoding: bytes, as: UTF8.self)
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
