public import Foundation

/// A Swift value that a Transformable attribute keeps as a keyed archive of property-list objects, as Core Data's
/// `NSSecureUnarchiveFromData` transformer writes it: strings, numbers, Booleans, dates, data, URLs, UUIDs, and
/// arrays, sets and string-keyed dictionaries of them.
///
/// Generated records type a Transformable attribute whose `customClassName` names such a type (`[String]`,
/// `[String: Int]`, `URL`…) and read and write its archive through ``KeyedArchiveCoding``
/// (docs/TYPED-ACCESS.md, "Transformable attributes"). The conformances are Remodel's; the requirements speak of
/// ``PropertyListObject``, which only Remodel reads and makes.
public protocol KeyedArchivable: Sendable {
    /// The value of one object of an archive; throws when the object is of another kind.
    init(archived value: PropertyListObject) throws(KeyedArchiveError)
    /// The value as one object of an archive.
    var archivedValue: PropertyListObject { get }
}

/// One object of a keyed archive of property-list objects (``KeyedArchivable``).
public struct PropertyListObject: Sendable, Hashable {
    package var value: PropertyListArchive.Value

    package init(_ value: PropertyListArchive.Value) {
        self.value = value
    }

    /// What the object is, for messages: `a string`, `an array`…
    var kind: String {
        switch value {
        case .string: "a string"
        case .integer: "an integer"
        case .real: "a real number"
        case .bool: "a Boolean"
        case .data: "data"
        case .date: "a date"
        case .uuid: "a UUID"
        case .url: "a URL"
        case .null: "NSNull"
        case .array: "an array"
        case .set: "a set"
        case .dictionary: "a dictionary"
        }
    }
}

/// Why a keyed archive is not a value of the type asked for: bytes that are no archive of property-list objects
/// (``message`` says where they break), or an object of another kind.
public struct KeyedArchiveError: Error, Sendable, Hashable, CustomStringConvertible {
    /// What is wrong, as a sentence fragment: `the archive holds a string where [Int] wants an integer`.
    public var message: String

    package init(message: String) {
        self.message = message
    }

    public var description: String { message }

    static func mismatch(_ object: PropertyListObject, wanted: String) -> KeyedArchiveError {
        KeyedArchiveError(message: "the archive holds \(object.kind) where \(wanted) is wanted")
    }
}

/// Reads and writes the keyed archives of Transformable attributes as Swift values.
///
/// For example:
/// ```swift
/// let data = KeyedArchiveCoding.encode(["red", "blue"])
/// try KeyedArchiveCoding.decode([String].self, from: data)   // ["red", "blue"]
/// ```
public enum KeyedArchiveCoding {
    /// The value a keyed archive holds; throws ``KeyedArchiveError`` for bytes that are no archive of
    /// property-list objects (never crashes on hostile bytes) or an archive of another kind of value.
    public static func decode<Value: KeyedArchivable>(_ type: Value.Type, from data: Data) throws(KeyedArchiveError)
        -> Value
    {
        let archive: PropertyListArchive
        do {
            archive = try PropertyListArchive(archive: Array(data))
        } catch {
            throw KeyedArchiveError(message: error.message)
        }
        return try Value(archived: PropertyListObject(archive.root))
    }

    /// The keyed archive of a value, as `NSKeyedArchiver` writes it (`$version`, `$archiver`, `$top` with the
    /// `root`, `$objects`).
    public static func encode(_ value: some KeyedArchivable) -> Data {
        Data(PropertyListArchive(root: value.archivedValue.value).bytes)
    }
}
