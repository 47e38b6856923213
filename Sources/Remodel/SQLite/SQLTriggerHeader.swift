/// The header of a `CREATE TRIGGER` statement as SQLite keeps it: what comes before `BEGIN`, read token by
/// token (names in any of SQLite's quotes, strings, comments), for the column list of `UPDATE OF`, which
/// SQLite itself never checks against the table.
package struct SQLTriggerHeader {
    /// The columns of `UPDATE OF a, b` (unquoted), empty when the trigger fires on any update or another event.
    package private(set) var updatedColumns: [String] = []
    /// What fires it and when, as the header says it: `AFTER INSERT`, `BEFORE UPDATE OF`, `DELETE` (SQLite's
    /// default time, `BEFORE`, is not written); empty when the header names no event.
    package private(set) var event = ""
    /// Whether an update fires it (of any column, or of one of ``updatedColumns``).
    package var firesOnUpdate: Bool { event.hasSuffix("UPDATE") || event.hasSuffix("UPDATE OF") }

    /// Reads the header; `nil` when the text has no `UPDATE OF … ON` this reader follows and is not a trigger.
    package init?(_ sql: String) {
        let tokens = Self.tokens(sql)
        guard tokens.first?.text.uppercased() == "CREATE" else { return nil }
        var index = 0
        var time = ""
        while index + 1 < tokens.count {
            let word = tokens[index]
            let upper = word.isQuoted ? "" : word.text.uppercased()
            if upper == "BEGIN" { break }
            if event.isEmpty {
                switch upper {
                case "BEFORE", "AFTER": time = upper + " "
                case "INSTEAD": time = "INSTEAD OF "
                case "INSERT", "DELETE": event = time + upper
                case "UPDATE": event = time + (tokens[index + 1].text.uppercased() == "OF" ? "UPDATE OF" : "UPDATE")
                default: break
                }
            }
            if !word.isQuoted && word.text.uppercased() == "UPDATE", !tokens[index + 1].isQuoted,
                tokens[index + 1].text.uppercased() == "OF"
            {
                index += 2
                while index < tokens.count {
                    let name = tokens[index]
                    if !name.isQuoted && name.text.uppercased() == "ON" { break }
                    if name.isQuoted || name.text != "," { updatedColumns.append(name.text) }
                    index += 1
                }
                break
            }
            index += 1
        }
    }

    private struct Token {
        var text: String
        var isQuoted: Bool
    }

    /// Words, quoted names (unquoted) and single characters; strings and comments left out.
    private static func tokens(_ sql: String) -> [Token] {
        let characters = Array(sql.unicodeScalars)
        var tokens: [Token] = []
        var index = 0
        func isWord(_ scalar: Unicode.Scalar) -> Bool {
            scalar == "_" || scalar == "$" || scalar.properties.isAlphabetic || ("0"..."9").contains(scalar)
                || scalar.value > 127
        }
        while index < characters.count {
            let character = characters[index]
            switch character {
            case " ", "\t", "\n", "\r":
                index += 1
            case "-" where index + 1 < characters.count && characters[index + 1] == "-":
                while index < characters.count, characters[index] != "\n" { index += 1 }
            case "/" where index + 1 < characters.count && characters[index + 1] == "*":
                index += 2
                while index + 1 < characters.count, !(characters[index] == "*" && characters[index + 1] == "/") {
                    index += 1
                }
                index += 2
            case "'", "\"", "`", "[":
                let close: Unicode.Scalar = character == "[" ? "]" : character
                var text = String.UnicodeScalarView()
                index += 1
                while index < characters.count {
                    if characters[index] == close {
                        // A doubled quote inside a quoted name or string stands for the quote itself.
                        if close != "]", index + 1 < characters.count, characters[index + 1] == close {
                            text.append(close)
                            index += 2
                            continue
                        }
                        break
                    }
                    text.append(characters[index])
                    index += 1
                }
                index += 1
                if character != "'" { tokens.append(Token(text: String(text), isQuoted: true)) }
            default:
                if isWord(character) {
                    var text = String.UnicodeScalarView()
                    while index < characters.count, isWord(characters[index]) {
                        text.append(characters[index])
                        index += 1
                    }
                    tokens.append(Token(text: String(text), isQuoted: false))
                } else {
                    tokens.append(Token(text: String(character), isQuoted: false))
                    index += 1
                }
            }
        }
        return tokens
    }
}
