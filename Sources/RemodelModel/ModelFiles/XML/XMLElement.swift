/// An XML element as Remodel reads it: name, attributes with the position of
/// each value, children and text, and the position of its `<`.
package struct XMLNode: Sendable {
    package struct Attribute: Sendable {
        package var name: String
        /// The value with entity and character references decoded.
        package var value: String
        /// The value as written between the quotes.
        package var rawValue: String
        /// The position of the value's first character.
        package var valueLocation: SourceLocation

        package init(name: String, value: String, rawValue: String, valueLocation: SourceLocation) {
            self.name = name
            self.value = value
            self.rawValue = rawValue
            self.valueLocation = valueLocation
        }
    }

    package var name: String
    package var attributes: [Attribute]
    package var children: [XMLNode]
    /// Text directly inside the element (concatenated), trimmed of nothing.
    package var text: String
    package var location: SourceLocation
    /// The element's first text as written (with entity references) and where it starts, to give
    /// positions inside text content; `nil` when the element starts with a child or is empty.
    package var writtenText: Attribute?
    /// The byte offset of the element's `<` in the document.
    var offset = 0
    /// The document's bytes, on the root element.
    var document: [UInt8]?

    package func attribute(_ name: String) -> String? {
        attributes.first { $0.name == name }?.value
    }

    package func children(named name: String) -> [XMLNode] {
        children.filter { $0.name == name }
    }

    /// The element's source record for the model.
    package var source: ElementSource {
        ElementSource(location: location, written: attributes.map { ($0.name, $0.value, $0.valueLocation) })
    }
}

extension XMLNode.Attribute {
    /// The position of the character at `offset` (counted in decoded characters) within the value.
    ///
    /// Entity and character references (`&quot;`, `&#10;`) count as one decoded
    /// character but several written ones; this maps back to what is written.
    package func location(atDecodedOffset offset: Int) -> SourceLocation {
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
