/// The few text edits a migration makes on its way — trimming white space, replacing a character or a piece of
/// SQL — without Foundation, whose string code would otherwise be mapped into every migrating process.
/// `PlainTextTests` holds each to Foundation's answer.
extension StringProtocol {
    /// The text without the spaces and tabs at its ends, by Unicode scalar, as
    /// `trimmingCharacters(in: .whitespaces)` has it (see ``PlainText/isSpace(_:)``).
    package func trimmingSpaces() -> String {
        trimmingScalars(where: PlainText.isSpace)
    }

    /// The text without white space and line ends at its ends, by Unicode scalar, as
    /// `trimmingCharacters(in: .whitespacesAndNewlines)` has it (see ``PlainText/isSpaceOrNewline(_:)``).
    package func trimmingSpacesAndNewlines() -> String {
        trimmingScalars(where: PlainText.isSpaceOrNewline)
    }

    private func trimmingScalars(where isTrimmed: (Unicode.Scalar) -> Bool) -> String {
        let scalars = String(self).unicodeScalars
        guard let first = scalars.firstIndex(where: { !isTrimmed($0) }) else { return "" }
        let last = scalars.lastIndex(where: { !isTrimmed($0) }) ?? first
        return String(Substring(scalars[first...last]))
    }

    /// The text with every `character` replaced by `replacement`, comparing whole characters as
    /// `replacingOccurrences(of:with:)` does for a one-character target: a quote that a combining mark follows is
    /// another character, and stays.
    package func replacingCharacter(_ character: Character, with replacement: String) -> String {
        guard contains(character) else { return String(self) }
        var result = ""
        result.reserveCapacity(utf8.count + replacement.utf8.count)
        for each in self {
            if each == character { result += replacement } else { result.append(each) }
        }
        return result
    }
}

extension String {
    /// The text with every occurrence of `target` replaced by `replacement`, byte for byte in UTF-8, from the
    /// start and without overlaps: for SQL and templates, where every occurrence is meant, whatever follows it.
    package func replacingEvery(_ target: String, with replacement: String) -> String {
        let needle = Array(target.utf8)
        guard let head = needle.first else { return self }
        let bytes = Array(utf8)
        var result: [UInt8] = []
        var index = 0
        var copied = 0
        while index + needle.count <= bytes.count {
            if bytes[index] == head, bytes[index..<(index + needle.count)].elementsEqual(needle) {
                if result.isEmpty { result.reserveCapacity(bytes.count + replacement.utf8.count) }
                result += bytes[copied..<index]
                result += replacement.utf8
                index += needle.count
                copied = index
            } else {
                index += 1
            }
        }
        guard copied > 0 else { return self }
        result += bytes[copied...]
        return String(decoding: result, as: UTF8.self)
    }
}

/// Foundation's white space sets, written out (`PlainTextTests` compares them with Foundation's on every scalar).
package enum PlainText {
    /// `CharacterSet.whitespaces`: general category Zs, U+0009, and U+200B (zero width space, which Foundation
    /// keeps from Unicode before 4.0.1).
    static func isSpace(_ scalar: Unicode.Scalar) -> Bool {
        switch scalar.value {
        case 0x09, 0x20, 0xA0, 0x1680, 0x2000...0x200B, 0x202F, 0x205F, 0x3000: return true
        default: return false
        }
    }

    /// `CharacterSet.whitespacesAndNewlines`: ``isSpace(_:)``, general categories Zl and Zp, U+000A–U+000D and U+0085.
    package static func isSpaceOrNewline(_ scalar: Unicode.Scalar) -> Bool {
        switch scalar.value {
        case 0x0A...0x0D, 0x85, 0x2028, 0x2029: return true
        default: return isSpace(scalar)
        }
    }
}

extension Array where Element == String {
    /// The names as a sentence lists them: `a`, `a and b`, `a, b and c` (or `or` in place of `and`).
    package func listed(_ conjunction: String = "and") -> String {
        guard let last, count > 1 else { return last ?? "" }
        return dropLast().joined(separator: ", ") + " \(conjunction) " + last
    }
}
