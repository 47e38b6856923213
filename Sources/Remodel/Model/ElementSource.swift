import Foundation

/// Where a model element came from: its position in the file and every XML
/// attribute exactly as written, including those Remodel does not interpret.
///
/// The attributes are kept in one array sorted by name, each with where its value starts: a long history
/// holds tens of thousands of elements, and two dictionaries per element cost three times the memory. The
/// positions are kept relative to the element's own, so the same tag written in two places (an attribute
/// every version of a history repeats) makes the same array, which the versions of a bundle share
/// (`ElementSourcePool`).
public struct ElementSource: Sendable, Hashable {
    /// The position of the element's `<`.
    public var location: SourceLocation
    /// The position the attributes' positions are relative to: the element's when the record was made.
    private var base: (line: Int32, column: Int32) = (0, 0)
    /// Each XML attribute as written, sorted by name.
    private var written: [Written] = []
    /// Positions of attribute values in another file than the element's (an element made from several files).
    private var elsewhere: [String: SourceLocation]?

    /// One XML attribute: its value as written (nil when only its position is known) and where the value starts
    /// in the element's file, as lines after `base` and, on `base`'s line, columns after it (`line` -1: nowhere).
    struct Written: Sendable, Hashable {
        var name: String
        var value: String?
        var line: Int32 = -1
        var column: Int32 = 0

        /// Byte for byte (``SQLName/identical(_:_:)``): the pool that shares equal arrays between elements must not
        /// give `name="Cafe\u{301}"` the array of `name="Caf\u{E9}"`, which Swift's `String` takes for equal.
        static func == (lhs: Written, rhs: Written) -> Bool {
            guard lhs.line == rhs.line, lhs.column == rhs.column, SQLName.identical(lhs.name, rhs.name) else {
                return false
            }
            switch (lhs.value, rhs.value) {
            case (nil, nil): return true
            case (let left?, let right?): return SQLName.identical(left, right)
            default: return false
            }
        }
    }

    /// Creates a source record.
    public init(
        location: SourceLocation, attributes: [String: String] = [:],
        attributeLocations: [String: SourceLocation] = [:]
    ) {
        self.location = location
        set(attributes: attributes, locations: attributeLocations)
    }

    /// A record of an element read from a file: each attribute's name, value as written (decoded), and where
    /// the value starts.
    init(location: SourceLocation, written attributes: [(name: String, value: String, location: SourceLocation)]) {
        self.location = location
        base = Self.base(of: location)
        var other: [String: SourceLocation] = [:]
        var entries: [Written] = []
        entries.reserveCapacity(attributes.count)
        for (name, value, position) in attributes {
            var entry = Written(name: name, value: value)
            if !place(&entry, at: position) { other[name] = position }
            entries.append(entry)
        }
        entries.sort { $0.name < $1.name }
        written = entries
        elsewhere = other.isEmpty ? nil : other
    }

    /// A record of an element read from a file whose attributes, sorted by name, were placed relative to
    /// `location` already (the tag reader's, shared by every element whose tag is written alike).
    init(location: SourceLocation, sharing written: [Written]) {
        self.location = location
        base = Self.base(of: location)
        self.written = written
    }

    /// The element's position as the attributes' base (0 when it does not fit).
    private static func base(of location: SourceLocation) -> (line: Int32, column: Int32) {
        (Int32(exactly: location.line) ?? 0, Int32(exactly: location.column) ?? 0)
    }

    /// Sets `entry`'s position to `position`, relative to `base`; false when it cannot be kept so (another file,
    /// no position, out of range).
    private func place(_ entry: inout Written, at position: SourceLocation) -> Bool {
        guard position.file == location.file, position.line > 0, position.line <= Int(Int32.max),
            position.column >= 0, position.column <= Int(Int32.max), position.line >= Int(base.line)
        else { return false }
        let lines = position.line - Int(base.line)
        let column = lines == 0 ? position.column - Int(base.column) : position.column
        guard let line = Int32(exactly: lines), let column = Int32(exactly: column), column >= 0 else { return false }
        entry.line = line
        entry.column = column
        return true
    }

    /// Where an attribute kept with a position starts.
    private func absolute(_ entry: Written) -> SourceLocation {
        SourceLocation(
            file: location.file, line: Int(base.line) + Int(entry.line),
            column: entry.line == 0 ? Int(base.column) + Int(entry.column) : Int(entry.column))
    }

    public static func == (lhs: ElementSource, rhs: ElementSource) -> Bool {
        guard lhs.location == rhs.location, lhs.elsewhere == rhs.elsewhere else { return false }
        if lhs.base == rhs.base { return lhs.written == rhs.written }
        return lhs.attributes == rhs.attributes && lhs.attributeLocations == rhs.attributeLocations
    }

    public func hash(into hasher: inout Hasher) {
        hasher.combine(location)
        hasher.combine(written.count)
        for entry in written {
            hasher.combine(entry.name)
            hasher.combine(entry.value)
        }
    }

    /// The same record with its attributes' array taken from `pool`, shared with every equal one.
    func shared(in pool: ElementSourcePool) -> ElementSource {
        guard written.count > 0 else { return self }
        var copy = self
        copy.written = pool.shared(written)
        return copy
    }

    /// Every XML attribute of the element, as written (entity references decoded).
    public var attributes: [String: String] {
        get {
            var result: [String: String] = [:]
            result.reserveCapacity(written.count)
            for attribute in written { if let value = attribute.value { result[attribute.name] = value } }
            return result
        }
        set { set(attributes: newValue, locations: attributeLocations) }
    }

    /// The position of the first character of each XML attribute's value.
    public var attributeLocations: [String: SourceLocation] {
        get {
            var result = elsewhere ?? [:]
            for attribute in written where attribute.line >= 0 { result[attribute.name] = absolute(attribute) }
            return result
        }
        set { set(attributes: attributes, locations: newValue) }
    }

    /// The XML attribute's value as written, if the element has it.
    public func attribute(_ name: String) -> String? {
        written.first { $0.name == name }?.value
    }

    private mutating func set(attributes: [String: String], locations: [String: SourceLocation]) {
        base = Self.base(of: location)
        var byName: [String: Written] = [:]
        var other: [String: SourceLocation] = [:]
        for (name, value) in attributes { byName[name] = Written(name: name, value: value) }
        for (name, position) in locations {
            var entry = byName[name] ?? Written(name: name, value: nil)
            guard place(&entry, at: position) else {
                other[name] = position
                continue
            }
            byName[name] = entry
        }
        written = byName.values.sorted { $0.name < $1.name }
        elsewhere = other.isEmpty ? nil : other
    }

    /// A record for an element that was built in code rather than read from a file.
    public static let synthetic = ElementSource(location: SourceLocation(file: "<memory>", line: 1, column: 1))

    /// The position of an XML attribute's value, or of the element when the attribute is absent.
    public func location(of attribute: String) -> SourceLocation {
        if let other = elsewhere?[attribute] { return other }
        guard let found = written.first(where: { $0.name == attribute }), found.line >= 0 else { return location }
        return absolute(found)
    }
}

/// The attribute arrays of the element records of a bundle's versions, each kept once: a history repeats most
/// tags version after version, and each version read alone held its own copy of every one (7.7 MiB of the
/// 96-version benchmark history's planning). A bundle read from files keeps one pool for its versions.
final class ElementSourcePool: @unchecked Sendable {
    private let lock = NSLock()
    private var known: Set<[ElementSource.Written]> = []

    /// The array kept equal to `written` (it, the first time).
    func shared(_ written: [ElementSource.Written]) -> [ElementSource.Written] {
        lock.lock()
        defer { lock.unlock() }
        return known.insert(written).memberAfterInsert
    }
}
