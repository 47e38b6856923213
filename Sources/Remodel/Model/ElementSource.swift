/// Where a model element came from: its position in the file and every XML
/// attribute exactly as written, including those Remodel does not interpret.
public struct ElementSource: Sendable, Hashable {
    /// The position of the element's `<`.
    public var location: SourceLocation
    /// Every XML attribute of the element, as written (entity references decoded).
    public var attributes: [String: String]
    /// The position of the first character of each XML attribute's value.
    public var attributeLocations: [String: SourceLocation]

    /// Creates a source record.
    public init(
        location: SourceLocation, attributes: [String: String] = [:],
        attributeLocations: [String: SourceLocation] = [:]
    ) {
        self.location = location
        self.attributes = attributes
        self.attributeLocations = attributeLocations
    }

    /// A record for an element that was built in code rather than read from a file.
    public static let synthetic = ElementSource(location: SourceLocation(file: "<memory>", line: 1, column: 1))

    /// The position of an XML attribute's value, or of the element when the attribute is absent.
    public func location(of attribute: String) -> SourceLocation {
        attributeLocations[attribute] ?? location
    }
}
