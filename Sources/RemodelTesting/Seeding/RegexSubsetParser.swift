import Remodel

/// Reads a pattern into ``RegexSubset/Node``s, refusing what is outside the subset.
struct RegexSubsetParser {
    typealias Node = RegexSubset.Node
    typealias Unsupported = RegexSubset.Unsupported

    private let scalars: [Unicode.Scalar]
    private var index = 0
    /// Where the construct being read starts, for messages.
    private var constructStart = 0

    init(_ scalars: [Unicode.Scalar]) {
        self.scalars = scalars
    }

    private var atEnd: Bool { index >= scalars.count }
    private var current: Unicode.Scalar? { atEnd ? nil : scalars[index] }

    private func peek(_ offset: Int = 0) -> Unicode.Scalar? {
        index + offset < scalars.count ? scalars[index + offset] : nil
    }

    private func refuse(_ what: String) -> Unsupported {
        Unsupported(reason: "\(what) (at offset \(constructStart))")
    }

    mutating func parseAll() throws(Unsupported) -> Node {
        let node = try parseAlternation()
        if !atEnd { throw refuse("an unbalanced \")\"") }
        return node
    }

    private mutating func parseAlternation() throws(Unsupported) -> Node {
        var branches = [try parseSequence()]
        while current == "|" {
            index += 1
            branches.append(try parseSequence())
        }
        return branches.count == 1 ? branches[0] : .alternation(branches)
    }

    private mutating func parseSequence() throws(Unsupported) -> Node {
        var parts: [Node] = []
        while let scalar = current, scalar != "|", scalar != ")" {
            guard let atom = try parseAtom() else { continue }
            parts.append(try parseQuantifiers(atom))
        }
        return parts.count == 1 ? parts[0] : .sequence(parts)
    }

    private mutating func parseQuantifiers(_ atom: Node) throws(Unsupported) -> Node {
        constructStart = index
        guard let bounds = try parseQuantifier() else { return atom }
        let lazy = current == "?"
        if current == "?" || current == "+" { index += 1 }  // lazy or possessive
        if try parseQuantifier() != nil { throw refuse("a quantifier applied to a quantifier") }
        return .repetition(atom, minimum: bounds.minimum, maximum: bounds.maximum, lazy: lazy)
    }

    private mutating func parseQuantifier() throws(Unsupported) -> (minimum: Int, maximum: Int?)? {
        switch current {
        case "*": index += 1; return (0, nil)
        case "+": index += 1; return (1, nil)
        case "?": index += 1; return (0, 1)
        case "{":
            index += 1
            guard let minimum = readNumber() else {
                throw refuse("a \"{\" that does not start a quantifier {n}, {n,} or {n,m}")
            }
            var maximum: Int? = minimum
            if current == "," {
                index += 1
                maximum = readNumber()
            }
            guard current == "}" else { throw refuse("an unfinished quantifier") }
            index += 1
            if let maximum, maximum < minimum {
                throw refuse("a quantifier {\(minimum),\(maximum)} whose maximum is below its minimum")
            }
            return (minimum, maximum)
        default:
            return nil
        }
    }

    private mutating func readNumber() -> Int? {
        var value: Int?
        while let scalar = current, (0x30...0x39).contains(scalar.value) {
            value = (value ?? 0) * 10 + Int(scalar.value - 0x30)
            index += 1
            if (value ?? 0) > 10_000 { return value }
        }
        return value
    }

    /// One atom, or nil for something that matches the empty string and takes no quantifier (an anchor, an option).
    private mutating func parseAtom() throws(Unsupported) -> Node? {
        guard let scalar = current else { return nil }
        constructStart = index
        index += 1
        switch scalar {
        case "(": return try parseGroup()
        case "[": return .scalar(try parseClass())
        case ".": return .scalar(.printable)
        case "^", "$": return nil
        case "\\": return try parseEscape()
        case "*", "+", "?", "{": throw refuse("a quantifier \"\(scalar)\" with nothing to repeat")
        default: return .scalar(ScalarSet(scalar))
        }
    }

    private mutating func parseGroup() throws(Unsupported) -> Node? {
        if current == "?" {
            index += 1
            switch (current, peek(1)) {
            case (":", _):
                index += 1
            case ("<", let next) where next != "=" && next != "!":
                while let scalar = current, scalar != ">" { index += 1 }
                index += 1
            case ("i", ")"):
                index += 2
                return nil
            case ("i", ":"):
                index += 2
            case ("#", _):
                while let scalar = current, scalar != ")" { index += 1 }
                index += 1
                return nil
            case ("=", _), ("!", _), ("<", _):
                let mark = String(
                    String.UnicodeScalarView(scalars[index..<min(index + (current == "<" ? 2 : 1), scalars.count)]))
                throw refuse("a lookaround \"(?\(mark)\"")
            case (">", _):
                throw refuse("an atomic group \"(?>\"")
            default:
                throw refuse("an inline option or group \"(?\(current.map(String.init) ?? "")\"")
            }
        }
        let inner = try parseAlternation()
        guard current == ")" else { throw refuse("an unclosed \"(\"") }
        index += 1
        return inner
    }

    private mutating func parseEscape() throws(Unsupported) -> Node? {
        guard let scalar = current else { throw refuse("a \"\\\" at the end") }
        index += 1
        switch scalar {
        case "A", "z", "Z": return nil
        case "Q":
            var literal: [Node] = []
            while let next = current, !(next == "\\" && peek(1) == "E") {
                literal.append(.scalar(ScalarSet(next)))
                index += 1
            }
            if !atEnd { index += 2 }
            return .sequence(literal)
        default:
            return .scalar(try escapedSet(scalar))
        }
    }

    /// The set an escape stands for, inside or outside a class.
    private mutating func escapedSet(_ scalar: Unicode.Scalar) throws(Unsupported) -> ScalarSet {
        switch scalar {
        case "d": return .digits
        case "w": return .word
        case "s": return .space
        case "D": return ScalarSet.digits.complement
        case "W": return ScalarSet.word.complement
        case "S": return ScalarSet.space.complement
        case "t": return ScalarSet("\t")
        case "n": return ScalarSet("\n")
        case "r": return ScalarSet("\r")
        case "f": return ScalarSet(Unicode.Scalar(UInt8(0x0C)))
        case "v": return ScalarSet(Unicode.Scalar(UInt8(0x0B)))
        case "e": return ScalarSet(Unicode.Scalar(UInt8(0x1B)))
        case "a": return ScalarSet(Unicode.Scalar(UInt8(0x07)))
        case "x", "u", "U": return ScalarSet(try readHexScalar(after: scalar))
        case "b", "B": throw refuse("a word boundary \"\\\(scalar)\"")
        case "p", "P": throw refuse("a Unicode property \"\\\(scalar){…}\"")
        case "1", "2", "3", "4", "5", "6", "7", "8", "9", "k": throw refuse("a backreference \"\\\(scalar)\"")
        default:
            if scalar.properties.isAlphabetic || scalar.properties.numericType != nil {
                throw refuse("the escape \"\\\(scalar)\"")
            }
            return ScalarSet(scalar)
        }
    }

    private mutating func readHexScalar(after kind: Unicode.Scalar) throws(Unsupported) -> Unicode.Scalar {
        var digits = ""
        if kind == "x" && current == "{" {
            index += 1
            while let scalar = current, scalar != "}" {
                digits.unicodeScalars.append(scalar)
                index += 1
            }
            index += 1
        } else {
            let count = kind == "x" ? 2 : kind == "u" ? 4 : 8
            for _ in 0..<count {
                guard let scalar = current else { break }
                digits.unicodeScalars.append(scalar)
                index += 1
            }
        }
        guard let value = UInt32(digits, radix: 16), let result = Unicode.Scalar(value) else {
            throw refuse("the escape \"\\\(kind)\(digits)\"")
        }
        return result
    }

    private mutating func parseClass() throws(Unsupported) -> ScalarSet {
        var negated = false
        if current == "^" {
            negated = true
            index += 1
        }
        if current == "]" { throw refuse("a \"]\" first in a class") }
        var ranges: [ClosedRange<UInt32>] = []
        while let scalar = current, scalar != "]" {
            if scalar == "[" || (scalar == "&" && peek(1) == "&") || (scalar == "-" && peek(1) == "-") {
                throw refuse("a nested class or set operation in \"[…]\"")
            }
            let low = try classMember()
            guard case .single(let lower) = low, current == "-", let after = peek(1), after != "]" else {
                ranges += low.ranges
                continue
            }
            index += 1
            guard case .single(let upper) = try classMember(), upper.value >= lower.value else {
                throw refuse("a class range that is not from a character to a later one")
            }
            ranges += Self.withoutSurrogates(lower.value...upper.value)
        }
        guard current == "]" else { throw refuse("an unclosed \"[\"") }
        index += 1
        let set = ScalarSet(ranges: ranges)
        let result = negated ? set.complement : set
        if result.isEmpty { throw refuse("a class that no printable character matches") }
        return result
    }

    private enum ClassMember {
        case single(Unicode.Scalar)
        case set(ScalarSet)

        var ranges: [ClosedRange<UInt32>] {
            switch self {
            case .single(let scalar): return [scalar.value...scalar.value]
            case .set(let set): return set.ranges
            }
        }
    }

    private mutating func classMember() throws(Unsupported) -> ClassMember {
        guard let scalar = current else { throw refuse("an unclosed \"[\"") }
        constructStart = index
        index += 1
        guard scalar == "\\" else { return .single(scalar) }
        guard let escaped = current else { throw refuse("a \"\\\" at the end") }
        index += 1
        let set = try escapedSet(escaped)
        if set.ranges.count == 1, set.ranges[0].count == 1, let single = Unicode.Scalar(set.ranges[0].lowerBound),
            !"dwsDWS".unicodeScalars.contains(escaped)
        {
            return .single(single)
        }
        return .set(set)
    }

    private static func withoutSurrogates(_ range: ClosedRange<UInt32>) -> [ClosedRange<UInt32>] {
        let surrogates: ClosedRange<UInt32> = 0xD800...0xDFFF
        guard range.overlaps(surrogates) else { return [range] }
        var result: [ClosedRange<UInt32>] = []
        if range.lowerBound < surrogates.lowerBound { result.append(range.lowerBound...(surrogates.lowerBound - 1)) }
        if range.upperBound > surrogates.upperBound { result.append((surrogates.upperBound + 1)...range.upperBound) }
        return result
    }
}
