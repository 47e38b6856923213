public import Foundation

// The property-list types and their collections, archived as Foundation archives them: `NSString`s and `NSNumber`s
// as plain objects, `NSDate` in seconds since 2001, `NSURL` by its text, `NSUUID` by its 16 bytes, `NSArray`,
// `NSSet` and `NSDictionary` (a dictionary written with its keys sorted, so one value makes one archive).

extension String: KeyedArchivable {
    public init(archived object: PropertyListObject) throws(KeyedArchiveError) {
        guard case .string(let text) = object.value else { throw .mismatch(object, wanted: "a string") }
        self = text
    }

    public var archivedValue: PropertyListObject { PropertyListObject(.string(self)) }
}

extension Bool: KeyedArchivable {
    public init(archived object: PropertyListObject) throws(KeyedArchiveError) {
        guard case .bool(let flag) = object.value else { throw .mismatch(object, wanted: "a Boolean") }
        self = flag
    }

    public var archivedValue: PropertyListObject { PropertyListObject(.bool(self)) }
}

extension Int: KeyedArchivable {
    public init(archived object: PropertyListObject) throws(KeyedArchiveError) {
        self = try archivedInteger(object, Int.self)
    }

    public var archivedValue: PropertyListObject { PropertyListObject(.integer(Int64(self))) }
}

extension Int64: KeyedArchivable {
    public init(archived object: PropertyListObject) throws(KeyedArchiveError) {
        self = try archivedInteger(object, Int64.self)
    }

    public var archivedValue: PropertyListObject { PropertyListObject(.integer(self)) }
}

extension Int32: KeyedArchivable {
    public init(archived object: PropertyListObject) throws(KeyedArchiveError) {
        self = try archivedInteger(object, Int32.self)
    }

    public var archivedValue: PropertyListObject { PropertyListObject(.integer(Int64(self))) }
}

extension Int16: KeyedArchivable {
    public init(archived object: PropertyListObject) throws(KeyedArchiveError) {
        self = try archivedInteger(object, Int16.self)
    }

    public var archivedValue: PropertyListObject { PropertyListObject(.integer(Int64(self))) }
}

extension Double: KeyedArchivable {
    /// A real number, or an integer a `Double` holds exactly (an `NSNumber` made from a whole number).
    public init(archived object: PropertyListObject) throws(KeyedArchiveError) {
        switch object.value {
        case .real(let number): self = number
        case .integer(let number) where Double(exactly: number) != nil: self = Double(number)
        default: throw .mismatch(object, wanted: "a number")
        }
    }

    public var archivedValue: PropertyListObject { PropertyListObject(.real(self)) }
}

extension Float: KeyedArchivable {
    public init(archived object: PropertyListObject) throws(KeyedArchiveError) {
        self = Float(try Double(archived: object))
    }

    public var archivedValue: PropertyListObject { PropertyListObject(.real(Double(self))) }
}

extension Date: KeyedArchivable {
    public init(archived object: PropertyListObject) throws(KeyedArchiveError) {
        guard case .date(let seconds) = object.value else { throw .mismatch(object, wanted: "a date") }
        self = Date(timeIntervalSinceReferenceDate: seconds)
    }

    public var archivedValue: PropertyListObject { PropertyListObject(.date(timeIntervalSinceReferenceDate)) }
}

extension Data: KeyedArchivable {
    public init(archived object: PropertyListObject) throws(KeyedArchiveError) {
        guard case .data(let bytes) = object.value else { throw .mismatch(object, wanted: "data") }
        self = Data(bytes)
    }

    public var archivedValue: PropertyListObject { PropertyListObject(.data(Array(self))) }
}

extension URL: KeyedArchivable {
    public init(archived object: PropertyListObject) throws(KeyedArchiveError) {
        guard case .url(let text) = object.value else { throw .mismatch(object, wanted: "a URL") }
        guard let url = URL(string: text) else {
            throw KeyedArchiveError(message: "the archive's URL \"\(text)\" does not parse")
        }
        self = url
    }

    public var archivedValue: PropertyListObject { PropertyListObject(.url(absoluteString)) }
}

extension UUID: KeyedArchivable {
    public init(archived object: PropertyListObject) throws(KeyedArchiveError) {
        guard case .uuid(let bytes) = object.value, bytes.count == 16 else {
            throw .mismatch(object, wanted: "a UUID")
        }
        self = UUID(
            uuid: (
                bytes[0], bytes[1], bytes[2], bytes[3], bytes[4], bytes[5], bytes[6], bytes[7], bytes[8], bytes[9],
                bytes[10], bytes[11], bytes[12], bytes[13], bytes[14], bytes[15]
            ))
    }

    public var archivedValue: PropertyListObject {
        withUnsafeBytes(of: uuid) { PropertyListObject(.uuid(Array($0))) }
    }
}

extension Array: KeyedArchivable where Element: KeyedArchivable {
    public init(archived object: PropertyListObject) throws(KeyedArchiveError) {
        guard case .array(let elements, _) = object.value else { throw .mismatch(object, wanted: "an array") }
        self = []
        reserveCapacity(elements.count)
        for element in elements { append(try Element(archived: PropertyListObject(element))) }
    }

    public var archivedValue: PropertyListObject {
        PropertyListObject(.array(map(\.archivedValue.value), mutable: false))
    }
}

extension Set: KeyedArchivable where Element: KeyedArchivable {
    public init(archived object: PropertyListObject) throws(KeyedArchiveError) {
        guard case .set(let elements, _) = object.value else { throw .mismatch(object, wanted: "a set") }
        self = []
        for element in elements { insert(try Element(archived: PropertyListObject(element))) }
    }

    /// The members in the order of their archived objects' descriptions, so one set makes one archive.
    public var archivedValue: PropertyListObject {
        let members = map(\.archivedValue.value).sorted { String(describing: $0) < String(describing: $1) }
        return PropertyListObject(.set(members, mutable: false))
    }
}

extension Dictionary: KeyedArchivable where Key == String, Value: KeyedArchivable {
    /// A dictionary whose keys are strings; a key of another kind, or one written twice, is refused.
    public init(archived object: PropertyListObject) throws(KeyedArchiveError) {
        guard case .dictionary(let entries, _) = object.value else {
            throw .mismatch(object, wanted: "a dictionary")
        }
        self = [:]
        for entry in entries {
            guard case .string(let key) = entry.key else {
                throw .mismatch(PropertyListObject(entry.key), wanted: "a string key")
            }
            guard self[key] == nil else {
                throw KeyedArchiveError(message: "the archive's dictionary holds the key \"\(key)\" twice")
            }
            self[key] = try Value(archived: PropertyListObject(entry.value))
        }
    }

    public var archivedValue: PropertyListObject {
        let entries = sorted { $0.key.utf8.lexicographicallyPrecedes($1.key.utf8) }.map {
            PropertyListArchive.Entry(.string($0.key), $0.value.archivedValue.value)
        }
        return PropertyListObject(.dictionary(entries, mutable: false))
    }
}

/// An integer object that fits `type`.
private func archivedInteger<Integer: FixedWidthInteger>(_ object: PropertyListObject, _ type: Integer.Type)
    throws(KeyedArchiveError) -> Integer
{
    guard case .integer(let number) = object.value else { throw .mismatch(object, wanted: "an integer") }
    guard let fitted = Integer(exactly: number) else {
        throw KeyedArchiveError(message: "the archive's integer \(number) does not fit \(Integer.self)")
    }
    return fitted
}
