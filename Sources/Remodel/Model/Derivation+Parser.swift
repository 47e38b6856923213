extension Derivation {
    /// Why a text is not a derivation Remodel computes.
    public struct ParseError: Error, Sendable, Hashable {
        /// What is wrong, such as `Core Data's derivations have no operators; '++' is not one of them`.
        public var message: String
        /// Where, in Unicode scalars from the start of the expression.
        public var offset: Int
        /// Whether the text is Core Data's grammar that Remodel does not compute (an `NSExpression` function or
        /// key path operator other than those ``Derivation`` lists), rather than no derivation at all.
        public var isUnsupported: Bool
    }

    /// Reads a derivation.
    ///
    /// - Throws: ``ParseError`` with the offset of the first character at fault.
    public init(parsing text: String) throws(Derivation.ParseError) {
        self = try Self.parse(text).derivation
    }

    /// Reads a derivation, with where each of its ``keys`` starts (Unicode scalars from the start).
    package static func parse(_ text: String) throws(Derivation.ParseError) -> (
        derivation: Derivation, keyOffsets: [Int]
    ) {
        var parser = DerivationParser(Array(text.unicodeScalars))
        return try parser.parse()
    }

    /// `NSExpression` functions a derivation may name (Foundation's list) that Remodel does not compute: named as
    /// such rather than as unknown words.
    static let otherFunctions: Set<String> = [
        "stddev", "median", "mode", "sqrt", "log", "ln", "raise", "exp", "floor", "ceiling", "abs", "trunc",
        "random", "randomn", "now", "from", "add", "subtract", "multiply", "divide", "modulus", "bitwiseAnd",
        "bitwiseOr", "bitwiseXor", "leftshift", "rightshift", "onesComplement", "noindex", "distanceToLocation",
        "length", "castObject", "FUNCTION", "SUBQUERY", "TERNARY",
    ]

    /// The aggregate an `NSExpression` function name stands for (`count:`, `sum:`, `average:`, `min:`, `max:`).
    static func aggregate(function name: String) -> Aggregate? {
        switch name {
        case "count": return .count
        case "sum": return .sum
        case "average": return .avg
        case "min": return .min
        case "max": return .max
        default: return nil
        }
    }
}

/// The reader of ``Derivation``'s grammar, over the text's Unicode scalars.
private struct DerivationParser {
    private let scalars: [Unicode.Scalar]
    private var position = 0

    init(_ scalars: [Unicode.Scalar]) { self.scalars = scalars }

    private static let grammar =
        "a derivation is a key path (name, author.name), lowercase:, uppercase: or canonical: of one, an aggregate over a to-many relationship (books.@count, books.pages.@sum) or now()"

    mutating func parse() throws(Derivation.ParseError) -> (derivation: Derivation, keyOffsets: [Int]) {
        skipSpaces()
        guard position < scalars.count else { throw error("the derivation is empty; \(Self.grammar)") }
        let result: (Derivation, [Int])
        let start = position
        if let word = identifier(), peekAfterSpaces() == ":" {
            result = try function(named: word, at: start)
        } else if let word = wordAt(start), peekAfterSpaces(from: start + word.count) == "(" {
            position = start + word.count
            skipSpaces()
            if word == "now" {
                position += 1
                skipSpaces()
                guard peek() == ")" else { throw error("now() takes nothing between its parentheses") }
                position += 1
                result = (Derivation(.now), [])
            } else if word == "FUNCTION" || word == "SUBQUERY" || word == "TERNARY" {
                throw error(
                    "\(word)(…) is an NSExpression Remodel does not compute; \(Self.grammar)", at: start,
                    unsupported: true)
            } else {
                throw error(
                    "'\(word)(' is not how Core Data calls a function: write \(word):(…); \(Self.grammar)", at: start)
            }
        } else {
            position = start
            let (path, offsets, aggregate) = try keyPath()
            if let (operation, attribute) = aggregate {
                result = (Derivation(.aggregate(operation, path: path, attribute: attribute)), offsets)
            } else {
                result = (Derivation(.keyPath(path)), offsets)
            }
        }
        skipSpaces()
        if position < scalars.count { throw trailing() }
        return result
    }

    /// `name:(keyPath)`, the name read and `position` on the colon.
    private mutating func function(named name: String, at start: Int) throws(Derivation.ParseError) -> (
        Derivation, [Int]
    ) {
        skipSpaces()
        position += 1  // the colon
        skipSpaces()
        guard peek() == "(" else { throw error("\(name): takes its argument in parentheses: \(name):(…)") }
        position += 1
        let (path, offsets, aggregate) = try keyPath()
        skipSpaces()
        guard peek() == ")" else {
            throw position < scalars.count ? trailing() : error("the parenthesis after \(name): is never closed")
        }
        position += 1
        if let function = Derivation.Function(rawValue: name) {
            guard aggregate == nil else {
                throw error("\(name): takes a key path to one value, not an aggregate", at: offsets.last ?? start)
            }
            return (Derivation(.function(function, path)), offsets)
        }
        if let operation = Derivation.aggregate(function: name) {
            guard aggregate == nil else {
                throw error(
                    "\(name): takes a key path to a to-many relationship, not an aggregate", at: offsets.last ?? start)
            }
            if operation == .count { return (Derivation(.aggregate(.count, path: path, attribute: nil)), offsets) }
            guard path.count >= 2, let attribute = path.last else {
                throw error(
                    "\(name): takes the key path of an attribute of a to-many relationship's objects, such as \(name):(books.pages)",
                    at: offsets.first ?? start)
            }
            return (Derivation(.aggregate(operation, path: Array(path.dropLast()), attribute: attribute)), offsets)
        }
        if Derivation.otherFunctions.contains(name) {
            throw error(
                "\(name): is an NSExpression function Remodel does not compute; \(Self.grammar)", at: start,
                unsupported: true)
        }
        throw error("\(name): is not a function of Core Data's derivations; \(Self.grammar)", at: start)
    }

    /// A key path: names joined by dots, ending with at most one `@operation` (Core Data refuses one anywhere
    /// else: "Bad keypath for derived property (misplaced operator)"). `@count` counts the objects of the
    /// relationship before it; `@sum` (or `@total`), `@avg`, `@min` and `@max` aggregate the attribute before them.
    private mutating func keyPath() throws(Derivation.ParseError) -> (
        path: [String], offsets: [Int], aggregate: (Derivation.Aggregate, String?)?
    ) {
        var path: [String] = []
        var offsets: [Int] = []
        var operation: (name: String, at: Int)?
        while true {
            skipSpaces()
            let start = position
            if peek() == "@" {
                position += 1
                guard let word = identifier() else { throw error("'@' is followed by no operation", at: start) }
                guard operation == nil else {
                    throw error("a key path takes one aggregate; @\(word) follows another", at: start)
                }
                guard !path.isEmpty else {
                    throw error(
                        "@\(word) needs the to-many relationship it aggregates before it (books.@\(word))", at: start)
                }
                operation = (word, start)
            } else if let word = identifier() {
                if let operation {
                    let written = (path + ["@\(operation.name)", word]).joined(separator: ".")
                    let corrected = (path + [word, "@\(operation.name)"]).joined(separator: ".")
                    throw error(
                        "Core Data takes an operator only at the end of a key path (it refuses \(written) as a misplaced operator); write \(corrected)",
                        at: operation.at)
                }
                path.append(word)
                offsets.append(start)
            } else if position >= scalars.count {
                throw error("the key path ends after a dot")
            } else {
                throw unexpected()
            }
            guard peekAfterSpaces() == "." else { break }
            skipSpaces()
            position += 1
        }
        guard let (name, at) = operation else { return (path, offsets, nil) }
        let aggregate: Derivation.Aggregate
        switch name {
        case "count": return (path, offsets, (.count, nil))
        case "sum", "total": aggregate = .sum
        case "avg": aggregate = .avg
        case "min": aggregate = .min
        case "max": aggregate = .max
        default:
            throw error(
                "@\(name) is a key path operator Remodel does not compute; the aggregates are @count, @sum, @avg, @min and @max",
                at: at, unsupported: true)
        }
        guard path.count >= 2, let attribute = path.last else {
            throw error(
                "@\(name) needs the attribute it aggregates before it: \((path + ["pages", "@\(name)"]).joined(separator: "."))",
                at: at)
        }
        return (Array(path.dropLast()), offsets, (aggregate, attribute))
    }

    // MARK: - Characters

    private func peek() -> Unicode.Scalar? { position < scalars.count ? scalars[position] : nil }

    private func peekAfterSpaces(from start: Int? = nil) -> Unicode.Scalar? {
        var index = start ?? position
        while index < scalars.count, scalars[index].properties.isWhitespace { index += 1 }
        return index < scalars.count ? scalars[index] : nil
    }

    private mutating func skipSpaces() {
        while let scalar = peek(), scalar.properties.isWhitespace { position += 1 }
    }

    private static func isStart(_ scalar: Unicode.Scalar) -> Bool {
        scalar == "_" || scalar.properties.isAlphabetic
    }

    private static func isPart(_ scalar: Unicode.Scalar) -> Bool {
        isStart(scalar) || scalar.properties.numericType != nil || scalar.properties.generalCategory == .nonspacingMark
            || scalar.properties.generalCategory == .spacingMark
    }

    /// The identifier at `start`, without moving.
    private func wordAt(_ start: Int) -> String? {
        guard start < scalars.count, Self.isStart(scalars[start]) else { return nil }
        var end = start + 1
        while end < scalars.count, Self.isPart(scalars[end]) { end += 1 }
        var word = String.UnicodeScalarView()
        word.append(contentsOf: scalars[start..<end])
        return String(word)
    }

    /// Reads an identifier (letters, digits, marks and underscores, not starting with a digit).
    private mutating func identifier() -> String? {
        guard let word = wordAt(position) else { return nil }
        position += word.unicodeScalars.count
        return word
    }

    // MARK: - Errors

    private func error(_ message: String, at offset: Int? = nil, unsupported: Bool = false) -> Derivation.ParseError {
        Derivation.ParseError(message: message, offset: offset ?? position, isUnsupported: unsupported)
    }

    /// What follows a complete derivation.
    private func trailing() -> Derivation.ParseError {
        let rest = String(String.UnicodeScalarView(scalars[position...]))
        for operation in ["++", "+", "-", "*", "/", "||", "&&", "==", "!=", "<", ">", "?"]
        where rest.hasPrefix(operation) {
            return error(
                "Core Data's derivations have no operators, and '\(operation)' is none of theirs (no string concatenation either); \(Self.grammar)"
            )
        }
        return unexpected()
    }

    private func unexpected() -> Derivation.ParseError {
        guard let scalar = peek() else { return error("the derivation ends too early; \(Self.grammar)") }
        if scalar == "\"" || scalar == "'" {
            return error("a derivation holds no text literal; \(Self.grammar)")
        }
        if scalar.properties.numericType != nil { return error("a derivation holds no number; \(Self.grammar)") }
        if scalar == "$" || scalar == "%" {
            return error("a derivation has no variables or format arguments; \(Self.grammar)")
        }
        return error("unexpected '\(scalar)'; \(Self.grammar)")
    }
}
