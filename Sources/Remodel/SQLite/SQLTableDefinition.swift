import Foundation

/// The column definitions of a `CREATE TABLE` statement as SQLite keeps it in `sqlite_master` (columns an
/// app added with `ALTER TABLE … ADD COLUMN` are appended there), so that a table rebuilt by a migration
/// can declare an app's own columns exactly as the app did: type, `DEFAULT`, `CHECK`, `COLLATE`, ….
package struct SQLTableDefinition {
    /// Each column's name (unquoted) and its whole definition text, in order.
    private(set) var columns: [(name: String, definition: String)] = []

    /// Reads the definitions; `nil` when the text is not a `CREATE TABLE … ( … )` this reader follows.
    package init?(_ sql: String) {
        let characters = Array(sql.unicodeScalars)
        guard let open = characters.firstIndex(of: "(") else { return nil }
        var parts: [String] = []
        var depth = 0
        var current = ""
        var index = open + 1
        var closed = false
        while index < characters.count {
            let character = characters[index]
            switch character {
            case "'", "\"", "`", "[":
                let close: Unicode.Scalar = character == "[" ? "]" : character
                var end = index + 1
                while end < characters.count {
                    if characters[end] == close {
                        // A doubled quote inside a quoted name or string stands for the quote itself.
                        if close != "]", end + 1 < characters.count, characters[end + 1] == close {
                            end += 2
                            continue
                        }
                        break
                    }
                    end += 1
                }
                current.unicodeScalars.append(contentsOf: characters[index...min(end, characters.count - 1)])
                index = end + 1
                continue
            case "-" where index + 1 < characters.count && characters[index + 1] == "-":
                while index < characters.count, characters[index] != "\n" { index += 1 }
                continue
            case "/" where index + 1 < characters.count && characters[index + 1] == "*":
                index += 2
                while index + 1 < characters.count, !(characters[index] == "*" && characters[index + 1] == "/") {
                    index += 1
                }
                index += 2
                continue
            case "(":
                depth += 1
            case ")":
                if depth == 0 {
                    closed = true
                    parts.append(current)
                    index = characters.count
                    continue
                }
                depth -= 1
            case "," where depth == 0:
                parts.append(current)
                current = ""
                index += 1
                continue
            default:
                break
            }
            current.unicodeScalars.append(character)
            index += 1
        }
        guard closed else { return nil }
        let constraints = Set(["constraint", "primary", "unique", "check", "foreign"].map(SQLName.init))
        for part in parts {
            let definition = part.trimmingSpacesAndNewlines()
            guard let name = Self.leadingName(definition),
                !constraints.contains(SQLName(name)) || definition.first == "\""
            else {
                continue
            }
            columns.append((name, definition))
        }
    }

    /// The definition of a column, matched as SQLite matches names (ASCII letters in any case).
    package func definition(of column: String) -> String? {
        columns.first { SQLName.same($0.name, column) }?.definition
    }

    /// The first token of a definition as a name: quoted (any of SQLite's quotes) or bare.
    private static func leadingName(_ text: String) -> String? {
        guard let first = text.unicodeScalars.first else { return nil }
        let close: Unicode.Scalar?
        switch first {
        case "\"": close = "\""
        case "`": close = "`"
        case "[": close = "]"
        default: close = nil
        }
        if let close {
            var name = ""
            var iterator = text.unicodeScalars.dropFirst().makeIterator()
            while let scalar = iterator.next() {
                if scalar == close {
                    if close != "]", let next = iterator.next() {
                        if next == close {
                            name.unicodeScalars.append(close)
                            continue
                        }
                    }
                    return name
                }
                name.unicodeScalars.append(scalar)
            }
            return nil
        }
        let name = text.unicodeScalars.prefix { !PlainText.isSpaceOrNewline($0) && $0 != "(" }
        return name.isEmpty ? nil : String(String.UnicodeScalarView(name))
    }
}
