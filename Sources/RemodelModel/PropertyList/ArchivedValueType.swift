/// The type of the value a Transformable attribute keeps as a keyed archive, read from its `customClassName`
/// (docs/TYPED-ACCESS.md, "Transformable attributes"): the generated records type the attribute so, and
/// `remodel seed` writes archives of it.
///
/// Swift spellings (`[String]`, `Array<Int>`, `Set<UUID>`, `[String: [Date]]`, `Dictionary<String, Bool>`, `URL`)
/// and Foundation's class names of the leaves (`NSString`, `NSDate`, `NSData`, `NSURL`, `NSUUID`) are read. A
/// name without element types (`NSArray`, `NSDictionary`, `NSNumber`), a custom class, or a dictionary whose keys
/// are not strings is none: the attribute's value is opaque data.
///
/// For example:
/// ```swift
/// ArchivedValueType.parse("Dictionary<String, [Int]>")?.spelled  // "[String: [Int]]"
/// ArchivedValueType.parse("NSArray")                             // nil
/// ```
package indirect enum ArchivedValueType: Sendable, Hashable {
    case leaf(Leaf)
    case array(ArchivedValueType)
    case set(ArchivedValueType)
    /// A dictionary whose keys are strings.
    case dictionary(ArchivedValueType)

    /// A type that holds no other, by its Swift name.
    package enum Leaf: String, Sendable, Hashable, CaseIterable {
        case string = "String", bool = "Bool", int = "Int", int64 = "Int64", int32 = "Int32", int16 = "Int16"
        case double = "Double", float = "Float", date = "Date", data = "Data", url = "URL", uuid = "UUID"

        /// Foundation's class names of the leaves that have one.
        private static let classNames: [String: Leaf] = [
            "NSString": .string, "NSDate": .date, "NSData": .data, "NSURL": .url, "NSUUID": .uuid,
        ]

        /// The leaf a model names, by its Swift name or Foundation's class name (`NSString`, `NSURL`…).
        init?(named name: String) {
            guard let leaf = Leaf(rawValue: name) ?? Self.classNames[name] else { return nil }
            self = leaf
        }
    }

    /// The type `customClassName` names, or nil.
    package static func parse(_ customClassName: String) -> ArchivedValueType? {
        var parser = NameReader(text: Array(customClassName.unicodeScalars.filter { $0 != " " }))
        guard let type = parser.type(depth: 0), parser.position == parser.text.count else { return nil }
        return type
    }

    /// The type as Swift spells it, as the generated code writes it (`[String: [Int]]`, `Set<UUID>`).
    package var spelled: String {
        switch self {
        case .leaf(let leaf): leaf.rawValue
        case .array(let element): "[\(element.spelled)]"
        case .set(let element): "Set<\(element.spelled)>"
        case .dictionary(let value): "[String: \(value.spelled)]"
        }
    }

    private struct NameReader {
        let text: [Unicode.Scalar]
        var position = 0

        /// Deep enough for any real model, shallow enough that a hostile name cannot exhaust the stack.
        static let maximumDepth = 8

        mutating func type(depth: Int) -> ArchivedValueType? {
            guard depth < Self.maximumDepth else { return nil }
            if take("[") {
                guard let first = type(depth: depth + 1) else { return nil }
                if take(":") {
                    guard first == .leaf(.string), let value = type(depth: depth + 1), take("]") else { return nil }
                    return .dictionary(value)
                }
                return take("]") ? .array(first) : nil
            }
            let name = identifier()
            switch name {
            case "Array", "Set":
                guard take("<"), let element = type(depth: depth + 1), take(">") else { return nil }
                return name == "Array" ? .array(element) : .set(element)
            case "Dictionary":
                guard take("<"), type(depth: depth + 1) == .leaf(.string), take(","),
                    let value = type(depth: depth + 1), take(">")
                else { return nil }
                return .dictionary(value)
            default:
                return Leaf(named: name).map(ArchivedValueType.leaf)
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
