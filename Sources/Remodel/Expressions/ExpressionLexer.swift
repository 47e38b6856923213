/// One token of an expression.
struct ExpressionToken: Sendable, Hashable {
    enum Kind: Sendable, Hashable {
        /// `$name`.
        case variable(String)
        /// A name: `firstName`, `lowercase`, `true`.
        case identifier(String)
        /// `@count` and friends.
        case atName(String)
        /// Digits without `.` or exponent, kept as text (the sign is a separate token).
        case integer(String)
        /// A number with `.` or an exponent.
        case double(Double)
        case string(String)
        /// Punctuation and operators: `+ - * / % == != < <= > >= && || ! ?? ? : ( ) , .`
        case symbol(String)
        case end
    }

    var kind: Kind
    var range: Range<Int>
}

/// Splits expression text into tokens, counting positions in Unicode scalars.
struct ExpressionLexer {
    private let scalars: [Unicode.Scalar]
    private var position = 0

    init(_ text: String) { self.scalars = Array(text.unicodeScalars) }

    /// Operators and punctuation, longest first, as scalars.
    static let symbols: [(text: String, scalars: [Unicode.Scalar])] =
        [
            "==", "!=", "<=", ">=", "&&", "||", "??", "+", "-", "*", "/", "%", "<", ">", "!", "?", ":", "(", ")", ",",
            ".",
        ]
        .map { ($0, Array($0.unicodeScalars)) }

    /// Every token, ending with `.end`.
    mutating func tokenize() throws(ExpressionDiagnostic) -> [ExpressionToken] {
        var tokens: [ExpressionToken] = []
        while true {
            let token = try next()
            tokens.append(token)
            if token.kind == .end { return tokens }
        }
    }

    private func peek(_ offset: Int = 0) -> Unicode.Scalar? {
        position + offset < scalars.count ? scalars[position + offset] : nil
    }

    /// A name starts and goes on as a model's names do (``/RemodelModel/SQLName/isIdentifier(_:)``):
    /// `$source.name\u{301}` names the attribute `validate` accepts as `name\u{301}`.
    private static func isIdentifierStart(_ scalar: Unicode.Scalar) -> Bool { SQLName.canStart(scalar) }

    private static func isIdentifierContinue(_ scalar: Unicode.Scalar) -> Bool { SQLName.canContinue(scalar) }

    private static func isDigit(_ scalar: Unicode.Scalar?) -> Bool {
        guard let scalar else { return false }
        return ("0"..."9").contains(scalar)
    }

    private mutating func name() -> String {
        var text = ""
        while let scalar = peek(), Self.isIdentifierContinue(scalar) {
            text.unicodeScalars.append(scalar)
            position += 1
        }
        return text
    }

    private mutating func next() throws(ExpressionDiagnostic) -> ExpressionToken {
        while let scalar = peek(), scalar.properties.isWhitespace { position += 1 }
        let start = position
        guard let scalar = peek() else { return ExpressionToken(kind: .end, range: start..<start) }
        if scalar == "$" || scalar == "@" {
            position += 1
            guard let first = peek(), Self.isIdentifierStart(first) else {
                throw .syntax("expected a name after '\(scalar)'", at: start..<position)
            }
            let text = name()
            return ExpressionToken(kind: scalar == "$" ? .variable(text) : .atName(text), range: start..<position)
        }
        if Self.isIdentifierStart(scalar) {
            let text = name()
            return ExpressionToken(kind: .identifier(text), range: start..<position)
        }
        if Self.isDigit(scalar) { return try number() }
        if scalar == "'" || scalar == "\"" { return try string(quote: scalar) }
        for symbol in Self.symbols where symbol.scalars[0] == scalar {
            if symbol.scalars.count == 1 || peek(1) == symbol.scalars[1] {
                position += symbol.scalars.count
                return ExpressionToken(kind: .symbol(symbol.text), range: start..<position)
            }
        }
        position += 1
        if scalar == "=" { throw .syntax("unexpected '='; compare with '=='", at: start..<position) }
        if scalar == "&" { throw .syntax("unexpected '&'; write '&&' for 'and'", at: start..<position) }
        if scalar == "|" { throw .syntax("unexpected '|'; write '||' for 'or'", at: start..<position) }
        throw .syntax("unexpected character '\(scalar.escaped(asASCII: false))'", at: start..<position)
    }

    private mutating func number() throws(ExpressionDiagnostic) -> ExpressionToken {
        let start = position
        var text = ""
        func digits(_ lexer: inout ExpressionLexer, into text: inout String) {
            while let scalar = lexer.peek(), Self.isDigit(scalar) {
                text.unicodeScalars.append(scalar)
                lexer.position += 1
            }
        }
        digits(&self, into: &text)
        var isDouble = false
        if peek() == ".", Self.isDigit(peek(1)) {
            isDouble = true
            text += "."
            position += 1
            digits(&self, into: &text)
        }
        if peek() == "e" || peek() == "E" {
            let signed = peek(1) == "+" || peek(1) == "-"
            if Self.isDigit(peek(signed ? 2 : 1)) {
                isDouble = true
                text += "e"
                if signed, let sign = peek(1) { text.unicodeScalars.append(sign) }
                position += signed ? 2 : 1
                digits(&self, into: &text)
            }
        }
        if let scalar = peek(), Self.isIdentifierContinue(scalar) {
            while let scalar = peek(), Self.isIdentifierContinue(scalar) { position += 1 }
            throw .syntax("invalid number literal; a number cannot be followed by letters", at: start..<position)
        }
        guard isDouble else { return ExpressionToken(kind: .integer(text), range: start..<position) }
        guard let value = Double(text), value.isFinite else {
            throw .syntax("number literal \(text) is too large for a Double", at: start..<position)
        }
        return ExpressionToken(kind: .double(value), range: start..<position)
    }

    private mutating func string(quote: Unicode.Scalar) throws(ExpressionDiagnostic) -> ExpressionToken {
        let start = position
        position += 1
        var text = ""
        while true {
            guard let scalar = peek() else {
                throw .syntax("unterminated string literal", at: start..<position)
            }
            position += 1
            if scalar == quote { break }
            guard scalar == "\\" else {
                text.unicodeScalars.append(scalar)
                continue
            }
            let escapeStart = position - 1
            guard let escaped = peek() else { throw .syntax("unterminated string literal", at: start..<position) }
            position += 1
            switch escaped {
            case "\\", "'", "\"": text.unicodeScalars.append(escaped)
            case "n": text += "\n"
            case "t": text += "\t"
            case "r": text += "\r"
            case "0": text += "\0"
            case "u":
                // \u{1F600}
                guard peek() == "{" else {
                    throw .syntax("expected '{' after '\\u' (write \\u{1F600})", at: escapeStart..<position)
                }
                position += 1
                var hex = ""
                while let digit = peek(), digit != "}", hex.unicodeScalars.count <= 8 {
                    hex.unicodeScalars.append(digit)
                    position += 1
                }
                guard peek() == "}" else {
                    throw .syntax("expected '}' to end the '\\u{…}' escape", at: escapeStart..<position)
                }
                position += 1
                guard (1...8).contains(hex.count), let code = UInt32(hex, radix: 16), let value = Unicode.Scalar(code)
                else {
                    throw .syntax("invalid Unicode scalar '\\u{\(hex)}'", at: escapeStart..<position)
                }
                text.unicodeScalars.append(value)
            default:
                throw .syntax(
                    "unknown escape '\\\(escaped)'; use \\\\ \\' \\\" \\n \\t \\r \\0 or \\u{…}",
                    at: escapeStart..<position)
            }
        }
        return ExpressionToken(kind: .string(text), range: start..<position)
    }

    /// A string literal that reads back as `value`, in single quotes.
    static func quote(_ value: String) -> String {
        var result = "'"
        for scalar in value.unicodeScalars {
            switch scalar {
            case "\\": result += "\\\\"
            case "'": result += "\\'"
            case "\n": result += "\\n"
            case "\t": result += "\\t"
            case "\r": result += "\\r"
            case "\0": result += "\\0"
            default: result.unicodeScalars.append(scalar)
            }
        }
        return result + "'"
    }
}
