/// Parses value expressions into ``Expression`` trees.
///
/// For example:
/// ```swift
/// let expression = try ExpressionParser.parse("$source.firstName + ' ' + $source.lastName")
/// ```
package enum ExpressionParser {
    /// The deepest nesting accepted; deeper expressions are rejected with a message, never a crash.
    package static let maximumDepth = 200

    /// Parses an expression.
    /// - Parameter text: The expression as written in the mapping file (XML entities already resolved).
    /// - Returns: The tree, each node with its range in Unicode scalar offsets.
    /// - Throws: ``ExpressionDiagnostic`` for the first syntax error, with its position.
    package static func parse(_ text: String) throws(ExpressionDiagnostic) -> Expression {
        var lexer = ExpressionLexer(text)
        var parser = Parser(tokens: try lexer.tokenize())
        return try parser.parseAll()
    }
}

private struct Parser {
    let tokens: [ExpressionToken]
    var index = 0
    var depth = 0

    init(tokens: [ExpressionToken]) { self.tokens = tokens }

    var current: ExpressionToken { tokens[min(index, tokens.count - 1)] }
    var previous: ExpressionToken? { index > 0 ? tokens[index - 1] : nil }

    mutating func advance() -> ExpressionToken {
        let token = current
        if index < tokens.count - 1 { index += 1 }
        return token
    }

    func isSymbol(_ symbol: String) -> Bool { current.kind == .symbol(symbol) }

    mutating func parseAll() throws(ExpressionDiagnostic) -> Expression {
        if current.kind == .end { throw .syntax("expected an expression", at: current.range) }
        let expression = try parseConditional()
        guard current.kind == .end else {
            if isSymbol(")") { throw .syntax("unexpected ')' without a matching '('", at: current.range) }
            throw .syntax("unexpected \(describe(current)) after the expression", at: current.range)
        }
        return expression
    }

    func describe(_ token: ExpressionToken) -> String {
        switch token.kind {
        case .variable(let name): return "'$\(name)'"
        case .identifier(let name): return "'\(name)'"
        case .atName(let name): return "'@\(name)'"
        case .integer(let text): return "'\(text)'"
        case .double(let value): return "'\(value)'"
        case .string: return "string literal"
        case .symbol(let symbol): return "'\(symbol)'"
        case .end: return "end of expression"
        }
    }

    /// Builds a node, refusing trees deeper than the maximum.
    func node(_ kind: Expression.Kind, _ range: Range<Int>) throws(ExpressionDiagnostic) -> Expression {
        let expression = Expression(kind, range: range)
        if expression.height > ExpressionParser.maximumDepth {
            throw .syntax(
                "expression is nested too deeply (more than \(ExpressionParser.maximumDepth) levels)", at: range)
        }
        return expression
    }

    mutating func enter(_ range: Range<Int>) throws(ExpressionDiagnostic) {
        depth += 1
        if depth > ExpressionParser.maximumDepth {
            throw .syntax(
                "expression is nested too deeply (more than \(ExpressionParser.maximumDepth) levels)", at: range)
        }
    }

    mutating func parseConditional() throws(ExpressionDiagnostic) -> Expression {
        try enter(current.range)
        defer { depth -= 1 }
        let condition = try parseBinary(minimumPrecedence: 2)
        guard isSymbol("?") else { return condition }
        let question = advance()
        let then = try parseOperand(after: question)
        guard isSymbol(":") else {
            throw .syntax(
                "expected ':' after the first branch of '?' at column \(question.range.lowerBound + 1)",
                at: current.range)
        }
        let colon = advance()
        let otherwise = try parseOperand(after: colon)
        return try node(
            .conditional(condition, then, otherwise), condition.range.lowerBound..<otherwise.range.upperBound)
    }

    /// An operand that must follow an operator token, with a message naming the operator.
    mutating func parseOperand(after token: ExpressionToken, binary precedence: Int? = nil) throws(ExpressionDiagnostic)
        -> Expression
    {
        if !startsExpression(current) {
            throw .syntax(
                "expected an expression after \(describe(token))",
                at: current.range.lowerBound..<current.range.lowerBound)
        }
        if let precedence { return try parseBinary(minimumPrecedence: precedence) }
        return try parseConditional()
    }

    func startsExpression(_ token: ExpressionToken) -> Bool {
        switch token.kind {
        case .end, .atName: return false
        case .symbol(let symbol): return symbol == "(" || symbol == "-" || symbol == "!"
        default: return true
        }
    }

    func binaryOperator(_ token: ExpressionToken) -> Expression.BinaryOperator? {
        guard case .symbol(let symbol) = token.kind else { return nil }
        return Expression.BinaryOperator(rawValue: symbol)
    }

    mutating func parseBinary(minimumPrecedence: Int) throws(ExpressionDiagnostic) -> Expression {
        var left = try parseUnary()
        var lastComparison: Expression.BinaryOperator?
        while let op = binaryOperator(current), op.precedence >= minimumPrecedence {
            let token = advance()
            if op.isComparison, let lastComparison {
                throw .syntax(
                    "comparisons cannot be chained: '\(lastComparison.rawValue)' then '\(op.rawValue)'; combine them with '&&'",
                    at: token.range)
            }
            let right: Expression
            if op.isRightAssociative {
                // `a ?? b ?? c …` nests to the right by recursion: count it, or a long chain overflows the stack.
                try enter(token.range)
                defer { depth -= 1 }
                right = try parseOperand(after: token, binary: op.precedence)
            } else {
                right = try parseOperand(after: token, binary: op.precedence + 1)
            }
            left = try node(
                .binary(op, left, right, operatorRange: token.range), left.range.lowerBound..<right.range.upperBound)
            lastComparison = op.isComparison ? op : nil
        }
        return left
    }

    mutating func parseUnary() throws(ExpressionDiagnostic) -> Expression {
        guard isSymbol("-") || isSymbol("!") else { return try parsePrimary() }
        let token = advance()
        try enter(token.range)
        defer { depth -= 1 }
        if token.kind == .symbol("-"), case .integer(let digits) = current.kind {
            // `-9223372036854775808` is a literal of its own: its magnitude does not fit positive.
            let literal = advance()
            guard let value = Int64("-" + digits) else {
                throw tooLarge("-" + digits, at: token.range.lowerBound..<literal.range.upperBound)
            }
            return try node(.integer(value), token.range.lowerBound..<literal.range.upperBound)
        }
        let operand = try parseOperand(after: token, binary: 8)
        let op: Expression.UnaryOperator = token.kind == .symbol("-") ? .negate : .not
        return try node(.unary(op, operand), token.range.lowerBound..<operand.range.upperBound)
    }

    func tooLarge(_ digits: String, at range: Range<Int>) -> ExpressionDiagnostic {
        .syntax(
            "integer literal \(digits) does not fit in 64 bits; write \(digits).0 for a Double or decimal('\(digits)') for a Decimal",
            at: range)
    }

    mutating func parsePrimary() throws(ExpressionDiagnostic) -> Expression {
        let token = current
        switch token.kind {
        case .integer(let digits):
            _ = advance()
            guard let value = Int64(digits) else { throw tooLarge(digits, at: token.range) }
            return try node(.integer(value), token.range)
        case .double(let value):
            _ = advance()
            return try node(.double(value), token.range)
        case .string(let value):
            _ = advance()
            return try node(.string(value), token.range)
        case .identifier(let name):
            _ = advance()
            switch name {
            case "true": return try node(.boolean(true), token.range)
            case "false": return try node(.boolean(false), token.range)
            case "nil": return try node(.nil, token.range)
            default: break
            }
            guard isSymbol("(") else {
                if ExpressionFunction(rawValue: name) != nil {
                    throw .syntax("expected '(' after function name '\(name)'", at: current.range)
                }
                throw .syntax("unexpected name '\(name)'; attributes are written '$source.\(name)'", at: token.range)
            }
            guard ExpressionFunction(rawValue: name) != nil else {
                let suggestion = closestName(to: name, in: ExpressionFunction.allCases.map(\.rawValue))
                throw .syntax(
                    "unknown function '\(name)'" + (suggestion.map { "; did you mean '\($0)'?" } ?? ""), at: token.range
                )
            }
            return try parseCall(name: name, nameRange: token.range)
        case .variable(let name):
            _ = advance()
            guard name == "source" else {
                throw .syntax("unknown variable '$\(name)'; only '$source' is available", at: token.range)
            }
            return try parseKeyPath(start: token.range)
        case .symbol("("):
            let open = advance()
            try enter(open.range)
            defer { depth -= 1 }
            guard startsExpression(current) else {
                throw .syntax(
                    "expected an expression after '('", at: current.range.lowerBound..<current.range.lowerBound)
            }
            var inner = try parseConditional()
            guard isSymbol(")") else {
                throw .syntax("expected ')' to close '(' at column \(open.range.lowerBound + 1)", at: current.range)
            }
            let close = advance()
            inner.range = open.range.lowerBound..<close.range.upperBound
            return inner
        case .atName(let name):
            throw .syntax("unexpected '@\(name)'; write '$source.relationship.@\(name)'", at: token.range)
        case .end:
            if let previous { throw .syntax("expected an expression after \(describe(previous))", at: token.range) }
            throw .syntax("expected an expression", at: token.range)
        case .symbol(let symbol):
            if let previous, binaryOperator(previous) != nil || previous.kind == .symbol(",") {
                throw .syntax("expected an expression after \(describe(previous)), found '\(symbol)'", at: token.range)
            }
            throw .syntax("expected an expression, found '\(symbol)'", at: token.range)
        }
    }

    mutating func parseKeyPath(start: Range<Int>) throws(ExpressionDiagnostic) -> Expression {
        var components: [Expression.KeyPath.Component] = []
        var count: Range<Int>?
        guard isSymbol(".") else {
            throw .syntax(
                "expected '.' and an attribute name after '$source'",
                at: current.range.lowerBound..<current.range.lowerBound)
        }
        while isSymbol(".") {
            let dot = advance()
            if count != nil { throw .syntax("'@count' must end the key path", at: dot.range) }
            switch current.kind {
            case .identifier(let name):
                components.append(.init(name: name, range: advance().range))
            case .atName(let name):
                let token = advance()
                guard name == "count" else {
                    throw .syntax("unknown key path operator '@\(name)'; only '@count' is supported", at: token.range)
                }
                guard !components.isEmpty else {
                    throw .syntax(
                        "'@count' needs a to-many relationship before it: '$source.relationship.@count'",
                        at: token.range)
                }
                count = token.range
            default:
                throw .syntax("expected a name after '.'", at: current.range.lowerBound..<current.range.lowerBound)
            }
        }
        let end = count?.upperBound ?? components.last?.range.upperBound ?? start.upperBound
        return try node(.keyPath(.init(components: components, count: count)), start.lowerBound..<end)
    }

    mutating func parseCall(name: String, nameRange: Range<Int>) throws(ExpressionDiagnostic) -> Expression {
        let open = advance()
        try enter(open.range)
        defer { depth -= 1 }
        var arguments: [Expression] = []
        if !isSymbol(")") {
            while true {
                guard startsExpression(current) else {
                    let after = previous ?? open
                    throw .syntax(
                        "expected an expression after \(describe(after))",
                        at: current.range.lowerBound..<current.range.lowerBound)
                }
                arguments.append(try parseConditional())
                guard isSymbol(",") else { break }
                _ = advance()
            }
        }
        guard isSymbol(")") else {
            throw .syntax("expected ')' to close '(' at column \(open.range.lowerBound + 1)", at: current.range)
        }
        let close = advance()
        return try node(
            .call(name: name, nameRange: nameRange, arguments: arguments), nameRange.lowerBound..<close.range.upperBound
        )
    }
}
