/// An XML element as Remodel reads it: name, attributes with the position of
/// each value, children and text, and the position of its `<`.
package struct XMLNode: Sendable {
    struct Attribute: Sendable {
        var name: String
        /// The value with entity and character references decoded.
        var value: String
        /// The value as written between the quotes.
        var rawValue: String
        /// The position of the value's first character.
        var valueLocation: SourceLocation
    }

    package var name: String
    var attributes: [Attribute]
    package var children: [XMLNode]
    /// Text directly inside the element (concatenated), trimmed of nothing.
    var text: String
    package var location: SourceLocation
    /// The element's first text as written (with entity references) and where it starts, to give
    /// positions inside text content; `nil` when the element starts with a child or is empty.
    var writtenText: Attribute?
    /// The byte offset of the element's `<` in the document.
    var offset = 0
    /// The document's bytes, on the root element.
    var document: [UInt8]?

    package func attribute(_ name: String) -> String? {
        attributes.first { $0.name == name }?.value
    }

    func children(named name: String) -> [XMLNode] {
        children.filter { $0.name == name }
    }

    /// The element's source record for the model.
    var source: ElementSource {
        ElementSource(location: location, written: attributes.map { ($0.name, $0.value, $0.valueLocation) })
    }
}

extension XMLNode.Attribute {
    /// The position of the character at `offset` (counted in decoded characters) within the value.
    ///
    /// Entity and character references (`&quot;`, `&#10;`) count as one decoded
    /// character but several written ones; this maps back to what is written.
    func location(atDecodedOffset offset: Int) -> SourceLocation {
        var column = valueLocation.column
        var line = valueLocation.line
        var decoded = 0
        var characters = rawValue.unicodeScalars.makeIterator()
        while decoded < offset, let character = characters.next() {
            if character == "&" {
                column += 1
                while let next = characters.next() {
                    column += 1
                    if next == ";" { break }
                }
            } else if character == "\n" {
                line += 1
                column = 1
            } else {
                column += 1
            }
            decoded += 1
        }
        return SourceLocation(file: valueLocation.file, line: line, column: column + max(0, offset - decoded))
    }
}
