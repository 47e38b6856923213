/// A JSON value whose objects keep their keys in the order given, so that
/// output is deterministic and reads in a sensible order. (`package`: the
/// `RemodelTesting` library writes its reports with it.)
package enum JSONDocument: Sendable, Hashable {
    case string(String)
    case bool(Bool)
    case int(Int)
    case number(Double)
    case null
    case array([JSONDocument])
    case object([(String, JSONDocument)])

    package static func == (lhs: JSONDocument, rhs: JSONDocument) -> Bool { lhs.rendered() == rhs.rendered() }

    package func hash(into hasher: inout Hasher) { hasher.combine(rendered()) }

    /// The value on one line, with no spaces: for JSON-lines output.
    package func compact() -> String {
        switch self {
        case .array(let items): return "[" + items.map { $0.compact() }.joined(separator: ",") + "]"
        case .object(let members):
            return "{" + members.map { Self.quoted($0.0) + ":" + $0.1.compact() }.joined(separator: ",") + "}"
        default: return rendered()
        }
    }

    /// The value as indented JSON text (two spaces a level), without a final newline.
    package func rendered(indent: String = "") -> String {
        switch self {
        case .string(let text): return Self.quoted(text)
        case .bool(let flag): return flag ? "true" : "false"
        case .int(let number): return String(number)
        case .number(let number): return number.isFinite ? String(number) : "null"
        case .null: return "null"
        case .array(let items):
            guard !items.isEmpty else { return "[]" }
            let inner = indent + "  "
            return "[\n" + items.map { inner + $0.rendered(indent: inner) }.joined(separator: ",\n") + "\n\(indent)]"
        case .object(let members):
            guard !members.isEmpty else { return "{}" }
            let inner = indent + "  "
            let lines = members.map { inner + Self.quoted($0.0) + ": " + $0.1.rendered(indent: inner) }
            return "{\n" + lines.joined(separator: ",\n") + "\n\(indent)}"
        }
    }

    /// A JSON string literal: quotes, backslashes and control characters escaped.
    package static func quoted(_ text: String) -> String {
        var result = "\""
        for scalar in text.unicodeScalars {
            switch scalar {
            case "\"": result += "\\\""
            case "\\": result += "\\\\"
            case "\n": result += "\\n"
            case "\r": result += "\\r"
            case "\t": result += "\\t"
            case let control where control.value < 0x20:
                let hex = String(control.value, radix: 16)
                result += "\\u" + String(repeating: "0", count: 4 - hex.count) + hex
            default: result.unicodeScalars.append(scalar)
            }
        }
        return result + "\""
    }
}
