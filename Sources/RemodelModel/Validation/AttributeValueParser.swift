import Foundation

/// Parses defaults and bounds the way Core Data reads them from a model file.
enum AttributeValueParser {
    /// What a written value turned out to be.
    enum Outcome: Equatable {
        /// The value parses; `comparable` orders numbers, dates and lengths for min/max checks.
        case valid(comparable: WrittenNumber?)
        /// A numeric type written as YES/NO/true/false, which Core Data reads as 1 or 0.
        case booleanWord(Int)
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
            return .valid(comparable: WrittenNumber(Int64(length)))
        case .boolean, .uuid, .uri, .transformable, .undefined, .objectID, .composite: return nil
        }
    }

    private static let booleanWords: [String: Int] = ["YES": 1, "NO": 0, "true": 1, "false": 0]

    private static func parseBoolean(_ text: String) -> Outcome {
        if booleanWords[text] != nil { return .valid(comparable: nil) }
        // Xcode writes numbers too (a real model has "0.0"); Core Data reads them as NSNumber.
        if let number = WrittenNumber(text), number == WrittenNumber(0) || number == WrittenNumber(1) {
            return .valid(comparable: nil)
        }
        return .invalid(expected: "YES, NO, true, false, 0 or 1")
    }

    private static func parseNumber(_ text: String, as type: AttributeType) -> Outcome {
        let expected = expectation(for: type)
        if let word = booleanWords[text] { return type == .date ? .invalid(expected: expected) : .booleanWord(word) }
        guard let number = WrittenNumber(text) else { return .invalid(expected: expected) }
        switch type {
        case .integer16, .integer32, .integer64:
            guard let range = type.integerRange, number.isWhole, number >= WrittenNumber(Int64(range.lowerBound)),
                number <= WrittenNumber(Int64(range.upperBound))
            else {
                return .invalid(expected: expected)
            }
        case .float:
            guard let value = Float(text), value.isFinite else { return .invalid(expected: expected) }
        case .double, .date:
            guard let value = Double(text), value.isFinite else { return .invalid(expected: expected) }
        case .decimal:
            // Core Data holds a Decimal attribute's value in `NSDecimalNumber`: 38 digits, exponents −128…127.
            guard Decimal(string: text, locale: nil) != nil else { return .invalid(expected: expected) }
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
}
