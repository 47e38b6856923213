/// An XML element to write, as Xcode writes model files: attributes in the order given, children
/// indented by four spaces, an element without children closed with `/>`.
///
/// For example:
/// ```swift
/// let entity = WrittenElement("entity", ["name": "Car"], children: [WrittenElement("attribute", …)])
/// print(entity.text(indent: 1))   //     <entity name="Car">…</entity>
/// ```
package struct WrittenElement: Sendable, Hashable {
    package var name: String
    package var attributes: [Attribute]
    package var children: [WrittenElement]

    /// One attribute: its name and its value (unescaped).
    package struct Attribute: Sendable, Hashable {
        package var name: String
        package var value: String

        package init(name: String, value: String) {
            self.name = name
            self.value = value
        }
    }

    package init(_ name: String, _ attributes: [(String, String?)] = [], children: [WrittenElement] = []) {
        self.name = name
        self.attributes = attributes.compactMap { pair in pair.1.map { Attribute(name: pair.0, value: $0) } }
        self.children = children
    }

    /// The element as read, with its attributes' decoded values and its child elements (text between
    /// elements, which model files do not use, is left out).
    package init(_ node: XMLNode) {
        name = node.name
        attributes = node.attributes.map { Attribute(name: $0.name, value: $0.value) }
        children = node.children.map(WrittenElement.init)
    }

    /// The element's text at `indent` levels, ending in a line break.
    func text(indent: Int = 0) -> String {
        let padding = String(repeating: "    ", count: indent)
        var line = padding + "<" + name
        for attribute in attributes { line += " \(attribute.name)=\"\(Self.escape(attribute.value))\"" }
        guard !children.isEmpty else { return line + "/>\n" }
        return line + ">\n" + children.map { $0.text(indent: indent + 1) }.joined() + padding + "</\(name)>\n"
    }

    /// A whole file: the XML declaration Xcode writes, then the element.
    package var document: String { "<?xml version=\"1.0\" encoding=\"UTF-8\" standalone=\"yes\"?>\n" + text() }

    /// An attribute value with `&`, `<`, `>`, `"` and line breaks and tabs written as references, so
    /// reading it back gives the same text.
    package static func escape(_ value: String) -> String {
        var result = ""
        result.reserveCapacity(value.utf8.count)
        for scalar in value.unicodeScalars {
            switch scalar {
            case "&": result += "&amp;"
            case "<": result += "&lt;"
            case ">": result += "&gt;"
            case "\"": result += "&quot;"
            case "\n": result += "&#10;"
            case "\r": result += "&#13;"
            case "\t": result += "&#9;"
            default: result.unicodeScalars.append(scalar)
            }
        }
        return result
    }
}
