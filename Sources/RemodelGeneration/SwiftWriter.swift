import RemodelModel

/// Lines of Swift source with indentation, four spaces a level.
struct SwiftWriter {
    private(set) var text = ""
    private var level = 0

    /// One line at the current indentation (an empty line has no spaces).
    mutating func line(_ content: String = "") {
        if !content.isEmpty { text += String(repeating: "    ", count: level) + content }
        text += "\n"
    }

    /// `opening {`, the body one level in, then `}` (or `closing`).
    mutating func block(_ opening: String, closing: String = "}", _ body: (inout SwiftWriter) -> Void) {
        line(opening + " {")
        level += 1
        body(&self)
        level -= 1
        line(closing)
    }

    /// A `///` documentation comment, one line per line of `text`.
    mutating func doc(_ text: String) {
        for part in text.split(separator: "\n", omittingEmptySubsequences: false) { line("/// " + part) }
    }
}
