/// Finds every start tag of a well-formed XML text in document order, with
/// the byte offset of its `<` and of each attribute value.
///
/// libxml2 keeps only a line per node, and nothing for attributes; this scan
/// gives the exact columns that editors jump to. It runs after libxml2 has
/// accepted the document, so it can be simple: it only has to skip comments,
/// processing instructions, CDATA, the document type and end tags.
struct XMLTagScanner {
    struct Tag {
        var offset: Int
        var attributes: [(name: String, rawValue: String, valueOffset: Int)]
        /// Where the element's content starts: just after the start tag's `>`.
        var contentOffset = 0
    }

    /// Whether the text declares entities in a document type (refused: a model
    /// file never needs them, and they are how entity-expansion attacks begin).
    private(set) var declaresEntities = false

    private let bytes: [UInt8]

    init(bytes: [UInt8]) {
        self.bytes = bytes
    }

    mutating func startTags() -> [Tag] {
        var tags: [Tag] = []
        var index = 0
        let count = bytes.count
        while index < count {
            guard bytes[index] == UInt8(ascii: "<") else {
                index = LineTable.offset(of: UInt8(ascii: "<"), in: bytes, from: index) ?? count
                continue
            }
            if hasPrefix("<!--", at: index) {
                index = skip(past: "-->", from: index + 4)
            } else if hasPrefix("<![CDATA[", at: index) {
                index = skip(past: "]]>", from: index + 9)
            } else if hasPrefix("<?", at: index) {
                index = skip(past: "?>", from: index + 2)
            } else if hasPrefix("<!", at: index) {
                index = skipDocumentType(from: index + 2)
            } else if hasPrefix("</", at: index) {
                index = skip(past: ">", from: index + 2)
            } else {
                let (tag, end) = scanStartTag(at: index)
                tags.append(tag)
                index = end
            }
        }
        return tags
    }

    private func hasPrefix(_ prefix: String, at index: Int) -> Bool {
        let utf8 = Array(prefix.utf8)
        guard index + utf8.count <= bytes.count else { return false }
        for (offset, byte) in utf8.enumerated() where bytes[index + offset] != byte { return false }
        return true
    }

    private func skip(past terminator: String, from start: Int) -> Int {
        var index = start
        while index < bytes.count {
            if hasPrefix(terminator, at: index) { return index + terminator.utf8.count }
            index += 1
        }
        return bytes.count
    }

    private mutating func skipDocumentType(from start: Int) -> Int {
        var index = start
        var depth = 0
        var quote: UInt8?
        while index < bytes.count {
            let byte = bytes[index]
            if let open = quote {
                if byte == open { quote = nil }
            } else if byte == UInt8(ascii: "\"") || byte == UInt8(ascii: "'") {
                quote = byte
            } else if byte == UInt8(ascii: "[") {
                depth += 1
            } else if byte == UInt8(ascii: "]") {
                depth -= 1
            } else if depth > 0, hasPrefix("<!ENTITY", at: index) {
                declaresEntities = true
            } else if depth > 0, hasPrefix("<!--", at: index) {
                index = skip(past: "-->", from: index + 4)
                continue
            } else if byte == UInt8(ascii: ">"), depth <= 0 {
                return index + 1
            }
            index += 1
        }
        return bytes.count
    }

    private func isSpace(_ byte: UInt8) -> Bool {
        byte == 0x20 || byte == 0x09 || byte == 0x0A || byte == 0x0D
    }

    private func scanStartTag(at start: Int) -> (Tag, Int) {
        var tag = Tag(offset: start, attributes: [])
        var index = start + 1
        let count = bytes.count
        while index < count, !isSpace(bytes[index]), bytes[index] != UInt8(ascii: ">"),
            bytes[index] != UInt8(ascii: "/")
        {
            index += 1
        }
        while index < count {
            while index < count, isSpace(bytes[index]) { index += 1 }
            guard index < count else { break }
            if bytes[index] == UInt8(ascii: ">") {
                tag.contentOffset = index + 1
                return (tag, index + 1)
            }
            if bytes[index] == UInt8(ascii: "/") { index += 1; continue }
            let nameStart = index
            while index < count, bytes[index] != UInt8(ascii: "="), !isSpace(bytes[index]),
                bytes[index] != UInt8(ascii: ">")
            {
                index += 1
            }
            let name = String(decoding: bytes[nameStart..<index], as: UTF8.self)
            while index < count, isSpace(bytes[index]) || bytes[index] == UInt8(ascii: "=") { index += 1 }
            guard index < count, bytes[index] == UInt8(ascii: "\"") || bytes[index] == UInt8(ascii: "'") else {
                continue
            }
            let quote = bytes[index]
            index += 1
            let valueStart = index
            while index < count, bytes[index] != quote { index += 1 }
            let raw = String(decoding: bytes[valueStart..<min(index, count)], as: UTF8.self)
            tag.attributes.append((name, raw, valueStart))
            index += 1
        }
        return (tag, count)
    }
}
