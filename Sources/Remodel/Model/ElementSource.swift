/// Where a model element came from: its position in the file and every XML
/// attribute exactly as written, including those Remodel does not interpret.
///
/// The attributes are kept in one array sorted by name, each with where its value starts: a long history
/// holds tens of thousands of elements, and two dictionaries per element cost three times the memory.
public struct ElementSource: Sendable, Hashable {
    /// The position of the element's `<`.
    public var location: SourceLocation
    /// Each XML attribute as written, sorted by name.
    private var written: [Written] = []
    /// Positions of attribute values in another file than the element's (an element made from several files).
    private var elsewhere: [String: SourceLocation]?

    /// One XML attribute: its value as written (nil when only its position is known) and where the value starts
    /// in the element's file (line 0: nowhere).
    private struct Written: Sendable, Hashable {
        var name: String
        var value: String?
        var line: Int32 = 0
        var column: Int32 = 0
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
        var other: [String: SourceLocation] = [:]
        var entries: [Written] = []
        entries.reserveCapacity(attributes.count)
        for (name, value, position) in attributes {
            guard position.file == location.file, position.line > 0, position.line <= Int(Int32.max),
                position.column >= 0, position.column <= Int(Int32.max)
            else {
                entries.append(Written(name: name, value: value))
                other[name] = position
                continue
            }
            entries.append(
                Written(name: name, value: value, line: Int32(position.line), column: Int32(position.column)))
        }
        entries.sort { $0.name < $1.name }
        written = entries
        elsewhere = other.isEmpty ? nil : other
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
            for attribute in written where attribute.line > 0 {
                result[attribute.name] = SourceLocation(
                    file: location.file, line: Int(attribute.line), column: Int(attribute.column))
            }
            return result
        }
        set { set(attributes: attributes, locations: newValue) }
    }

    /// The XML attribute's value as written, if the element has it.
    public func attribute(_ name: String) -> String? {
        written.first { $0.name == name }?.value
    }

    private mutating func set(attributes: [String: String], locations: [String: SourceLocation]) {
        var byName: [String: Written] = [:]
        var other: [String: SourceLocation] = [:]
        for (name, value) in attributes { byName[name] = Written(name: name, value: value) }
        for (name, position) in locations {
            guard position.file == location.file, position.line > 0, position.line <= Int(Int32.max),
                position.column >= 0, position.column <= Int(Int32.max)
            else {
                other[name] = position
                continue
            }
            var entry = byName[name] ?? Written(name: name, value: nil)
            entry.line = Int32(position.line)
            entry.column = Int32(position.column)
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
        guard let found = written.first(where: { $0.name == attribute }), found.line > 0 else { return location }
        return SourceLocation(file: location.file, line: Int(found.line), column: Int(found.column))
    }
}
