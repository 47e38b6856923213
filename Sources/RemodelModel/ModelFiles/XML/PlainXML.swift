/// The plain road through an XML text: a strict check of the XML that Xcode and Remodel write, which lets a file
/// that passes be read without libxml2 at all (libxml2's parser and its start-up are a megabyte of code an app
/// otherwise maps at every launch, and its check was most of reading a model version).
///
/// It takes only what it can judge completely: UTF-8 with every character one XML allows; an XML declaration of
/// version 1.0 in UTF-8 at most; comments; a document type with no internal subset (a plist's); elements and
/// attributes with ASCII names and no namespace prefix or declaration; the predefined entities and character
/// references; no CDATA, no processing instruction, no carriage return, no tab or line break inside an attribute
/// value (XML would turn them into spaces); no deeper than ``maximumDepth``. Anything else returns nil, and the
/// caller takes libxml2, which reads it or names what is wrong, as it always did: this road never reports an error
/// of its own. `PlainXMLTests` holds it to libxml2 on every corpus file and on texts changed at random.
enum PlainXML {
    /// Elements nested deeper are left to libxml2, which refuses those deeper than 256.
    static let maximumDepth = 128
    /// Larger texts are left to libxml2, whose limit on a text or a value is 10,000,000 bytes.
    static let maximumSize = 8_000_000
    /// Longer names are left to libxml2.
    static let maximumNameLength = 1_000
    /// Tags with more attributes are left to libxml2 (which finds a name written twice by hashing).
    static let maximumAttributes = 256

    /// Whether `bytes` is a well-formed text on the plain road.
    static func isWellFormed(_ bytes: UnsafeBufferPointer<UInt8>) -> Bool {
        var scanner = PlainXMLScanner(bytes: bytes, builds: false)
        return scanner.document() != nil
    }

    /// The root element of `bytes` when it is a well-formed text on the plain road; nil otherwise.
    static func root(of bytes: [UInt8]) -> ParsedXMLElement? {
        bytes.withUnsafeBufferPointer { buffer in
            var scanner = PlainXMLScanner(bytes: buffer, builds: true)
            return scanner.document()
        }
    }
}

/// The one pass of ``PlainXML``: every production it takes, checked byte by byte; nil at the first thing it does not
/// take. With `builds` false it only checks, and makes no element.
struct PlainXMLScanner {
    private let bytes: UnsafeBufferPointer<UInt8>
    private let builds: Bool
    private var index = 0

    init(bytes: UnsafeBufferPointer<UInt8>, builds: Bool) {
        self.bytes = bytes
        self.builds = builds
    }

    private static let lessThan = UInt8(ascii: "<")
    private static let greaterThan = UInt8(ascii: ">")
    private static let ampersand = UInt8(ascii: "&")
    private static let slash = UInt8(ascii: "/")
    private static let equals = UInt8(ascii: "=")
    private static let doubleQuote = UInt8(ascii: "\"")
    private static let singleQuote = UInt8(ascii: "'")

    /// document ::= BOM? XMLDecl? Misc* (doctypedecl Misc*)? element Misc*
    mutating func document() -> ParsedXMLElement? {
        guard bytes.count <= PlainXML.maximumSize else { return nil }
        if has([0xEF, 0xBB, 0xBF]) { index = 3 }
        if has("<?xml") {
            guard declaration() else { return nil }
        }
        var sawDocumentType = false
        while true {
            skipSpaces()
            if has("<!--") {
                guard comment() else { return nil }
            } else if has("<!DOCTYPE") {
                guard !sawDocumentType, documentType() else { return nil }
                sawDocumentType = true
            } else {
                break
            }
        }
        guard index < bytes.count, bytes[index] == Self.lessThan else { return nil }
        guard let root = element() else { return nil }
        while true {
            skipSpaces()
            guard index < bytes.count else { return root }
            guard has("<!--"), comment() else { return nil }
        }
    }

    // MARK: - Prolog

    /// XMLDecl ::= '<?xml' VersionInfo EncodingDecl? SDDecl? S? '?>', version 1.0 and encoding UTF-8 only.
    private mutating func declaration() -> Bool {
        index += 5
        guard spaces(), word("version"), equalSign(), let version = quoted(), version == Array("1.0".utf8) else {
            return false
        }
        var hadSpace = spaces()
        if hadSpace, word("encoding") {
            guard equalSign(), let name = quoted(), name.map(Self.lowercased) == Array("utf-8".utf8) else {
                return false
            }
            hadSpace = spaces()
        }
        if hadSpace, word("standalone") {
            guard equalSign(), let value = quoted(), value == Array("yes".utf8) || value == Array("no".utf8) else {
                return false
            }
            _ = spaces()
        }
        guard has("?>") else { return false }
        index += 2
        return true
    }

    /// doctypedecl ::= '<!DOCTYPE' S Name (S ExternalID)? S? '>', with no internal subset.
    private mutating func documentType() -> Bool {
        index += 9
        guard spaces(), name() != nil else { return false }
        var hadSpace = spaces()
        if hadSpace, word("SYSTEM") {
            guard spaces(), literal(publicIdentifier: false) else { return false }
            hadSpace = spaces()
        } else if hadSpace, word("PUBLIC") {
            guard spaces(), literal(publicIdentifier: true), spaces(), literal(publicIdentifier: false) else {
                return false
            }
            hadSpace = spaces()
        }
        guard index < bytes.count, bytes[index] == Self.greaterThan else { return false }
        index += 1
        return true
    }

    /// A system literal (printable ASCII, no `#`) or a public identifier (PubidChar), quoted.
    private mutating func literal(publicIdentifier: Bool) -> Bool {
        guard index < bytes.count, bytes[index] == Self.doubleQuote || bytes[index] == Self.singleQuote else {
            return false
        }
        let quote = bytes[index]
        index += 1
        while index < bytes.count, bytes[index] != quote {
            let byte = bytes[index]
            guard byte >= 0x20, byte < 0x7F, byte != UInt8(ascii: "#") else { return false }
            if publicIdentifier {
                guard Self.isPublicIdentifierCharacter(byte) else { return false }
            }
            index += 1
        }
        guard index < bytes.count else { return false }
        index += 1
        return true
    }

    private static func isPublicIdentifierCharacter(_ byte: UInt8) -> Bool {
        isLetterOrDigit(byte) || Array(" -'()+,./:=?;!*@$_%".utf8).contains(byte)
    }

    /// Comment ::= '<!--' ((Char - '-') | ('-' (Char - '-')))* '-->'
    private mutating func comment() -> Bool {
        index += 4
        while index < bytes.count {
            if bytes[index] == UInt8(ascii: "-"), index + 1 < bytes.count, bytes[index + 1] == UInt8(ascii: "-") {
                guard index + 2 < bytes.count, bytes[index + 2] == Self.greaterThan else { return false }
                index += 3
                return true
            }
            guard character() else { return false }
        }
        return false
    }

    // MARK: - Elements

    /// An element and everything inside it, walked with a stack (no recursion on the text's depth).
    private mutating func element() -> ParsedXMLElement? {
        // The open elements: where each one's name is written, and what was built of it.
        var open: [(name: Range<Int>, element: ParsedXMLElement)] = []
        guard let (rootName, first, closes) = startTag() else { return nil }
        if closes { return first }
        open.append((rootName, first))
        while let current = open.last {
            guard index < bytes.count else { return nil }
            let byte = bytes[index]
            if byte == Self.lessThan {
                guard index + 1 < bytes.count else { return nil }
                let next = bytes[index + 1]
                if next == Self.slash {
                    index += 2
                    guard let closing = name(), bytes[closing].elementsEqual(bytes[current.name]) else { return nil }
                    skipSpaces()
                    guard index < bytes.count, bytes[index] == Self.greaterThan else { return nil }
                    index += 1
                    let finished = open.removeLast().element
                    if open.isEmpty { return finished }
                    if builds { open[open.count - 1].element.children.append(finished) }
                } else if next == UInt8(ascii: "!") {
                    guard has("<!--"), comment() else { return nil }
                } else {
                    guard open.count < PlainXML.maximumDepth, let (childName, child, closes) = startTag() else {
                        return nil
                    }
                    if closes {
                        if builds { open[open.count - 1].element.children.append(child) }
                    } else {
                        open.append((childName, child))
                    }
                }
            } else {
                let start = index
                guard characterData() else { return nil }
                if builds, let text = Self.decoded(UnsafeBufferPointer(rebasing: bytes[start..<index])) {
                    open[open.count - 1].element.text += text
                }
            }
        }
        return nil
    }

    /// A start tag or an empty-element tag: where its name is written, the element begun, and whether it closes
    /// itself.
    private mutating func startTag() -> (Range<Int>, ParsedXMLElement, Bool)? {
        index += 1
        guard let nameRange = name() else { return nil }
        var element = ParsedXMLElement(name: builds ? text(nameRange) : "", attributes: [], children: [], text: "")
        var written: [Range<Int>] = []
        while true {
            let hadSpace = spaces()
            guard index < bytes.count else { return nil }
            if bytes[index] == Self.greaterThan {
                index += 1
                return (nameRange, element, false)
            }
            if bytes[index] == Self.slash {
                guard index + 1 < bytes.count, bytes[index + 1] == Self.greaterThan else { return nil }
                index += 2
                return (nameRange, element, true)
            }
            guard hadSpace, written.count < PlainXML.maximumAttributes, let attribute = name() else { return nil }
            // A namespace declaration belongs to libxml2's road, as does a name written twice.
            guard !bytes[attribute].elementsEqual("xmlns".utf8),
                !written.contains(where: { bytes[$0].elementsEqual(bytes[attribute]) })
            else { return nil }
            written.append(attribute)
            guard equalSign(), let value = attributeValue() else { return nil }
            if builds {
                guard let decoded = Self.decoded(UnsafeBufferPointer(rebasing: bytes[value])) else { return nil }
                element.attributes.append(ParsedXMLElement.Attribute(name: text(attribute), value: decoded))
            }
        }
    }

    /// A quoted attribute value's range between its quotes: no `<`, references well-formed, no tab or line
    /// break.
    private mutating func attributeValue() -> Range<Int>? {
        guard index < bytes.count, bytes[index] == Self.doubleQuote || bytes[index] == Self.singleQuote else {
            return nil
        }
        let quote = bytes[index]
        index += 1
        let start = index
        while index < bytes.count, bytes[index] != quote {
            let byte = bytes[index]
            if byte == Self.ampersand {
                guard reference() else { return nil }
            } else {
                guard byte >= 0x20, byte != Self.lessThan, character() else { return nil }
            }
        }
        guard index < bytes.count else { return nil }
        let value = start..<index
        index += 1
        return value
    }

    /// Character data up to the next `<`: references well-formed, no `]]>`, no carriage return.
    private mutating func characterData() -> Bool {
        while index < bytes.count, bytes[index] != Self.lessThan {
            let byte = bytes[index]
            if byte == Self.ampersand {
                guard reference() else { return false }
            } else if byte == UInt8(ascii: "]") {
                guard !has("]]>") else { return false }
                index += 1
            } else {
                guard byte != 0x0D, character() else { return false }
            }
        }
        return true
    }

    /// Reference ::= '&' ('lt' | 'gt' | 'amp' | 'quot' | 'apos') ';' | '&#' [0-9]+ ';' | '&#x' [0-9a-fA-F]+ ';',
    /// a character reference naming a character XML allows.
    private mutating func reference() -> Bool {
        index += 1
        guard let end = (index..<min(bytes.count, index + 10)).first(where: { bytes[$0] == UInt8(ascii: ";") }) else {
            return false
        }
        let body = bytes[index..<end]
        index = end + 1
        if body.first == UInt8(ascii: "#") {
            return XMLReferences.scalar(ofCharacterReference: UnsafeBufferPointer(rebasing: body.dropFirst())) != nil
        }
        return ["lt", "gt", "amp", "quot", "apos"].contains { body.elementsEqual($0.utf8) }
    }

    /// One character at `index`: an ASCII byte XML allows (tab, line feed, carriage return, printable), or a
    /// well-formed UTF-8 sequence (no overlong form, no surrogate) of a character XML allows. Moves past it.
    private mutating func character() -> Bool {
        let lead = bytes[index]
        if lead < 0x80 {
            guard lead >= 0x20 || lead == 0x09 || lead == 0x0A || lead == 0x0D else { return false }
            index += 1
            return true
        }
        let length: Int
        var value: UInt32
        var lowest: UInt8 = 0x80
        var highest: UInt8 = 0xBF
        switch lead {
        case 0xC2...0xDF: (length, value) = (2, UInt32(lead & 0x1F))
        case 0xE0: (length, value, lowest) = (3, UInt32(lead & 0x0F), 0xA0)
        case 0xE1...0xEC, 0xEE...0xEF: (length, value) = (3, UInt32(lead & 0x0F))
        case 0xED: (length, value, highest) = (3, UInt32(lead & 0x0F), 0x9F)
        case 0xF0: (length, value, lowest) = (4, UInt32(lead & 0x07), 0x90)
        case 0xF1...0xF3: (length, value) = (4, UInt32(lead & 0x07))
        case 0xF4: (length, value, highest) = (4, UInt32(lead & 0x07), 0x8F)
        default: return false
        }
        guard index + length <= bytes.count else { return false }
        for offset in 1..<length {
            let byte = bytes[index + offset]
            let (low, high) = offset == 1 ? (lowest, highest) : (UInt8(0x80), UInt8(0xBF))
            guard byte >= low, byte <= high else { return false }
            value = value << 6 | UInt32(byte & 0x3F)
        }
        guard XMLReferences.isCharacter(value) else { return false }
        index += length
        return true
    }

    // MARK: - Pieces

    /// Name, ASCII only and without `:`: [A-Za-z_] [A-Za-z0-9_.-]*. Its range.
    private mutating func name() -> Range<Int>? {
        let start = index
        guard index < bytes.count, Self.isLetter(bytes[index]) || bytes[index] == UInt8(ascii: "_") else {
            return nil
        }
        index += 1
        while index < bytes.count, index - start <= PlainXML.maximumNameLength {
            let byte = bytes[index]
            guard
                Self.isLetterOrDigit(byte) || byte == UInt8(ascii: "_") || byte == UInt8(ascii: ".")
                    || byte == UInt8(ascii: "-")
            else { break }
            index += 1
        }
        guard index - start <= PlainXML.maximumNameLength else { return nil }
        // A name running into a byte a name may hold in XML but this road does not take (`:`, a non-ASCII letter).
        if index < bytes.count, bytes[index] == UInt8(ascii: ":") || bytes[index] >= 0x80 { return nil }
        return start..<index
    }

    /// Eq ::= S? '=' S?
    private mutating func equalSign() -> Bool {
        skipSpaces()
        guard index < bytes.count, bytes[index] == Self.equals else { return false }
        index += 1
        skipSpaces()
        return true
    }

    /// A quoted ASCII value of the XML declaration.
    private mutating func quoted() -> [UInt8]? {
        guard index < bytes.count, bytes[index] == Self.doubleQuote || bytes[index] == Self.singleQuote else {
            return nil
        }
        let quote = bytes[index]
        let start = index + 1
        index = start
        while index < bytes.count, bytes[index] != quote {
            guard bytes[index] >= 0x20, bytes[index] < 0x7F else { return nil }
            index += 1
        }
        guard index < bytes.count else { return nil }
        index += 1
        return Array(bytes[start..<index - 1])
    }

    /// Whether `text` is written at `index` followed by something other than a name character; moves past it.
    private mutating func word(_ text: StaticString) -> Bool {
        guard has(text) else { return false }
        let end = index + text.utf8CodeUnitCount
        guard end < bytes.count, !Self.isLetterOrDigit(bytes[end]) else { return false }
        index = end
        return true
    }

    /// Skips S; whether there was any.
    @discardableResult
    private mutating func spaces() -> Bool {
        let start = index
        skipSpaces()
        return index > start
    }

    private mutating func skipSpaces() {
        while index < bytes.count, bytes[index] == 0x20 || bytes[index] == 0x0A || bytes[index] == 0x09 {
            index += 1
        }
    }

    private func has(_ text: StaticString) -> Bool {
        let count = text.utf8CodeUnitCount
        guard index + count <= bytes.count else { return false }
        for offset in 0..<count where bytes[index + offset] != text.utf8Start[offset] { return false }
        return true
    }

    private func has(_ prefix: [UInt8]) -> Bool {
        index + prefix.count <= bytes.count && bytes[index..<index + prefix.count].elementsEqual(prefix)
    }

    private func text(_ range: Range<Int>) -> String {
        String(decoding: UnsafeBufferPointer(rebasing: bytes[range]), as: UTF8.self)
    }

    private static func isLetter(_ byte: UInt8) -> Bool {
        (byte >= UInt8(ascii: "a") && byte <= UInt8(ascii: "z"))
            || (byte >= UInt8(ascii: "A") && byte <= UInt8(ascii: "Z"))
    }

    private static func isLetterOrDigit(_ byte: UInt8) -> Bool {
        isLetter(byte) || (byte >= UInt8(ascii: "0") && byte <= UInt8(ascii: "9"))
    }

    private static func lowercased(_ byte: UInt8) -> UInt8 {
        byte >= UInt8(ascii: "A") && byte <= UInt8(ascii: "Z") ? byte + 32 : byte
    }

    /// Text or a value with its references decoded (checked well-formed already).
    private static func decoded(_ raw: UnsafeBufferPointer<UInt8>) -> String? {
        XMLReferences.decode(raw)
    }
}
