/// A graph of property-list objects kept as an `NSKeyedArchiver` archive: what Core Data's
/// `NSSecureUnarchiveFromData` transformer writes for a Transformable attribute holding strings, numbers, dates,
/// data, URLs, UUIDs, `NSNull`, and arrays, dictionaries and sets of them.
///
/// Read from an archive's bytes (``init(archive:)``) and written back (``bytes``) as Foundation writes it, so an
/// archive ``exact(_:)`` accepts is written back byte for byte; anything else (another class, a layout this writer
/// does not reproduce) is not one, and stays bytes.
///
/// For example:
/// ```swift
/// let archive = PropertyListArchive(root: .array([.string("red"), .string("blue")], mutable: false))
/// PropertyListArchive.exact(archive.bytes) == archive   // true
/// ```
package struct PropertyListArchive: Sendable, Hashable {
    /// One object of the graph.
    package indirect enum Value: Sendable, Hashable {
        case string(String)
        case integer(Int64)
        case real(Double)
        case bool(Bool)
        case data([UInt8])
        /// `NSDate`: seconds since 2001-01-01 UTC.
        case date(Double)
        /// `NSUUID`: its 16 bytes.
        case uuid([UInt8])
        /// `NSURL` without a base: its text.
        case url(String)
        /// `NSNull`.
        case null
        case array([Value], mutable: Bool)
        case set([Value], mutable: Bool)
        case dictionary([Entry], mutable: Bool)
    }

    /// One entry of a dictionary, in the order the archive lists it.
    package struct Entry: Sendable, Hashable {
        package var key: Value
        package var value: Value

        package init(_ key: Value, _ value: Value) {
            self.key = key
            self.value = value
        }
    }

    /// The order of the archive's four top keys: Foundation's today (`$version`, `$archiver`, `$top`,
    /// `$objects`), or the order older systems wrote (`$top`, `$objects`, `$version`, `$archiver`; the
    /// BookMigration store of the corpus has it).
    package enum Layout: Sendable, Hashable {
        case current
        case legacy
    }

    /// Why bytes are not an archive of property-list objects.
    package struct Failure: Error, Sendable, Hashable {
        package var message: String
    }

    /// The root object.
    package var root: Value
    package var layout: Layout
    /// The key of the root object in `$top`: `root` for what `NSKeyedArchiver.archivedData(withRootObject:)` (and
    /// so Core Data's transformers) writes.
    package var topKey: String

    package init(root: Value, layout: Layout = .current, topKey: String = "root") {
        self.root = root
        self.layout = layout
        self.topKey = topKey
    }

    /// The most objects a graph may spread into once shared objects are written out in full: one per byte of the
    /// archive, which holds every graph without shared containers (each reference takes a byte at least); a hostile
    /// archive that names one container from many places, doubling it at every level, stops there.
    static func maximumExpandedObjects(_ bytes: Int) -> Int { bytes + 64 }

    /// Reads an archive of property-list objects; the layout is taken as ``Layout/current``.
    package init(archive bytes: [UInt8]) throws(Failure) {
        let archive: KeyedArchive
        do {
            archive = try KeyedArchive(bytes: bytes)
        } catch {
            throw Failure(message: error.message)
        }
        guard archive.version == 100_000 else {
            throw Failure(message: "the archive's $version is not 100000")
        }
        guard archive.top.count == 1, let (key, reference) = archive.top.first else {
            throw Failure(message: "the archive's $top is not one root object")
        }
        var reading = ArchiveReading(archive: archive, limit: Self.maximumExpandedObjects(bytes.count))
        root = try reading.value(reference, depth: 0)
        layout = .current
        topKey = key
    }

    /// The archive of `bytes` when it holds property-list objects and this writer writes it back to the same bytes
    /// (in one of its layouts); nil otherwise.
    package static func exact(_ bytes: [UInt8]) -> PropertyListArchive? {
        guard var archive = try? PropertyListArchive(archive: bytes) else { return nil }
        for layout in [Layout.current, .legacy] {
            archive.layout = layout
            if archive.bytes == bytes { return archive }
        }
        return nil
    }
}

/// The walk from the root through the archive's objects: every reference checked, no object inside itself, no
/// deeper than a property list may nest, no more objects reached than ``PropertyListArchive/maximumExpandedObjects(_:)``.
private struct ArchiveReading {
    let archive: KeyedArchive
    /// The most objects the walk may reach (``PropertyListArchive/maximumExpandedObjects(_:)``).
    let limit: Int
    var visiting: Set<Int> = []
    var expanded = 0

    typealias Value = PropertyListArchive.Value
    typealias Failure = PropertyListArchive.Failure

    mutating func value(_ reference: PropertyListValue, depth: Int) throws(Failure) -> Value {
        guard case .uid(let index) = reference else { throw Failure(message: "a field is not an object reference") }
        guard index > 0, index < archive.objects.count else {
            throw Failure(
                message: index == 0
                    ? "an object is nil ($null)" : "a reference to object \(index), past the archive's objects")
        }
        expanded += 1
        guard expanded <= limit else {
            throw Failure(message: "the objects spread into more than \(limit), one for each byte of the archive")
        }
        guard depth <= BinaryPropertyList.maximumDepth else {
            throw Failure(message: "the objects nest more than \(BinaryPropertyList.maximumDepth) deep")
        }
        switch archive.objects[index] {
        case .string(let text): return .string(text)
        case .integer(let number): return .integer(number)
        case .real(let number): return .real(number)
        case .bool(let flag): return .bool(flag)
        case .data(let bytes): return .data(bytes)
        case .dictionary(let fields):
            guard visiting.insert(index).inserted else { throw Failure(message: "object \(index) contains itself") }
            defer { visiting.remove(index) }
            return try object(index, fields, depth: depth)
        default:
            throw Failure(message: "object \(index) is not an archived object")
        }
    }

    private mutating func object(_ index: Int, _ fields: [String: PropertyListValue], depth: Int) throws(Failure)
        -> Value
    {
        guard case .uid(let classIndex)? = fields["$class"], classIndex > 0, classIndex < archive.objects.count,
            let description = archive.objects[classIndex].dictionary,
            let className = description["$classname"]?.string
        else { throw Failure(message: "object \(index) has no class") }
        func only(_ keys: Set<String>) throws(Failure) {
            guard Set(fields.keys) == keys.union(["$class"]) else {
                throw Failure(message: "object \(index) (\(className)) has fields \(fields.keys.sorted())")
            }
        }
        func elements(_ key: String) throws(Failure) -> [Value] {
            guard let references = fields[key]?.array else {
                throw Failure(message: "object \(index) (\(className)) has no \(key) array")
            }
            var result: [Value] = []
            result.reserveCapacity(references.count)
            for reference in references { result.append(try value(reference, depth: depth + 1)) }
            return result
        }
        switch className {
        case "NSArray", "NSMutableArray":
            try only(["NS.objects"])
            return .array(try elements("NS.objects"), mutable: className == "NSMutableArray")
        case "NSSet", "NSMutableSet":
            try only(["NS.objects"])
            return .set(try elements("NS.objects"), mutable: className == "NSMutableSet")
        case "NSDictionary", "NSMutableDictionary":
            try only(["NS.keys", "NS.objects"])
            let keys = try elements("NS.keys")
            let values = try elements("NS.objects")
            guard keys.count == values.count else {
                throw Failure(
                    message: "object \(index) (\(className)) has \(keys.count) keys and \(values.count) values")
            }
            return .dictionary(
                zip(keys, values).map { PropertyListArchive.Entry($0, $1) }, mutable: className == "NSMutableDictionary"
            )
        case "NSDate":
            try only(["NS.time"])
            guard case .real(let seconds)? = fields["NS.time"] else {
                throw Failure(message: "object \(index) (NSDate) has no NS.time")
            }
            return .date(seconds)
        case "NSUUID":
            try only(["NS.uuidbytes"])
            guard case .data(let bytes)? = fields["NS.uuidbytes"], bytes.count == 16 else {
                throw Failure(message: "object \(index) (NSUUID) has no 16 NS.uuidbytes")
            }
            return .uuid(bytes)
        case "NSURL":
            try only(["NS.base", "NS.relative"])
            guard case .uid(0)? = fields["NS.base"], let relative = fields["NS.relative"],
                case .string(let text) = try value(relative, depth: depth + 1)
            else { throw Failure(message: "object \(index) (NSURL) is not a URL without a base") }
            return .url(text)
        case "NSNull":
            try only([])
            return .null
        default:
            throw Failure(message: "object \(index) is an \(className), not a property-list object")
        }
    }
}
