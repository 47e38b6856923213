/// Splits an `NSPredicate` format string into tokens, each with its range in
/// Unicode scalars, for ``XcodePredicateParser``.
struct XcodePredicateLexer {
    enum Token: Sendable, Hashable {
        /// A name; `#name` (an escaped reserved word) is a name too.
        case name(String, escaped: Bool)
        /// `$name`.
        case variable(String)
        case integer(Int64)
        case real(Double)
        case string(String)
        /// `@count`, `@sum`…
        case collectionOperator(String)
        /// `%@`, `%K`, `%d`…: a substitution, which a stored predicate cannot use.
        case substitution(String)
        case symbol(String)
        case end
    }

    /// Why the text is not a predicate Remodel can read, with where.
    struct Failure: Error, Sendable, Hashable {
        var message: String
        var range: Range<Int>
    }

    private let scalars: [Unicode.Scalar]
    private var position = 0

    init(_ text: String) {
        scalars = Array(text.unicodeScalars)
    }

    /// Every token with its range; the last is ``Token/end``.
    mutating func tokens() throws(Failure) -> [(token: Token, range: Range<Int>)] {
        var result: [(token: Token, range: Range<Int>)] = []
        while true {
            while position < scalars.count, scalars[position].properties.isWhitespace { position += 1 }
            let start = position
            guard position < scalars.count else {
                result.append((.end, start..<start))
                return result
            }
            let token = try next()
            result.append((token, start..<position))
        }
    }

    private func peek(_ offset: Int = 0) -> Unicode.Scalar? {
        position + offset < scalars.count ? scalars[position + offset] : nil
    }

    /// A key path's names are a model's (``/RemodelModel/SQLName/isIdentifier(_:)``): a combining mark goes on a name.
    private static func isNameStart(_ scalar: Unicode.Scalar) -> Bool { SQLName.canStart(scalar) }

    private static func isNamePart(_ scalar: Unicode.Scalar) -> Bool { SQLName.canContinue(scalar) }

    private mutating func name() -> String {
        var text = ""
        while let scalar = peek(), Self.isNamePart(scalar) {
            text.unicodeScalars.append(scalar)
            position += 1
        }
        return text
    }

    private mutating func next() throws(Failure) -> Token {
        let start = position
        let scalar = scalars[position]
        if Self.isNameStart(scalar) { return .name(name(), escaped: false) }
        if ("0"..."9").contains(scalar) { return try number() }
        switch scalar {
        case "#":
            position += 1
            guard let next = peek(), Self.isNameStart(next) else {
                throw Failure(message: "'#' must be followed by a name", range: start..<position)
            }
            return .name(name(), escaped: true)
        case "$":
            position += 1
            guard let next = peek(), Self.isNameStart(next) else {
                throw Failure(message: "'$' must be followed by a variable name", range: start..<position)
            }
            return .variable(name())
        case "@":
            position += 1
            return .collectionOperator(name())
        case "%":
            position += 1
            var text = "%"
            if let next = peek() {
                text.unicodeScalars.append(next)
                position += 1
            }
            return .substitution(text)
        case "\"", "'":
            return .string(try string(quote: scalar))
        default:
            break
        }
        for symbol in ["==", "!=", "<>", "<=", ">=", "=<", "=>", "&&", "||", "**"] where matches(symbol) {
            position += symbol.unicodeScalars.count
            return .symbol(symbol)
        }
        if "=<>!+-*/(),{}.[]".unicodeScalars.contains(scalar) {
            position += 1
            return .symbol(String(scalar))
        }
        throw Failure(message: "unexpected character '\(scalar)'", range: start..<(start + 1))
    }

    private func matches(_ symbol: String) -> Bool {
        for (offset, scalar) in symbol.unicodeScalars.enumerated() where peek(offset) != scalar { return false }
        return true
    }

    private mutating func number() throws(Failure) -> Token {
        let start = position
        var text = ""
        var isReal = false
        while let scalar = peek(), ("0"..."9").contains(scalar) {
            text.unicodeScalars.append(scalar)
            position += 1
        }
        if peek() == ".", let after = peek(1), ("0"..."9").contains(after) {
            isReal = true
            text += "."
            position += 1
            while let scalar = peek(), ("0"..."9").contains(scalar) {
                text.unicodeScalars.append(scalar)
                position += 1
            }
        }
        if peek() == "e" || peek() == "E" {
            let signed = peek(1) == "+" || peek(1) == "-"
            if let digit = peek(signed ? 2 : 1), ("0"..."9").contains(digit) {
                isReal = true
                text += "e"
                position += 1
                if signed, let sign = peek() {
                    text.unicodeScalars.append(sign)
                    position += 1
                }
                while let scalar = peek(), ("0"..."9").contains(scalar) {
                    text.unicodeScalars.append(scalar)
                    position += 1
                }
            }
        }
        if let scalar = peek(), Self.isNameStart(scalar) {
            throw Failure(
                message: "a number runs into '\(scalar)' (hexadecimal and other bases are not read)",
                range: start..<(position + 1))
        }
        if isReal, let value = Double(text) { return .real(value) }
        if let value = Int64(text) { return .integer(value) }
        if let value = Double(text) { return .real(value) }
        throw Failure(message: "'\(text)' is not a number", range: start..<position)
    }

    private mutating func string(quote: Unicode.Scalar) throws(Failure) -> String {
        let start = position
        position += 1
        var text = ""
        while let scalar = peek() {
            position += 1
            if scalar == quote { return text }
            guard scalar == "\\" else {
                text.unicodeScalars.append(scalar)
                continue
            }
            guard let escaped = peek() else { break }
            position += 1
            switch escaped {
            case "n": text += "\n"
            case "t": text += "\t"
            case "r": text += "\r"
            case "0": text += "\0"
            default: text.unicodeScalars.append(escaped)
            }
        }
        throw Failure(message: "the string is not closed with \(quote)", range: start..<position)
    }
}
