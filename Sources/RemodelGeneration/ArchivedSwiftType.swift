/// The Swift type of a Transformable attribute whose `customClassName` names a property-list type: what its keyed
/// archive holds, read and written through `KeyedArchiveCoding` (docs/TYPED-ACCESS.md, "Transformable attributes").
///
/// Swift spellings (`[String]`, `Array<Int>`, `Set<UUID>`, `[String: [Date]]`, `Dictionary<String, Bool>`, `URL`)
/// and Foundation's class names of the leaves (`NSString`, `NSDate`, `NSData`, `NSURL`, `NSUUID`) are read. A
/// name without element types (`NSArray`, `NSDictionary`, `NSNumber`), a custom class, or a dictionary whose keys
/// are not strings is none: the attribute stays `Data`.
///
/// For example:
/// ```swift
/// ArchivedSwiftType.parse("Dictionary<String, [Int]>")  // "[String: [Int]]"
/// ArchivedSwiftType.parse("NSArray")                    // nil
/// ```
enum ArchivedSwiftType {
    /// The leaf types, by the names a model may give them.
    fileprivate static let leaves: [String: String] = [
        "String": "String", "NSString": "String", "Bool": "Bool", "Int": "Int", "Int64": "Int64", "Int32": "Int32",
        "Int16": "Int16", "Double": "Double", "Float": "Float", "Date": "Date", "NSDate": "Date", "Data": "Data",
        "NSData": "Data", "URL": "URL", "NSURL": "URL", "UUID": "UUID", "NSUUID": "UUID",
    ]

    /// The Swift type `customClassName` names, spelled as the generated code writes it, or nil.
    static func parse(_ customClassName: String) -> String? {
        var parser = Parser(text: Array(customClassName.unicodeScalars.filter { $0 != " " }))
        guard let type = parser.type(depth: 0), parser.position == parser.text.count else { return nil }
        return type
    }

    private struct Parser {
        let text: [Unicode.Scalar]
        var position = 0

        /// Deep enough for any real model, shallow enough that a hostile name cannot exhaust the stack.
        static let maximumDepth = 8

        mutating func type(depth: Int) -> String? {
            guard depth < Self.maximumDepth else { return nil }
            if take("[") {
                guard let first = type(depth: depth + 1) else { return nil }
                if take(":") {
                    guard first == "String", let value = type(depth: depth + 1), take("]") else { return nil }
                    return "[String: \(value)]"
                }
                return take("]") ? "[\(first)]" : nil
            }
            let name = identifier()
            switch name {
            case "Array", "Set":
                guard take("<"), let element = type(depth: depth + 1), take(">") else { return nil }
                return name == "Array" ? "[\(element)]" : "Set<\(element)>"
            case "Dictionary":
                guard take("<"), type(depth: depth + 1) == "String", take(","),
                    let value = type(depth: depth + 1), take(">")
                else { return nil }
                return "[String: \(value)]"
            default:
                return ArchivedSwiftType.leaves[name]
            }
        }

        mutating func identifier() -> String {
            var name = ""
            while position < text.count, text[position].properties.isAlphabetic || ("0"..."9").contains(text[position])
            {
                name.unicodeScalars.append(text[position])
                position += 1
            }
            return name
        }

        mutating func take(_ scalar: Unicode.Scalar) -> Bool {
            guard position < text.count, text[position] == scalar else { return false }
            position += 1
            return true
        }
    }
}
