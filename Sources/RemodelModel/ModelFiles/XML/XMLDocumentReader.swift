import Foundation
internal import RemodelLibXML2

/// Reads an XML file with libxml2, safely: no network, no external entities,
/// no DTD loading, no entity expansion beyond the predefined ones, and no
/// entity declarations at all.
package enum XMLDocumentReader {
    /// A failure to read: the file's path, a position when there is one, and libxml2's message.
    package struct Failure: Error {
        package var location: SourceLocation
        package var message: String
    }

    private static let initialized: Bool = {
        xmlInitParser()
        return true
    }()

    /// Parses the file at `path`; `displayPath` is what locations call it.
    package static func read(path: String, displayPath: String? = nil) throws(Failure) -> XMLNode {
        let shown = displayPath ?? path
        guard let bytes = FileSystem.bytes(atPath: path) else {
            throw Failure(location: SourceLocation(file: shown), message: "cannot read the file")
        }
        return try parse(bytes, file: shown)
    }

    /// Parses XML text held in memory: on the plain road when the text is one it takes (``PlainXML``), else with
    /// libxml2.
    package static func parse(_ bytes: [UInt8], file: String) throws(Failure) -> XMLNode {
        if let root = PlainXML.root(of: bytes) {
            var scanner = XMLTagScanner(bytes: bytes)
            return tree(root, tags: scanner.startTags(), bytes: bytes, file: file)
        }
        return try parseWithLibXML2(bytes, file: file)
    }

    /// Parses XML text held in memory with libxml2, whatever the text: the road every text took before the plain
    /// road, and the one that road is held to.
    static func parseWithLibXML2(_ bytes: [UInt8], file: String) throws(Failure) -> XMLNode {
        _ = initialized
        var scanner = XMLTagScanner(bytes: bytes)
        let tags = scanner.startTags()
        if scanner.declaresEntities {
            throw Failure(
                location: SourceLocation(file: file, line: 1, column: 1),
                message:
                    "the document declares entities in its document type; Remodel does not expand them (remove the <!ENTITY …> declarations)"
            )
        }
        guard let document = try libxml2(bytes, file: file, buildsTree: true) else {
            throw Failure(
                location: SourceLocation(file: file, line: 1, column: 1), message: "the document has no root element")
        }
        defer { xmlFreeDoc(document) }
        guard let root = xmlDocGetRootElement(document) else {
            throw Failure(
                location: SourceLocation(file: file, line: 1, column: 1), message: "the document has no root element")
        }
        return tree(parsed(root, in: document), tags: tags, bytes: bytes, file: file)
    }

    /// The element libxml2 made, as the plain road gives its elements.
    private static func parsed(_ node: xmlNodePtr, in document: xmlDocPtr) -> ParsedXMLElement {
        var element = ParsedXMLElement(
            name: String(cString: node.pointee.name), attributes: [], children: [], text: "",
            line: max(1, Int(xmlGetLineNo(node))))
        var property = node.pointee.properties
        while let attribute = property {
            var value = ""
            if let content = xmlNodeListGetString(document, attribute.pointee.children, 1) {
                value = String(cString: content)
                remodel_xml_free(content)
            }
            element.attributes.append(.init(name: String(cString: attribute.pointee.name), value: value))
            property = attribute.pointee.next
        }
        var child = node.pointee.children
        while let current = child {
            if current.pointee.type == XML_ELEMENT_NODE {
                element.children.append(parsed(current, in: document))
            } else if current.pointee.type == XML_TEXT_NODE || current.pointee.type == XML_CDATA_SECTION_NODE,
                let content = current.pointee.content
            {
                element.text += String(cString: content)
            }
            child = current.pointee.next
        }
        return element
    }

    /// The parsed root with every element's and value's position, from the start tags found in the text.
    private static func tree(_ root: ParsedXMLElement, tags: [XMLTagScanner.Tag], bytes: [UInt8], file: String)
        -> XMLNode
    {
        var builder = TreeBuilder(tags: tags, lines: LineTable(bytes: bytes), file: file)
        var tree = builder.build(root)
        tree.document = bytes
        return tree
    }

    /// Checks that XML text held in memory is well-formed, as ``parse(_:file:)`` does, without building its
    /// tree: the same failure for the same text. The caller has made sure the text declares no entities
    /// (it has no document type).
    static func check(_ bytes: [UInt8], file: String) throws(Failure) {
        _ = initialized
        if let document = try libxml2(bytes, file: file, buildsTree: false) { xmlFreeDoc(document) }
    }

    /// Runs libxml2's parser over the text; with `buildsTree` false, its SAX handler builds nothing (libxml2
    /// still checks every tag, attribute and reference, and reports the same errors). Returns the document, if
    /// one was made (the caller frees it); throws the first fatal error.
    private static func libxml2(_ bytes: [UInt8], file: String, buildsTree: Bool) throws(Failure) -> xmlDocPtr? {
        guard let context = xmlNewParserCtxt() else {
            throw Failure(
                location: SourceLocation(file: file, line: 1, column: 1), message: "libxml2 could not allocate a parser"
            )
        }
        defer { xmlFreeParserCtxt(context) }
        if !buildsTree, let handler = context.pointee.sax {
            // Callbacks that build nothing, in place of those that build the tree. None is left out: libxml2
            // takes other paths when one is missing (no comment callback: a comment is not collected, and its
            // errors say less), and the errors must be the ones the tree's parse reports.
            handler.pointee.startElementNs = { _, _, _, _, _, _, _, _, _ in }
            handler.pointee.endElementNs = { _, _, _, _ in }
            // One function for both, as libxml2's own handler has (it compares them).
            let characters: charactersSAXFunc = { _, _, _ in }
            handler.pointee.characters = characters
            handler.pointee.ignorableWhitespace = characters
            handler.pointee.comment = { _, _ in }
            handler.pointee.processingInstruction = { _, _, _ in }
            handler.pointee.reference = { _, _ in }
        }
        // libxml2 keeps only its last error ("Premature end of data"); record the first fatal
        // one, which names the real cause (a mismatched tag), through a structured error handler.
        let firstError = FirstError()
        context.pointee._private = Unmanaged.passUnretained(firstError).toOpaque()
        context.pointee.sax.pointee.serror = { userData, error in
            guard let userData, let error, error.pointee.level == XML_ERR_FATAL else { return }
            let parser = userData.assumingMemoryBound(to: xmlParserCtxt.self)
            guard let box = parser.pointee._private else { return }
            let first = Unmanaged<FirstError>.fromOpaque(box).takeUnretainedValue()
            guard first.message == nil else { return }
            first.message = error.pointee.message.map { String(cString: $0) } ?? "the file is not well-formed XML"
            first.line = Int(error.pointee.line)
            first.column = Int(error.pointee.int2)
        }
        let options = Int32(
            XML_PARSE_NONET.rawValue | XML_PARSE_NOERROR.rawValue | XML_PARSE_NOWARNING.rawValue
                | XML_PARSE_BIG_LINES.rawValue | XML_PARSE_NOCDATA.rawValue
        )
        // Encoding errors go to libxml2's generic channel (standard error): collect the first instead.
        var generic = remodel_xml_generic_errors()
        remodel_xml_begin_collecting_generic_errors(&generic)
        let document: xmlDocPtr? = withExtendedLifetime(firstError) {
            bytes.withUnsafeBufferPointer { buffer in
                buffer.baseAddress!.withMemoryRebound(to: CChar.self, capacity: max(buffer.count, 1)) { pointer in
                    xmlCtxtReadMemory(context, pointer, Int32(buffer.count), file, nil, options)
                }
            }
        }
        remodel_xml_end_collecting_generic_errors(&generic)
        if generic.count > 0 {
            let message = withUnsafeBytes(of: generic.first) { String(decoding: $0.prefix { $0 != 0 }, as: UTF8.self) }
            firstError.message = message.trimmingCharacters(in: .whitespacesAndNewlines)
        }
        context.pointee._private = nil
        guard context.pointee.wellFormed != 0, document != nil || !buildsTree else {
            if let document { xmlFreeDoc(document) }
            throw failure(from: context, first: firstError, file: file)
        }
        return document
    }

    /// The first error libxml2 reported while parsing (set by the structured error handler).
    private final class FirstError {
        var message: String?
        var line = 0
        var column = 0
    }

    private static func failure(from context: xmlParserCtxtPtr, first: FirstError, file: String) -> Failure {
        var message = first.message, line = first.line, column = first.column
        if message == nil, let error = xmlCtxtGetLastError(context) {
            message = error.pointee.message.map { String(cString: $0) }
            line = Int(error.pointee.line)
            column = Int(error.pointee.int2)
        }
        guard let message else {
            return Failure(
                location: SourceLocation(file: file, line: 1, column: 1), message: "the file is not well-formed XML")
        }
        line = max(1, line)
        column = max(1, column)
        return Failure(
            location: SourceLocation(file: file, line: line, column: column),
            message: "malformed XML: " + message.trimmingCharacters(in: .whitespacesAndNewlines)
        )
    }

    /// Walks a parsed tree in document order, pairing each element with the start tag the scanner found at the
    /// same position in that order.
    private struct TreeBuilder {
        let tags: [XMLTagScanner.Tag]
        let lines: LineTable
        let file: String
        var nextTag = 0

        init(tags: [XMLTagScanner.Tag], lines: LineTable, file: String) {
            self.tags = tags
            self.lines = lines
            self.file = file
        }

        mutating func build(_ element: ParsedXMLElement) -> XMLNode {
            let tag = nextTag < tags.count ? tags[nextTag] : nil
            nextTag += 1
            let location =
                tag.map { lines.location(ofOffset: $0.offset, file: file) }
                ?? SourceLocation(file: file, line: element.line, column: 1)
            let attributes = element.attributes.map { attribute in
                let written = tag?.attributes.first { $0.name == attribute.name }
                let valueLocation = written.map { lines.location(ofOffset: $0.valueOffset, file: file) } ?? location
                return XMLNode.Attribute(
                    name: attribute.name, value: attribute.value, rawValue: written?.rawValue ?? attribute.value,
                    valueLocation: valueLocation)
            }
            let children = element.children.map { build($0) }
            var writtenText: XMLNode.Attribute?
            if let tag, tag.contentOffset > 0, !element.text.isEmpty {
                let end = lines.offset(of: UInt8(ascii: "<"), from: tag.contentOffset)
                writtenText = XMLNode.Attribute(
                    name: "", value: element.text, rawValue: lines.text(tag.contentOffset..<end),
                    valueLocation: lines.location(ofOffset: tag.contentOffset, file: file))
            }
            return XMLNode(
                name: element.name, attributes: attributes, children: children, text: element.text,
                location: location, writtenText: writtenText, offset: tag?.offset ?? 0)
        }
    }
}

/// An element as a parser gives it, before positions are paired with it: attributes in the order written, their
/// values decoded, and the text directly inside it, decoded and joined (comments left out).
struct ParsedXMLElement {
    struct Attribute {
        var name: String
        var value: String
    }

    var name: String
    var attributes: [Attribute]
    var children: [ParsedXMLElement]
    var text: String
    /// The line libxml2 gives the element, for an element the start tags' scan did not find.
    var line = 1
}
