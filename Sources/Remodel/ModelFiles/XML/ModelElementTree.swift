/// The elements of a model file as `ModelFileReader` maps them into a ``ModelVersion``, on either of its roads:
/// libxml2's tree (`XMLNodeTree`) or the tag reader (`ModelTagTree`).
protocol ModelElementTree {
    associatedtype Node
    /// The document's root element.
    var root: Node { get }
    /// The document's bytes (each entity's text is digested from them), when they are known.
    var documentBytes: [UInt8]? { get }
    /// The element's name as written.
    func name(of node: Node) -> String
    /// Whether the element is one of `kind`.
    func isElement(_ node: Node, _ kind: ModelElementKind) -> Bool
    /// The value of an XML attribute of the element (entity references decoded), if it has it.
    func value(_ name: ModelXMLName, of node: Node) -> String?
    /// The element's child elements of one kind, in document order.
    func children(of node: Node, _ kind: ModelElementKind) -> [Node]
    /// Every child element, in document order.
    func children(of node: Node) -> [Node]
    /// The element's source record: its position and its attributes with theirs.
    func source(of node: Node) -> ElementSource
    /// The position of the element's `<`.
    func location(of node: Node) -> SourceLocation
    /// The byte offset of the element's `<`.
    func offset(of node: Node) -> Int
}

/// The elements of a model file the reader interprets.
enum ModelElementKind: UInt8, CaseIterable {
    case model, entity, attribute, relationship, fetchedProperty, userInfo, entry, uniquenessConstraints
    case uniquenessConstraint, constraint, fetchIndex, fetchIndexElement, compoundIndexes, compoundIndex, index
    case composite, configuration, memberEntity
    /// Any element the reader does not interpret.
    case other

    /// The element's name in the file: the case's name.
    var text: String { Self.texts[Int(rawValue)] }

    private static let texts: [String] = allCases.map { String(describing: $0) }

    /// The kind of an element by its name.
    static let byName: [String: ModelElementKind] = Dictionary(
        uniqueKeysWithValues: allCases.filter { $0 != .other }.map { ($0.text, $0) })
}

/// The XML attributes of a model file's elements the reader interprets.
enum ModelXMLName: Int, CaseIterable {
    case name, attributeType, optional, transient, defaultDateTimeInterval, defaultValueString
    case minDateTimeInterval, minValueString, maxDateTimeInterval, maxValueString, regularExpressionString
    case elementID, versionHashModifier, valueTransformerName, composite, indexed, destinationEntity, inverseName
    case inverseEntity, toMany, ordered, deletionRule, minCount, maxCount, representedClassName, parentEntity
    case isAbstract, key, value, property, order
    case derived, derivationExpression

    /// The attribute's name in the file: the case's name.
    var text: String { Self.texts[rawValue] }

    private static let texts: [String] = allCases.map { String(describing: $0) }

    /// The name by its text.
    static let byText: [String: ModelXMLName] = Dictionary(
        uniqueKeysWithValues: allCases.map { ($0.text, $0) })
}

/// libxml2's tree of a model file, as `XMLDocumentReader` reads it.
struct XMLNodeTree: ModelElementTree {
    let root: XMLNode

    var documentBytes: [UInt8]? { root.document }
    func name(of node: XMLNode) -> String { node.name }
    func isElement(_ node: XMLNode, _ kind: ModelElementKind) -> Bool { node.name == kind.text }
    func value(_ name: ModelXMLName, of node: XMLNode) -> String? { node.attribute(name.text) }
    func children(of node: XMLNode, _ kind: ModelElementKind) -> [XMLNode] { node.children(named: kind.text) }
    func children(of node: XMLNode) -> [XMLNode] { node.children }
    func source(of node: XMLNode) -> ElementSource { node.source }
    func location(of node: XMLNode) -> SourceLocation { node.location }
    func offset(of node: XMLNode) -> Int { node.offset }
}
