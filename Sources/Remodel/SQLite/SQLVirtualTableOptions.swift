import Foundation

/// The `key=value` arguments of a `CREATE VIRTUAL TABLE … USING module(…)` statement, such as an FTS index's
/// `content='Note'` and `content_rowid='_pk'`: SQLite keeps them as text and never rewrites them.
package struct SQLVirtualTableOptions {
    /// Each option's value, unquoted, by key (SQLite reads keys as it compares names: ASCII letters in any case).
    private var values: [SQLName: String] = [:]
    /// The module's name, ASCII letters lowercased (`fts5`): the word before the argument list.
    private(set) var module = ""
    /// The arguments that set no option, trimmed (an FTS index's columns: `title`, `body UNINDEXED`).
    private(set) var columns: [String] = []

    /// Reads the options; `nil` when the text has no argument list.
    package init?(_ sql: String) {
        let characters = Array(sql.unicodeScalars)
        guard let open = Self.argumentListStart(characters), let close = characters.lastIndex(of: ")"), open < close
        else { return nil }
        var word = String.UnicodeScalarView()
        for character in characters[..<open].reversed() {
            if character.properties.isWhitespace { if word.isEmpty { continue } else { break } }
            word.insert(character, at: word.startIndex)
        }
        module = SQLName.folded(Self.unquoted(String(word)))
        var arguments: [String] = []
        var current = String.UnicodeScalarView()
        var quote: Unicode.Scalar?
        var depth = 0
        for character in characters[(open + 1)..<close] {
            if let open = quote {
                current.append(character)
                if character == (open == "[" ? "]" : open) { quote = nil }
                continue
            }
            switch character {
            case "'", "\"", "`", "[":
                quote = character
                current.append(character)
            case "(":
                depth += 1
                current.append(character)
            case ")":
                depth -= 1
                current.append(character)
            case "," where depth == 0:
                arguments.append(String(current))
                current = String.UnicodeScalarView()
            default:
                current.append(character)
            }
        }
        arguments.append(String(current))
        for argument in arguments {
            let parts = argument.split(separator: "=", maxSplits: 1).map { $0.trimmingCharacters(in: .whitespaces) }
            guard parts.count == 2 else {
                if let column = parts.first, !column.isEmpty { columns.append(column) }
                continue
            }
            values[SQLName(Self.unquoted(parts[0]))] = Self.unquoted(parts[1])
        }
    }

    /// The first `(` outside quotes: a table's name may hold one (`"notes (old)"`).
    private static func argumentListStart(_ characters: [Unicode.Scalar]) -> Int? {
        var quote: Unicode.Scalar?
        for (index, character) in characters.enumerated() {
            if let open = quote {
                if character == (open == "[" ? "]" : open) { quote = nil }
                continue
            }
            switch character {
            case "'", "\"", "`", "[": quote = character
            case "(": return index
            default: continue
            }
        }
        return nil
    }

    /// Whether the module is one of SQLite's full-text indexes (FTS3, FTS4, FTS5).
    package var isFullTextIndex: Bool { ["fts3", "fts4", "fts5"].contains(module) }

    /// The value of an option (`content`), unquoted; `nil` when the statement does not set it.
    package func value(of key: String) -> String? { values[SQLName(key)] }

    /// A name or string without its quotes (a doubled quote inside stands for itself).
    private static func unquoted(_ text: String) -> String {
        guard let first = text.first, let last = text.last, text.count >= 2 else { return text }
        switch (first, last) {
        case ("'", "'"), ("\"", "\""), ("`", "`"):
            return String(text.dropFirst().dropLast()).replacingOccurrences(of: "\(first)\(first)", with: "\(first)")
        case ("[", "]"):
            return String(text.dropFirst().dropLast())
        default:
            return text
        }
    }
}
