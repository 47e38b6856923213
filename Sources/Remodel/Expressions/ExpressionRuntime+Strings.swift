import Foundation

extension ExpressionRuntime {
    /// The string functions, all counting and matching Unicode scalars (as SQLite
    /// counts characters of TEXT), never grapheme clusters.
    static func string(_ function: StringFunction, _ arguments: [SQLiteValue]) -> SQLiteValue {
        if arguments.contains(where: \.isNull) { return .null }
        guard case .text(let text) = arguments.first else { return .null }
        switch function {
        case .lowercase: return .text(text.lowercased())
        case .uppercase: return .text(text.uppercased())
        case .trim: return .text(trim(text))
        case .length: return .integer(Int64(text.unicodeScalars.count))
        case .substring:
            guard arguments.count == 3, case .integer(let start) = arguments[1],
                case .integer(let length) = arguments[2]
            else {
                return .null
            }
            return .text(substring(text, start: start, length: length))
        case .replace:
            guard arguments.count == 3, case .text(let find) = arguments[1], case .text(let replacement) = arguments[2]
            else {
                return .null
            }
            return .text(replace(text, find: find, with: replacement))
        }
    }

    /// Removes leading and trailing white space (Unicode `White_Space`, newlines included).
    static func trim(_ text: String) -> String {
        let scalars = Array(text.unicodeScalars)
        guard let first = scalars.firstIndex(where: { !$0.properties.isWhitespace }),
            let last = scalars.lastIndex(where: { !$0.properties.isWhitespace })
        else { return "" }
        var result = String.UnicodeScalarView()
        result.append(contentsOf: scalars[first...last])
        return String(result)
    }

    /// `length` scalars from the 0-based `start`; a negative start counts as 0, a
    /// negative length gives "", and the range is clipped to the text.
    static func substring(_ text: String, start: Int64, length: Int64) -> String {
        let scalars = Array(text.unicodeScalars)
        let count = Int64(scalars.count)
        let lower = min(max(start, 0), count)
        guard length > 0 else { return "" }
        let upper = length >= count - lower ? count : lower + length
        var result = String.UnicodeScalarView()
        result.append(contentsOf: scalars[Int(lower)..<Int(upper)])
        return String(result)
    }

    /// Replaces every non-overlapping occurrence of `find`, left to right, matching
    /// scalars exactly (no Unicode equivalence); an empty `find` changes nothing.
    static func replace(_ text: String, find: String, with replacement: String) -> String {
        let scalars = Array(text.unicodeScalars), pattern = Array(find.unicodeScalars)
        guard !pattern.isEmpty, pattern.count <= scalars.count else { return text }
        var result = String.UnicodeScalarView()
        var index = 0
        while index < scalars.count {
            if index + pattern.count <= scalars.count && scalars[index..<(index + pattern.count)].elementsEqual(pattern)
            {
                result.append(contentsOf: replacement.unicodeScalars)
                index += pattern.count
            } else {
                result.append(scalars[index])
                index += 1
            }
        }
        return String(result)
    }
}
