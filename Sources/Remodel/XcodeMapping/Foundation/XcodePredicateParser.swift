/// Parses an `NSPredicate` format string (an Xcode entity mapping's
/// `sourcefilterpredicatestring`) into an ``XcodePredicate``, each node with
/// its range in the text.
///
/// It reads the whole format grammar that a stored predicate can use —
/// `AND`/`OR`/`NOT` (`&&`, `||`, `!`), comparisons with their string
/// operators and `[cd]` options, `ANY`/`ALL`/`SOME`/`NONE`, key paths with
/// `@count`, `SELF`, `$variables`, constants, arithmetic, `FUNCTION(…)`,
/// `TERNARY(…)`, built-in function calls and `{…}` lists; keywords are
/// case-insensitive, `#name` escapes one. What Remodel cannot run is refused
/// later, by ``XcodePredicateTranslator``; `%@` substitutions and `SUBQUERY`
/// are refused here.
///
/// For example:
/// ```swift
/// let predicate = try XcodePredicateParser.parse("age >= 18 AND name != nil")
/// ```
struct XcodePredicateParser {
    typealias Failure = XcodePredicateLexer.Failure
    typealias Token = XcodePredicateLexer.Token

    /// The deepest nesting accepted.
    static let maximumDepth = 100

    private static let reserved: Set<String> = [
        "AND", "OR", "NOT", "ANY", "ALL", "SOME", "NONE", "IN", "LIKE", "BEGINSWITH", "ENDSWITH", "CONTAINS", "MATCHES",
        "BETWEEN",
        "NULL", "NIL", "SELF", "TRUE", "FALSE", "YES", "NO", "FIRST", "LAST", "SIZE", "TRUEPREDICATE", "FALSEPREDICATE",
        "SUBQUERY", "FUNCTION", "TERNARY", "CAST",
    ]

    private static let comparisons: [String: XcodeComparison] = [
        "==": .equal, "=": .equal, "!=": .notEqual, "<>": .notEqual, "<": .lessThan, "<=": .lessThanOrEqual,
        "=<": .lessThanOrEqual,
        ">": .greaterThan, ">=": .greaterThanOrEqual, "=>": .greaterThanOrEqual, "MATCHES": .matches, "LIKE": .like,
        "BEGINSWITH": .beginsWith, "ENDSWITH": .endsWith, "IN": .in, "CONTAINS": .contains, "BETWEEN": .between,
    ]

    private let tokens: [(token: Token, range: Range<Int>)]
    private var index = 0
    private var depth = 0

    /// Parses a whole format string.
    static func parse(_ text: String) throws(Failure) -> XcodePredicate {
        var lexer = XcodePredicateLexer(text)
        var parser = XcodePredicateParser(tokens: try lexer.tokens())
        let predicate = try parser.or()
        guard case .end = parser.current else { throw parser.unexpected("AND, OR or the end of the predicate") }
        return predicate
    }

    private init(tokens: [(token: Token, range: Range<Int>)]) {
        self.tokens = tokens
    }

    private var current: Token { tokens[index].token }
    private var currentRange: Range<Int> { tokens[index].range }
    private var previousEnd: Int { index > 0 ? tokens[index - 1].range.upperBound : 0 }

    private func keyword(_ word: String) -> Bool {
        if case .name(let name, escaped: false) = current, name.uppercased() == word { return true }
        return false
    }

    private func symbol(_ text: String) -> Bool {
        if case .symbol(let symbol) = current, symbol == text { return true }
        return false
    }

    private mutating func advance() { if index < tokens.count - 1 { index += 1 } }

    private func unexpected(_ expected: String) -> Failure {
        let found: String
        switch current {
        case .end: found = "the end of the predicate"
        case .name(let name, _): found = "'\(name)'"
        case .variable(let name): found = "'$\(name)'"
        case .symbol(let symbol): found = "'\(symbol)'"
        case .string(let text): found = "the string \"\(text)\""
        case .integer(let value): found = "\(value)"
        case .real(let value): found = "\(value)"
        case .collectionOperator(let name): found = "'@\(name)'"
        case .substitution(let text): found = "'\(text)'"
        }
        return Failure(message: "expected \(expected), found \(found)", range: currentRange)
    }

    private mutating func expect(_ text: String) throws(Failure) {
        guard symbol(text) else { throw unexpected("'\(text)'") }
        advance()
    }

    private mutating func nest() throws(Failure) {
        depth += 1
        guard depth <= Self.maximumDepth else {
            throw Failure(
                message: "the predicate nests more than \(Self.maximumDepth) levels deep", range: currentRange)
        }
    }

    // MARK: - Predicates

    private mutating func or() throws(Failure) -> XcodePredicate {
        try joined("OR", "||", XcodePredicate.Kind.or) { (parser: inout XcodePredicateParser) throws(Failure) in
            try parser.and()
        }
    }

    private mutating func and() throws(Failure) -> XcodePredicate {
        try joined("AND", "&&", XcodePredicate.Kind.and) { (parser: inout XcodePredicateParser) throws(Failure) in
            try parser.not()
        }
    }

    /// Operands of `word` (or `symbol`) parsed by `operand`, joined into one predicate when there are several.
    private mutating func joined(
        _ word: String, _ symbol: String, _ kind: ([XcodePredicate]) -> XcodePredicate.Kind,
        operand: (inout XcodePredicateParser) throws(Failure) -> XcodePredicate
    ) throws(Failure) -> XcodePredicate {
        let start = currentRange.lowerBound
        var parts = [try operand(&self)]
        while keyword(word) || self.symbol(symbol) {
            advance()
            parts.append(try operand(&self))
        }
        return parts.count == 1 ? parts[0] : XcodePredicate(kind(parts), range: start..<previousEnd)
    }

    private mutating func not() throws(Failure) -> XcodePredicate {
        let start = currentRange.lowerBound
        guard keyword("NOT") || symbol("!") else { return try primaryPredicate() }
        advance()
        try nest()
        defer { depth -= 1 }
        return XcodePredicate(.not(try not()), range: start..<previousEnd)
    }

    private mutating func primaryPredicate() throws(Failure) -> XcodePredicate {
        let start = currentRange.lowerBound
        if keyword("TRUEPREDICATE") || keyword("FALSEPREDICATE") {
            let value = keyword("TRUEPREDICATE")
            advance()
            return XcodePredicate(.constant(value), range: start..<previousEnd)
        }
        if symbol("(") {
            // A parenthesized predicate, unless the parentheses group an expression: `(a + 1) > 2`.
            let saved = (index, depth)
            advance()
            try nest()
            if let inner = try? or(), symbol(")") {
                advance()
                depth -= 1
                if !startsOperator { return inner }
            }
            (index, depth) = saved
        }
        var modifier = XcodeComparison.Modifier.direct
        var negated = false
        if keyword("ANY") || keyword("SOME") {
            modifier = .any
            advance()
        } else if keyword("ALL") {
            modifier = .all
            advance()
        } else if keyword("NONE") {
            modifier = .any
            negated = true
            advance()
        }
        let comparison = try self.comparison(modifier: modifier, start: start)
        return negated ? XcodePredicate(.not(comparison), range: comparison.range) : comparison
    }

    /// Whether the current token continues an expression or starts a comparison operator.
    private var startsOperator: Bool {
        if case .symbol(let symbol) = current {
            return Self.comparisons[symbol] != nil || ["+", "-", "*", "/", "**"].contains(symbol)
        }
        if case .name(let name, escaped: false) = current { return Self.comparisons[name.uppercased()] != nil }
        return false
    }

    private mutating func comparison(modifier: XcodeComparison.Modifier, start: Int) throws(Failure) -> XcodePredicate {
        let left = try expression()
        var operation: XcodeComparison?
        if case .symbol(let symbol) = current { operation = Self.comparisons[symbol] }
        if case .name(let name, escaped: false) = current { operation = Self.comparisons[name.uppercased()] }
        guard let operation else { throw unexpected("a comparison operator (==, !=, <, <=, >, >=, BEGINSWITH, …)") }
        advance()
        var options = ""
        if symbol("[") {
            advance()
            guard case .name(let flags, _) = current else { throw unexpected("options such as [c], [d] or [cd]") }
            options = flags
            advance()
            try expect("]")
        }
        let right = try expression()
        return XcodePredicate(
            .comparison(left, operation, right, modifier: modifier, options: options), range: start..<previousEnd)
    }

    // MARK: - Expressions

    private mutating func expression() throws(Failure) -> XcodeExpression {
        try nest()
        defer { depth -= 1 }
        return try binary(["+": "add:to:", "-": "from:subtract:"]) {
            (parser: inout XcodePredicateParser) throws(Failure) in try parser.term()
        }
    }

    private mutating func term() throws(Failure) -> XcodeExpression {
        try binary(["*": "multiply:by:", "/": "divide:by:", "**": "raise:toPower:"]) {
            (parser: inout XcodePredicateParser) throws(Failure) in
            try parser.unary()
        }
    }

    /// Operands parsed by `operand` joined, left to right, by the operators given with their function selectors.
    private mutating func binary(
        _ operators: [String: String], operand: (inout XcodePredicateParser) throws(Failure) -> XcodeExpression
    ) throws(Failure) -> XcodeExpression {
        let start = currentRange.lowerBound
        var left = try operand(&self)
        while case .symbol(let symbol) = current, let selector = operators[symbol] {
            advance()
            let right = try operand(&self)
            left = XcodeExpression(
                .function(operand: nil, selector: selector, arguments: [left, right]), range: start..<previousEnd)
        }
        return left
    }

    private mutating func unary() throws(Failure) -> XcodeExpression {
        let start = currentRange.lowerBound
        guard symbol("-") else { return try primary() }
        advance()
        try nest()
        defer { depth -= 1 }
        let operand = try unary()
        switch operand.kind {
        case .constant(.integer(let value)) where value != .min:
            return XcodeExpression(.constant(.integer(-value)), range: start..<previousEnd)
        case .constant(.real(let value)):
            return XcodeExpression(.constant(.real(-value)), range: start..<previousEnd)
        default:
            let zero = XcodeExpression(.constant(.integer(0)), range: start..<start)
            return XcodeExpression(
                .function(operand: nil, selector: "from:subtract:", arguments: [zero, operand]),
                range: start..<previousEnd)
        }
    }

    private mutating func primary() throws(Failure) -> XcodeExpression {
        let start = currentRange.lowerBound
        switch current {
        case .integer(let value):
            advance()
            return XcodeExpression(.constant(.integer(value)), range: start..<previousEnd)
        case .real(let value):
            advance()
            return XcodeExpression(.constant(.real(value)), range: start..<previousEnd)
        case .string(let text):
            advance()
            return XcodeExpression(.constant(.string(text)), range: start..<previousEnd)
        case .variable(let name):
            advance()
            return try path(from: XcodeExpression(.variable(name), range: start..<previousEnd), start: start)
        case .substitution(let text):
            throw Failure(
                message:
                    "'\(text)' is a substitution filled in by code when the predicate is made; a stored predicate cannot use it",
                range: currentRange)
        case .symbol("("):
            advance()
            let inner = try expression()
            try expect(")")
            return XcodeExpression(inner.kind, range: start..<previousEnd)
        case .symbol("{"):
            let elements = try list("{", "}")
            return XcodeExpression(.aggregate(elements), range: start..<previousEnd)
        case .name(let name, let escaped):
            return try named(name, escaped: escaped, start: start)
        default:
            throw unexpected("a key path, a constant or a function")
        }
    }

    private mutating func named(_ name: String, escaped: Bool, start: Int) throws(Failure) -> XcodeExpression {
        let word = escaped ? "" : name.uppercased()
        advance()
        switch word {
        case "YES", "TRUE": return XcodeExpression(.constant(.bool(true)), range: start..<previousEnd)
        case "NO", "FALSE": return XcodeExpression(.constant(.bool(false)), range: start..<previousEnd)
        case "NIL", "NULL": return XcodeExpression(.constant(.null), range: start..<previousEnd)
        case "SELF": return try path(from: XcodeExpression(.evaluatedObject, range: start..<previousEnd), start: start)
        case "FUNCTION":
            let arguments = try argumentList()
            guard arguments.count >= 2, case .constant(.string(let selector)) = arguments[1].kind else {
                throw Failure(
                    message: "FUNCTION takes an object, a selector in quotes and its arguments",
                    range: start..<previousEnd)
            }
            return XcodeExpression(
                .function(operand: arguments[0], selector: selector, arguments: Array(arguments.dropFirst(2))),
                range: start..<previousEnd)
        case "TERNARY":
            try expect("(")
            let condition = try or()
            try expect(",")
            let then = try expression()
            try expect(",")
            let otherwise = try expression()
            try expect(")")
            return XcodeExpression(.ternary(condition, then, otherwise), range: start..<previousEnd)
        case "SUBQUERY", "CAST", "FIRST", "LAST", "SIZE":
            throw Failure(message: "\(word) is not read by Remodel", range: start..<previousEnd)
        default:
            if !escaped, Self.reserved.contains(word) {
                throw Failure(
                    message: "'\(name)' is a reserved word here; write #\(name) for a key named so",
                    range: start..<previousEnd)
            }
        }
        if symbol("(") {
            let arguments = try argumentList()
            let selector = arguments.isEmpty ? name : name + ":"
            return XcodeExpression(
                .function(operand: nil, selector: selector, arguments: arguments), range: start..<previousEnd)
        }
        let root = XcodeExpression(.evaluatedObject, range: start..<start)
        return try path(from: root, start: start, first: name)
    }

    private mutating func argumentList() throws(Failure) -> [XcodeExpression] {
        try list("(", ")")
    }

    /// Expressions separated by commas between `open` and `close`.
    private mutating func list(_ open: String, _ close: String) throws(Failure) -> [XcodeExpression] {
        try expect(open)
        var elements: [XcodeExpression] = []
        if !symbol(close) {
            elements.append(try expression())
            while symbol(",") {
                advance()
                elements.append(try expression())
            }
        }
        try expect(close)
        return elements
    }

    /// `.name.name.@count` after a variable, `SELF` or a first name.
    private mutating func path(from operand: XcodeExpression, start: Int, first: String? = nil) throws(Failure)
        -> XcodeExpression
    {
        var components = first.map { [$0] } ?? []
        while symbol(".") {
            advance()
            switch current {
            case .name(let name, _): components.append(name)
            case .collectionOperator(let name): components.append("@" + name)
            default: throw unexpected("a key after '.'")
            }
            advance()
        }
        guard !components.isEmpty else { return operand }
        return XcodeExpression(.keyPath(operand, components.joined(separator: ".")), range: start..<previousEnd)
    }
}
