import Foundation

/// Parses defaults and bounds the way Core Data reads them from a model file.
enum AttributeValueParser {
    /// What a written value turned out to be.
    enum Outcome: Equatable {
        /// The value parses; `comparable` orders numbers, dates and lengths for min/max checks.
        case valid(comparable: Decimal?)
        /// A numeric type written as YES/NO/true/false, which Core Data reads as 1 or 0.
        case booleanWord(Decimal)
        /// The value does not parse; `expected` says what would.
        case invalid(expected: String)
    }

    /// Parses a default value written for an attribute of `type`; `nil` when the type has no checkable defaults.
    static func parseDefault(_ text: String, as type: AttributeType) -> Outcome? {
        switch type {
        case .integer16, .integer32, .integer64, .float, .double, .decimal, .date: return parseNumber(text, as: type)
        case .boolean: return parseBoolean(text)
        case .uuid:
            return UUID(uuidString: text) != nil
                ? .valid(comparable: nil) : .invalid(expected: "a UUID such as 3F2504E0-4F89-41D3-9A0C-0305E82C3301")
        case .uri:
            return !text.isEmpty && URL(string: text) != nil
                ? .valid(comparable: nil) : .invalid(expected: "a URI such as https://example.com")
        case .string, .binary, .transformable, .undefined, .objectID, .composite: return nil
        }
    }

    /// Parses a minimum or maximum written for an attribute of `type`; `nil` when the type has no bounds.
    static func parseBound(_ text: String, as type: AttributeType) -> Outcome? {
        switch type {
        case .integer16, .integer32, .integer64, .float, .double, .decimal, .date: return parseNumber(text, as: type)
        case .string, .binary:
            guard let length = Int(text), length >= 0 else {
                return .invalid(expected: "a length: a whole number of zero or more")
            }
            return .valid(comparable: Decimal(length))
        case .boolean, .uuid, .uri, .transformable, .undefined, .objectID, .composite: return nil
        }
    }

    private static let booleanWords: [String: Decimal] = ["YES": 1, "NO": 0, "true": 1, "false": 0]

    private static func parseBoolean(_ text: String) -> Outcome {
        if booleanWords[text] != nil { return .valid(comparable: nil) }
        // Xcode writes numbers too (a real model has "0.0"); Core Data reads them as NSNumber.
        if let number = decimal(text), number == 0 || number == 1 { return .valid(comparable: nil) }
        return .invalid(expected: "YES, NO, true, false, 0 or 1")
    }

    private static func parseNumber(_ text: String, as type: AttributeType) -> Outcome {
        let expected = expectation(for: type)
        if let word = booleanWords[text] { return type == .date ? .invalid(expected: expected) : .booleanWord(word) }
        guard let number = decimal(text) else { return .invalid(expected: expected) }
        switch type {
        case .integer16, .integer32, .integer64:
            guard let range = type.integerRange, isWhole(number), number >= Decimal(range.lowerBound),
                number <= Decimal(range.upperBound)
            else {
                return .invalid(expected: expected)
            }
        case .float:
            guard let value = Float(text), value.isFinite else { return .invalid(expected: expected) }
        case .double, .date:
            guard let value = Double(text), value.isFinite else { return .invalid(expected: expected) }
        default:
            break
        }
        return .valid(comparable: number)
    }

    private static func expectation(for type: AttributeType) -> String {
        if let range = type.integerRange { return "a whole number from \(range.lowerBound) to \(range.upperBound)" }
        switch type {
        case .date: return "a number of seconds since 2001-01-01 00:00:00 UTC"
        case .decimal: return "a decimal number such as 12.50"
        default: return "a number such as 1.5"
        }
    }

    /// A strictly written decimal number (`-12`, `3.5`, `.5`, `1e3`): nothing before or after it.
    static func decimal(_ text: String) -> Decimal? {
        var scalars = Substring(text).unicodeScalars[...]
        func digits() -> Int {
            var count = 0
            while let next = scalars.first, ("0"..."9").contains(next) {
                scalars.removeFirst()
                count += 1
            }
            return count
        }
        if let sign = scalars.first, sign == "+" || sign == "-" { scalars.removeFirst() }
        var mantissaDigits = digits()
        if scalars.first == "." {
            scalars.removeFirst()
            mantissaDigits += digits()
        }
        guard mantissaDigits > 0 else { return nil }
        if let exponent = scalars.first, exponent == "e" || exponent == "E" {
            scalars.removeFirst()
            if let sign = scalars.first, sign == "+" || sign == "-" { scalars.removeFirst() }
            guard digits() > 0 else { return nil }
        }
        guard scalars.isEmpty else { return nil }
        // No locale: the text is checked above to be digits with "." for the point, and a Locale would
        // load ICU's data (3.6 MiB of a process's memory) for nothing.
        return Decimal(string: text, locale: nil)
    }

    private static func isWhole(_ number: Decimal) -> Bool {
        var value = number
        var rounded = Decimal()
        NSDecimalRound(&rounded, &value, 0, .plain)
        return rounded == number
    }
}
