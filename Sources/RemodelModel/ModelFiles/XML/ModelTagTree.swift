import Foundation

/// The tag reader: a model file read in one pass over its bytes, after ``PlainXML`` has found it well-formed, or
/// libxml2 has checked it without building a tree (`XMLDocumentReader.check`).
///
/// Each element keeps its position and a shared record of its start tag's text (`TagRecord`): the tag's name,
/// its attributes decoded, sorted and placed relative to the `<`, and where each attribute the reader interprets
/// sits among them. A tag's text settles all of that, so a record is made once per distinct text and reused by
/// every element written alike, in this file and, through the bundle's `TagRecordPool`, in every other
/// version of the bundle: a long history repeats nearly every tag.
///
/// It reads only what Xcode writes: UTF-8, no document type (so no entity but the predefined ones), no CDATA,
/// no namespace prefixes or declarations, no tab or line break inside an attribute value (which XML would turn
/// into spaces). For anything else ``read(_:file:pool:)`` returns nil, and the caller takes libxml2's tree, the
/// other road to the same ``ModelVersion`` (`ModelTagTreeTests` holds the two to one answer).
struct ModelTagTree: ModelElementTree {
    /// One element: its start tag's record, where the `<` is, and its place in the tree.
    struct Element {
        let record: TagRecord
        let line: Int
        let column: Int
        let offset: Int
        var firstChild: Int32 = -1
        var nextSibling: Int32 = -1
    }

    typealias Node = Int

    let elements: [Element]
    let file: String
    let bytes: [UInt8]

    var root: Int { 0 }
    var documentBytes: [UInt8]? { bytes }

    func name(of node: Int) -> String { elements[node].record.name }

    func isElement(_ node: Int, _ kind: ModelElementKind) -> Bool { elements[node].record.kind == kind }

    func value(_ name: ModelXMLName, of node: Int) -> String? {
        let record = elements[node].record
        let index = record.fields[name.rawValue]
        return index < 0 ? nil : record.written[Int(index)].value
    }

    func children(of node: Int, _ kind: ModelElementKind) -> [Int] {
        var result: [Int] = []
        var child = elements[node].firstChild
        while child >= 0 {
            if elements[Int(child)].record.kind == kind { result.append(Int(child)) }
            child = elements[Int(child)].nextSibling
        }
        return result
    }

    func children(of node: Int) -> [Int] {
        var result: [Int] = []
        var child = elements[node].firstChild
        while child >= 0 {
            result.append(Int(child))
            child = elements[Int(child)].nextSibling
        }
        return result
    }

    func source(of node: Int) -> ElementSource {
        ElementSource(location: location(of: node), sharing: elements[node].record.written)
    }

    func location(of node: Int) -> SourceLocation {
        SourceLocation(file: file, line: elements[node].line, column: elements[node].column)
    }

    func offset(of node: Int) -> Int { elements[node].offset }

    /// Reads `bytes` (`file` is what positions call it), or returns nil when the text is not one this reader
    /// takes; throws what libxml2 finds wrong, as `XMLDocumentReader.parse` would.
    static func read(_ bytes: [UInt8], file: String, pool: TagRecordPool) throws(XMLDocumentReader.Failure)
        -> ModelTagTree?
    {
        guard bytes.count < Int(Int32.max), bytes.withUnsafeBufferPointer(Self.isPlain) else { return nil }
        // A text on the plain road is well-formed without libxml2; any other is checked by libxml2, which names
        // what is wrong.
        if !bytes.withUnsafeBufferPointer(PlainXML.isWellFormed) { try XMLDocumentReader.check(bytes, file: file) }
        let elements = bytes.withUnsafeBufferPointer { buffer in
            var scanner = Scanner(bytes: buffer, pool: pool)
            return scanner.elements()
        }
        guard let elements else { return nil }
        return ModelTagTree(elements: elements, file: file, bytes: bytes)
    }

    /// Whether the text starts with a tag (after a UTF-8 byte order mark), declares no encoding but UTF-8, and
    /// holds no `<!` but comments (no document type, so no entity declarations; no CDATA). Checked before libxml2
    /// sees the text: a text with a document type goes the other road, which refuses entity declarations first.
    private static func isPlain(_ bytes: UnsafeBufferPointer<UInt8>) -> Bool {
        let count = bytes.count
        var index = count >= 3 && bytes[0] == 0xEF && bytes[1] == 0xBB && bytes[2] == 0xBF ? 3 : 0
        guard index < count, bytes[index] == UInt8(ascii: "<") else { return false }
        if Scanner.hasPrefix("<?xml", bytes, at: index) {
            guard let end = Scanner.find("?>", bytes, from: index) else { return false }
            guard declaresUTF8(UnsafeBufferPointer(rebasing: bytes[index..<end])) else { return false }
            index = end
        }
        while let open = Scanner.find(UInt8(ascii: "<"), bytes, from: index) {
            guard open + 1 < count else { return false }
            if bytes[open + 1] == UInt8(ascii: "!") {
                guard Scanner.hasPrefix("<!--", bytes, at: open), let end = Scanner.find("-->", bytes, from: open + 4)
                else { return false }
                index = end + 3
            } else {
                index = open + 1
            }
        }
        return true
    }

    /// Whether an XML declaration names no encoding, or UTF-8.
    private static func declaresUTF8(_ declaration: UnsafeBufferPointer<UInt8>) -> Bool {
        guard let found = Scanner.find("encoding", declaration, from: 0) else { return true }
        var index = found + 8
        let count = declaration.count
        while index < count, Scanner.isSpace(declaration[index]) || declaration[index] == UInt8(ascii: "=") {
            index += 1
        }
        guard index < count, declaration[index] == UInt8(ascii: "\"") || declaration[index] == UInt8(ascii: "'")
        else { return false }
        let quote = declaration[index]
        let start = index + 1
        guard let end = Scanner.find(quote, declaration, from: start) else { return false }
        let name = String(decoding: UnsafeBufferPointer(rebasing: declaration[start..<end]), as: UTF8.self)
        return name.lowercased() == "utf-8"
    }

    /// The one pass over a text found well-formed.
    private struct Scanner {
        let bytes: UnsafeBufferPointer<UInt8>
        let pool: TagRecordPool
        /// Where positions were last worked out: the line, the offset, its column.
        private var line = 1
        private var cursor = 0
        private var cursorColumn = 1
        /// Each attribute of the tag being read: its name's and its value's ranges.
        private var attributes: [(name: Range<Int>, value: Range<Int>)] = []

        init(bytes: UnsafeBufferPointer<UInt8>, pool: TagRecordPool) {
            self.bytes = bytes
            self.pool = pool
        }

        static func isSpace(_ byte: UInt8) -> Bool {
            byte == 0x20 || byte == 0x09 || byte == 0x0A || byte == 0x0D
        }

        static func find(_ byte: UInt8, _ bytes: UnsafeBufferPointer<UInt8>, from start: Int) -> Int? {
            guard start < bytes.count, let base = bytes.baseAddress,
                let found = memchr(base + start, Int32(byte), bytes.count - start)
            else { return nil }
            return base.distance(to: found.assumingMemoryBound(to: UInt8.self))
        }

        /// The offset of the first `text` at or after `start`.
        static func find(_ text: StaticString, _ bytes: UnsafeBufferPointer<UInt8>, from start: Int) -> Int? {
            let first = text.utf8Start[0]
            var index = start
            while let candidate = find(first, bytes, from: index) {
                if hasPrefix(text, bytes, at: candidate) { return candidate }
                index = candidate + 1
            }
            return nil
        }

        static func hasPrefix(_ text: StaticString, _ bytes: UnsafeBufferPointer<UInt8>, at index: Int) -> Bool {
            let count = text.utf8CodeUnitCount
            guard index + count <= bytes.count else { return false }
            for offset in 0..<count where bytes[index + offset] != text.utf8Start[offset] { return false }
            return true
        }

        /// The elements in document order, the root first; nil when the text has something this reader leaves
        /// to libxml2's tree.
        mutating func elements() -> [Element]? {
            var elements: [Element] = []
            elements.reserveCapacity(bytes.count / 96)
            // The open elements, each with its last child so far.
            var open: [(element: Int32, lastChild: Int32)] = []
            let count = bytes.count
            var index = 0
            while let start = Self.find(UInt8(ascii: "<"), bytes, from: index) {
                guard start + 1 < count else { return nil }
                switch bytes[start + 1] {
                case UInt8(ascii: "!"):
                    guard let end = Self.find("-->", bytes, from: start + 4) else { return nil }
                    index = end + 3
                case UInt8(ascii: "?"):
                    guard let end = Self.find("?>", bytes, from: start + 2) else { return nil }
                    index = end + 2
                case UInt8(ascii: "/"):
                    guard let end = Self.find(UInt8(ascii: ">"), bytes, from: start + 2), !open.isEmpty else {
                        return nil
                    }
                    open.removeLast()
                    index = end + 1
                default:
                    guard let (end, closes) = startTag(at: start),
                        let record = record(UnsafeBufferPointer(rebasing: bytes[start..<end]))
                    else { return nil }
                    let (line, column) = position(of: start)
                    let element = Int32(elements.count)
                    elements.append(Element(record: record, line: line, column: column, offset: start))
                    if let parent = open.last {
                        if parent.lastChild >= 0 {
                            elements[Int(parent.lastChild)].nextSibling = element
                        } else {
                            elements[Int(parent.element)].firstChild = element
                        }
                        open[open.count - 1].lastChild = element
                    } else if element != 0 {
                        return nil
                    }
                    if !closes { open.append((element, -1)) }
                    index = end
                }
            }
            guard open.isEmpty, !elements.isEmpty else { return nil }
            return elements
        }

        /// Reads the start tag at `start` into `attributes`: the offset after its `>`, and whether it closes
        /// itself (`/>`); nil for what this reader does not take (a prefixed name, a namespace declaration,
        /// a tab or line break in a value).
        private mutating func startTag(at start: Int) -> (end: Int, closes: Bool)? {
            attributes.removeAll(keepingCapacity: true)
            let count = bytes.count
            var index = start + 1
            while index < count, !Self.isSpace(bytes[index]), bytes[index] != UInt8(ascii: ">"),
                bytes[index] != UInt8(ascii: "/")
            {
                guard bytes[index] != UInt8(ascii: ":") else { return nil }
                index += 1
            }
            guard index > start + 1 else { return nil }
            while true {
                while index < count, Self.isSpace(bytes[index]) { index += 1 }
                guard index < count else { return nil }
                if bytes[index] == UInt8(ascii: ">") { return (index + 1, false) }
                if bytes[index] == UInt8(ascii: "/") {
                    guard index + 1 < count, bytes[index + 1] == UInt8(ascii: ">") else { return nil }
                    return (index + 2, true)
                }
                let nameStart = index
                while index < count, bytes[index] != UInt8(ascii: "="), !Self.isSpace(bytes[index]),
                    bytes[index] != UInt8(ascii: ">"), bytes[index] != UInt8(ascii: "/")
                {
                    guard bytes[index] != UInt8(ascii: ":") else { return nil }
                    index += 1
                }
                let name = nameStart..<index
                guard !name.isEmpty, !(name.count == 5 && Self.hasPrefix("xmlns", bytes, at: nameStart)) else {
                    return nil
                }
                while index < count, Self.isSpace(bytes[index]) { index += 1 }
                guard index < count, bytes[index] == UInt8(ascii: "=") else { return nil }
                index += 1
                while index < count, Self.isSpace(bytes[index]) { index += 1 }
                guard index < count, bytes[index] == UInt8(ascii: "\"") || bytes[index] == UInt8(ascii: "'") else {
                    return nil
                }
                let quote = bytes[index]
                let valueStart = index + 1
                guard let valueEnd = Self.find(quote, bytes, from: valueStart) else { return nil }
                for offset in valueStart..<valueEnd where bytes[offset] < 0x20 { return nil }
                attributes.append((name, valueStart..<valueEnd))
                index = valueEnd + 1
            }
        }

        /// The record of the tag just read, from the pool or made now; nil when a value holds a reference this
        /// reader does not decode.
        private func record(_ text: UnsafeBufferPointer<UInt8>) -> TagRecord? {
            let hash = XXHash64.hash(UnsafeRawBufferPointer(text))
            if let known = pool.record(hash: hash, text: UnsafeRawBufferPointer(text)) { return known }
            guard let base = text.baseAddress else { return nil }
            let start = bytes.baseAddress.map { base - $0 } ?? 0
            var nameEnd = start + 1
            while nameEnd < bytes.count, !Self.isSpace(bytes[nameEnd]), bytes[nameEnd] != UInt8(ascii: ">"),
                bytes[nameEnd] != UInt8(ascii: "/")
            {
                nameEnd += 1
            }
            let name = String(decoding: UnsafeBufferPointer(rebasing: bytes[start + 1..<nameEnd]), as: UTF8.self)
            var written: [ElementSource.Written] = []
            written.reserveCapacity(attributes.count)
            for attribute in attributes {
                guard let value = XMLReferences.decode(UnsafeBufferPointer(rebasing: bytes[attribute.value])) else {
                    return nil
                }
                // Where the value starts, as `ElementSource` keeps it: lines after the `<` and, on the `<`'s line,
                // columns after it; on a later line, its column.
                var lines: Int32 = 0
                var lineStart = start
                var offset = start
                while let newline = Self.find(UInt8(ascii: "\n"), bytes, from: offset),
                    newline < attribute.value.lowerBound
                {
                    lines += 1
                    lineStart = newline + 1
                    offset = newline + 1
                }
                let characters = Self.characters(in: lineStart..<attribute.value.lowerBound, bytes)
                written.append(
                    ElementSource.Written(
                        name: String(decoding: UnsafeBufferPointer(rebasing: bytes[attribute.name]), as: UTF8.self),
                        value: value, line: lines, column: Int32(lines == 0 ? characters : characters + 1)))
            }
            written.sort { $0.name < $1.name }
            let record = TagRecord(
                text: Array(text), name: name, kind: ModelElementKind.byName[name] ?? .other,
                written: written.isEmpty ? written : pool.sources.shared(written))
            return pool.insert(record, hash: hash)
        }

        /// The characters (Unicode scalars: bytes that do not continue one) in a range of the text.
        static func characters(in range: Range<Int>, _ bytes: UnsafeBufferPointer<UInt8>) -> Int {
            var count = 0
            for index in range where bytes[index] & 0xC0 != 0x80 { count += 1 }
            return count
        }

        /// The line and column of `offset`, worked out from where the last position was (offsets only grow).
        private mutating func position(of offset: Int) -> (line: Int, column: Int) {
            while let newline = Self.find(UInt8(ascii: "\n"), bytes, from: cursor), newline < offset {
                line += 1
                cursor = newline + 1
                cursorColumn = 1
            }
            cursorColumn += Self.characters(in: cursor..<offset, bytes)
            cursor = offset
            return (line, cursorColumn)
        }
    }
}

/// The tag records of a bundle's versions, each distinct tag's kept once, by a hash of its text, and the element
/// records' attribute arrays they share (`ElementSourcePool`, which the tree's road shares its records through).
final class TagRecordPool: @unchecked Sendable {
    /// The attribute arrays, each kept once.
    let sources = ElementSourcePool()
    private let lock = NSLock()
    private var tags: [UInt64: [TagRecord]] = [:]

    /// The record of a tag's text, if one was made.
    func record(hash: UInt64, text: UnsafeRawBufferPointer) -> TagRecord? {
        lock.lock()
        defer { lock.unlock() }
        return tags[hash]?.first { $0.isOf(text) }
    }

    /// Keeps `record`, or returns the one another thread kept for the same text meanwhile.
    func insert(_ record: TagRecord, hash: UInt64) -> TagRecord {
        lock.lock()
        defer { lock.unlock() }
        let text = record.text
        if let known = tags[hash]?.first(where: { known in text.withUnsafeBytes { known.isOf($0) } }) { return known }
        tags[hash, default: []].append(record)
        return record
    }
}

/// One distinct start tag's text and what it settles: the element's name and kind, its attributes as
/// `ElementSource` keeps them, and where each attribute the reader interprets is among them.
final class TagRecord: Sendable {
    /// The tag's text, from `<` to `>`.
    let text: [UInt8]
    let name: String
    let kind: ModelElementKind
    /// The attributes, sorted by name, their positions relative to the `<`.
    let written: [ElementSource.Written]
    /// For each ``ModelXMLName``, its index in `written`, or -1.
    let fields: [Int32]

    init(text: [UInt8], name: String, kind: ModelElementKind, written: [ElementSource.Written]) {
        self.text = text
        self.name = name
        self.kind = kind
        self.written = written
        var fields = [Int32](repeating: -1, count: ModelXMLName.allCases.count)
        for (index, attribute) in written.enumerated() {
            if let known = ModelXMLName.byText[attribute.name] { fields[known.rawValue] = Int32(index) }
        }
        self.fields = fields
    }

    /// Whether the record is of this text.
    func isOf(_ other: UnsafeRawBufferPointer) -> Bool {
        text.count == other.count
            && text.withUnsafeBytes { mine in
                guard let base = mine.baseAddress, let otherBase = other.baseAddress else { return mine.isEmpty }
                return memcmp(base, otherBase, mine.count) == 0
            }
    }
}
