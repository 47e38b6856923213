/// An `NSKeyedArchiver` archive read without Apple's classes: a property list
/// whose `$objects` array holds every object, each object a dictionary whose
/// references to others are `CF$UID` values (``PropertyListValue/uid(_:)``),
/// whose `$class` refers to a dictionary holding its `$classname`; `$top`
/// names the root object, and `$objects[0]` is `$null`, the nil reference.
///
/// For example:
/// ```swift
/// let archive = try KeyedArchive(bytes: Array(data))
/// let root = try archive.root()             // .object(ArchivedObject) of class NSKeyPathExpression
/// ```
package struct KeyedArchive: Sendable {
    /// Why data is not a keyed archive Remodel can read.
    package struct Failure: Error, Sendable, Hashable {
        package var message: String

        /// A failure that says `message`.
        package init(message: String) {
            self.message = message
        }
    }

    package let objects: [PropertyListValue]
    let top: [String: PropertyListValue]
    /// `$version` (100000 in every archive Foundation writes), nil when missing.
    let version: Int64?

    /// Reads a binary property list and checks that it is a keyed archive.
    package init(bytes: [UInt8]) throws(Failure) {
        let value: PropertyListValue
        do {
            value = try BinaryPropertyList.decode(bytes)
        } catch {
            throw Failure(message: "not a binary property list: \(error.message)")
        }
        try self.init(value)
    }

    /// Checks that a property list is a keyed archive.
    init(_ value: PropertyListValue) throws(Failure) {
        guard let entries = value.dictionary else { throw Failure(message: "the property list is not a dictionary") }
        guard entries["$archiver"]?.string == "NSKeyedArchiver" else {
            throw Failure(
                message:
                    "the property list is not an NSKeyedArchiver archive (its $archiver is \(entries["$archiver"]?.string ?? "missing"))"
            )
        }
        guard let objects = entries["$objects"]?.array, let top = entries["$top"]?.dictionary else {
            throw Failure(message: "the archive has no $objects array or no $top dictionary")
        }
        self.objects = objects
        self.top = top
        version = entries["$version"]?.integer
    }

    /// The root object: `$top`'s `root` entry, or its only entry.
    package func root() throws(Failure) -> ArchivedValue {
        guard let reference = top["root"] ?? (top.count == 1 ? top.values.first : nil) else {
            throw Failure(message: "the archive's $top has no root entry")
        }
        return try resolve(reference)
    }

    /// A value with a `CF$UID` reference followed (one level); plain values as they are.
    package func resolve(_ value: PropertyListValue) throws(Failure) -> ArchivedValue {
        guard case .uid(let index) = value else { return ArchivedValue(value) }
        guard index >= 0, index < objects.count else {
            throw Failure(message: "a reference to object \(index), but the archive has \(objects.count) objects")
        }
        let object = objects[index]
        if index == 0, object.string == "$null" { return .null }
        guard case .dictionary(let fields) = object, let classReference = fields["$class"] else {
            return ArchivedValue(object)
        }
        guard case .uid(let classIndex) = classReference, classIndex >= 0, classIndex < objects.count,
            let className = objects[classIndex].dictionary?["$classname"]?.string
        else {
            throw Failure(message: "object \(index) has a $class that is not a class description")
        }
        return .object(ArchivedObject(archive: self, index: index, className: className, fields: fields))
    }
}

/// A value of a keyed archive: nil, a plain property-list value, or an object with a class.
package enum ArchivedValue: Sendable {
    case null
    case plain(PropertyListValue)
    case object(ArchivedObject)

    init(_ value: PropertyListValue) {
        if case .null = value { self = .null } else { self = .plain(value) }
    }

    /// The text of a string, inline or archived as `NSString`/`NSMutableString` (`NS.string`).
    package var string: String? {
        switch self {
        case .plain(let value): return value.string
        case .object(let object):
            if let text = object.fields["NS.string"]?.string { return text }
            if case .data(let bytes)? = object.fields["NS.bytes"] { return String(decoding: bytes, as: UTF8.self) }
            return nil
        case .null: return nil
        }
    }
}

/// One archived object: its class name and its fields (references not yet followed).
package struct ArchivedObject: Sendable {
    let archive: KeyedArchive
    /// Its position in `$objects`.
    package let index: Int
    /// `$classname`, such as `NSKeyPathExpression`.
    package let className: String
    package let fields: [String: PropertyListValue]

    /// The value under `key`, its reference followed; nil when the key is absent.
    package func value(_ key: String) throws(KeyedArchive.Failure) -> ArchivedValue? {
        guard let field = fields[key] else { return nil }
        return try archive.resolve(field)
    }

    /// The integer under `key` (`encodeInteger:forKey:`), 0 when absent as `NSCoder` gives it.
    package func integer(_ key: String) -> Int64 {
        fields[key]?.integer ?? 0
    }

    /// The elements of an archived `NSArray`/`NSSet` (`NS.objects`), references followed.
    package func elements() throws(KeyedArchive.Failure) -> [ArchivedValue] {
        guard let references = fields["NS.objects"]?.array else {
            throw KeyedArchive.Failure(message: "object \(index) (\(className)) is not an archived array")
        }
        var result: [ArchivedValue] = []
        for reference in references { result.append(try archive.resolve(reference)) }
        return result
    }

    /// The entries of an archived `NSDictionary` (`NS.keys`, `NS.objects`), references followed.
    package func entries() throws(KeyedArchive.Failure) -> [(key: ArchivedValue, value: ArchivedValue)] {
        guard let keys = fields["NS.keys"]?.array, let values = fields["NS.objects"]?.array, keys.count == values.count
        else {
            throw KeyedArchive.Failure(message: "object \(index) (\(className)) is not an archived dictionary")
        }
        var result: [(key: ArchivedValue, value: ArchivedValue)] = []
        for (key, value) in zip(keys, values) { result.append((try archive.resolve(key), try archive.resolve(value))) }
        return result
    }
}
