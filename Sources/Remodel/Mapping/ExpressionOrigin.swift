/// Where the parts of a value expression came from when it was translated
/// from another language (an Xcode mapping model's `NSPredicate` string or
/// archived `NSExpression`) rather than written as Remodel text: positions in
/// the translated text map back to positions in the file it was read from.
struct ExpressionOrigin: Sendable, Hashable {
    /// From `offset` on (in Unicode scalars of the translated text), positions map to `location`.
    struct Mark: Sendable, Hashable {
        var offset: Int
        var location: SourceLocation
    }

    /// The expression as written in its own language, for messages.
    var original: String
    /// Sorted by offset; the first is at offset 0.
    var marks: [Mark]

    /// The file position of a character of the translated text.
    func location(atOffset offset: Int) -> SourceLocation? {
        marks.last { $0.offset <= offset }?.location ?? marks.first?.location
    }
}
