import Foundation

/// The names a Swift file declares and uses, read without a compiler: enough to see which folders a
/// file depends on. Comments and the text of string literals are left out (the code inside an
/// interpolation is kept).
struct SwiftSourceNames {
    /// Types declared at the top level of the file (`struct`, `class`, `enum`, `protocol`, `actor`,
    /// `typealias`).
    var declaredTypes: Set<String> = []
    /// `Type.member` for each static member declared in an `extension Type` of the file.
    var declaredStaticMembers: Set<String> = []
    /// Every capitalised identifier the code uses.
    var usedTypes: Set<String> = []
    /// Every `Type.member` the code writes.
    var usedMembers: Set<String> = []
    /// Every name the file declares with `func`, `var`, `let` or `case`, at any depth.
    var declaredNames: Set<String> = []
    /// `Type.member` for each member (static or not) declared in an `extension Type` of the file:
    /// `SQLiteValue.integerValue` for `extension SQLiteValue { var integerValue … }`.
    var extensionMembers: Set<String> = []
    /// The functions declared at the top level of the file (`groupedDigits`).
    var topLevelFunctions: Set<String> = []
    /// The lowercase names the code reaches without a type in front: after a dot (`value.integerValue`,
    /// `.integerValue`) or called bare (`groupedDigits(3)`, a static member called from inside its type).
    var usedMemberNames: Set<String> = []

    init(source: String) {
        let code = Self.code(of: source)
        var extendedType: String?
        for line in code.split(separator: "\n", omittingEmptySubsequences: false) {
            let isTopLevel = !(line.first?.isWhitespace ?? true)
            let words = Self.words(in: line)
            if isTopLevel {
                extendedType = nil
                if let index = words.firstIndex(where: Self.declarationKeywords.contains), index + 1 < words.count {
                    let keyword = words[index]
                    if keyword == "extension" {
                        extendedType = words[index + 1]
                    } else if words[index + 1].first?.isUppercase == true {
                        declaredTypes.insert(words[index + 1])
                    }
                }
            } else if let extendedType, let index = words.firstIndex(of: "static"), index + 2 < words.count,
                ["func", "var", "let"].contains(words[index + 1])
            {
                declaredStaticMembers.insert("\(extendedType).\(words[index + 2])")
            }
            for word in words where word.first?.isUppercase == true { usedTypes.insert(word) }
            if let index = words.firstIndex(where: ["func", "var", "let", "case"].contains), index + 1 < words.count,
                words[..<index].allSatisfy(Self.modifiers.contains)
            {
                let name = words[index + 1]
                declaredNames.insert(name)
                // A function's parameters are names of its own too (`_ check: () -> …` called as `check()`).
                if words[index] == "func" { declaredNames.formUnion(Self.labels(in: line)) }
                if isTopLevel, words[index] == "func" { topLevelFunctions.insert(name) }
                if let extendedType, line.hasPrefix("    "), !line.hasPrefix("     ") {
                    extensionMembers.insert("\(extendedType).\(name)")
                }
            }
        }
        usedMembers = Self.memberReferences(in: code)
        usedMemberNames = Self.lowercaseReferences(in: code)
    }

    /// The identifiers a line writes just before a `:` (a function's parameter names and labels).
    private static func labels(in line: Substring) -> Set<String> {
        var labels: Set<String> = []
        var current = ""
        for character in line {
            if isIdentifier(character) {
                current.append(character)
                continue
            }
            if character == ":", !current.isEmpty { labels.insert(current) }
            current = ""
        }
        return labels
    }

    private static let modifiers: Set<String> = [
        "public", "package", "internal", "private", "fileprivate", "static", "final", "override", "mutating",
        "nonmutating", "nonisolated", "lazy", "weak", "unowned", "indirect", "dynamic", "open", "class", "convenience",
    ]

    /// Lowercase identifiers after a `.`, or followed by `(` (a call), that are not keywords.
    private static func lowercaseReferences(in code: String) -> Set<String> {
        var found: Set<String> = []
        let characters = Array(code)
        var index = 0
        while index < characters.count {
            guard characters[index].isLowercase, index == 0 || !isIdentifier(characters[index - 1]) else {
                index += 1
                continue
            }
            var end = index
            while end < characters.count, isIdentifier(characters[end]) { end += 1 }
            let afterDot = index > 0 && characters[index - 1] == "."
            let called = end < characters.count && characters[end] == "("
            let name = String(characters[index..<end])
            if (afterDot || called) && !Self.keywords.contains(name) { found.insert(name) }
            index = end
        }
        return found
    }

    private static let keywords: Set<String> = [
        "if", "guard", "while", "for", "switch", "return", "init", "self", "super", "try", "await", "throw", "case",
        "let", "var", "func", "in", "is", "as", "some", "any", "catch", "repeat", "where", "defer", "do", "else",
    ]

    private static let declarationKeywords: Set<String> = [
        "struct", "class", "enum", "protocol", "actor", "typealias", "extension",
    ]

    private static func words(in line: Substring) -> [String] {
        var words: [String] = []
        var current = ""
        for character in line {
            if character.isLetter || character.isNumber || character == "_" {
                current.append(character)
            } else if !current.isEmpty {
                words.append(current)
                current = ""
            }
        }
        if !current.isEmpty { words.append(current) }
        return words
    }

    private static func memberReferences(in code: String) -> Set<String> {
        var found: Set<String> = []
        let characters = Array(code)
        var index = 0
        while index < characters.count {
            guard characters[index].isUppercase, index == 0 || !isIdentifier(characters[index - 1]) else {
                index += 1
                continue
            }
            var end = index
            while end < characters.count, isIdentifier(characters[end]) { end += 1 }
            if end + 1 < characters.count, characters[end] == ".", isIdentifier(characters[end + 1]) {
                var memberEnd = end + 1
                while memberEnd < characters.count, isIdentifier(characters[memberEnd]) { memberEnd += 1 }
                found.insert(String(characters[index..<memberEnd]))
            }
            index = end
        }
        return found
    }

    private static func isIdentifier(_ character: Character) -> Bool {
        character.isLetter || character.isNumber || character == "_"
    }

    /// The source with comments removed and the text of string literals blanked; line breaks are kept so
    /// that top-level declarations stay at the start of their lines.
    static func code(of source: String) -> String {
        let bytes = Array(source.utf8)
        var output: [UInt8] = []
        output.reserveCapacity(bytes.count)
        var index = 0
        /// For each open interpolation, the depth of parentheses inside it.
        var interpolations: [Int] = []
        /// The string literals the scanner is inside, innermost last: whether each is multi-line.
        var strings: [Bool] = []
        let quote = UInt8(ascii: "\""), backslash = UInt8(ascii: "\\"), newline = UInt8(ascii: "\n")
        let open = UInt8(ascii: "("), close = UInt8(ascii: ")"), slash = UInt8(ascii: "/")
        let star = UInt8(ascii: "*"), hash = UInt8(ascii: "#")

        func at(_ text: [UInt8]) -> Bool {
            guard index + text.count <= bytes.count else { return false }
            for offset in text.indices where bytes[index + offset] != text[offset] { return false }
            return true
        }
        let tripleQuote = Array("\"\"\"".utf8), rawTriple = Array("#\"\"\"".utf8)

        while index < bytes.count {
            let byte = bytes[index]
            if let multiLine = strings.last, interpolations.count < strings.count {
                // Inside a literal's text.
                if byte == backslash, index + 1 < bytes.count, bytes[index + 1] == open {
                    interpolations.append(0)
                    output.append(contentsOf: [UInt8(ascii: " "), open])
                    index += 2
                } else if byte == backslash {
                    index += 2
                } else if multiLine, at(tripleQuote) {
                    strings.removeLast()
                    output.append(contentsOf: [quote, quote])
                    index += 3
                } else if !multiLine, byte == quote {
                    strings.removeLast()
                    output.append(contentsOf: [quote, quote])
                    index += 1
                } else {
                    if byte == newline { output.append(newline) }
                    index += 1
                }
                continue
            }
            if byte == slash, index + 1 < bytes.count, bytes[index + 1] == slash {
                while index < bytes.count, bytes[index] != newline { index += 1 }
            } else if byte == slash, index + 1 < bytes.count, bytes[index + 1] == star {
                index += 2
                while index + 1 < bytes.count, !(bytes[index] == star && bytes[index + 1] == slash) {
                    if bytes[index] == newline { output.append(newline) }
                    index += 1
                }
                index += 2
            } else if byte == hash, index + 1 < bytes.count, bytes[index + 1] == quote {
                // A raw string: no escapes to follow, and its interpolations (`\#(`) are left out.
                let closing = at(rawTriple) ? Array("\"\"\"#".utf8) : Array("\"#".utf8)
                index += closing.count
                while index < bytes.count, !at(closing) {
                    if bytes[index] == newline { output.append(newline) }
                    index += 1
                }
                index += closing.count
                output.append(contentsOf: [quote, quote])
            } else if at(tripleQuote) {
                strings.append(true)
                index += 3
            } else if byte == quote {
                strings.append(false)
                index += 1
            } else {
                if !interpolations.isEmpty {
                    if byte == open { interpolations[interpolations.count - 1] += 1 }
                    if byte == close {
                        if interpolations[interpolations.count - 1] == 0 {
                            interpolations.removeLast()
                            index += 1
                            output.append(close)
                            continue
                        }
                        interpolations[interpolations.count - 1] -= 1
                    }
                }
                output.append(byte)
                index += 1
            }
        }
        return String(decoding: output, as: UTF8.self)
    }
}
