/// Remodel expression text made from an Xcode expression or predicate, with
/// the range of the original that each part came from (`nil` for archived
/// expressions, which have no text of their own).
struct TranslatedText: Sendable, Hashable, CustomStringConvertible {
    /// From `offset` on (in Unicode scalars of ``text``), the text came from `origin`.
    struct Mark: Sendable, Hashable {
        var offset: Int
        var origin: Range<Int>?
    }

    private(set) var text = ""
    private(set) var marks: [Mark] = []
    private var length = 0

    init() {}

    /// Text with one origin.
    init(_ text: String, from origin: Range<Int>?) {
        append(text, from: origin)
    }

    var description: String { text }

    mutating func append(_ piece: String, from origin: Range<Int>?) {
        if origin != nil || marks.isEmpty { marks.append(Mark(offset: length, origin: origin)) }
        text += piece
        length += piece.unicodeScalars.count
    }

    mutating func append(_ other: TranslatedText) {
        for mark in other.marks { marks.append(Mark(offset: length + mark.offset, origin: mark.origin)) }
        text += other.text
        length += other.length
    }

    /// `prefix` + `inner` + `suffix`, the added text attributed to `origin`.
    static func wrapping(_ inner: TranslatedText, _ prefix: String, _ suffix: String, from origin: Range<Int>?)
        -> TranslatedText
    {
        var result = TranslatedText(prefix, from: origin)
        result.append(inner)
        result.append(suffix, from: nil)
        return result
    }

    /// Parts joined by a separator attributed to `origin`.
    static func joining(_ parts: [TranslatedText], with separator: String, from origin: Range<Int>?) -> TranslatedText {
        var result = TranslatedText()
        for (index, part) in parts.enumerated() {
            if index > 0 { result.append(separator, from: origin) }
            result.append(part)
        }
        return result
    }

}
