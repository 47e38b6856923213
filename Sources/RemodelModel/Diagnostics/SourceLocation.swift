/// A place in a file that a diagnostic or an error points at.
///
/// Lines and columns are 1-based; the column counts Unicode scalars from
/// the start of the line, the way editors jump to `path:line:column`. A
/// location of a file as a whole (a missing file, one that cannot be read)
/// has line and column 0 and prints as the path alone.
///
/// For example:
/// ```swift
/// let location = SourceLocation(file: "Models/Library.xcdatamodeld/Library.xcdatamodel/contents", line: 4, column: 9)
/// print(location) // Models/…/contents:4:9
/// ```
public struct SourceLocation: Sendable, Hashable, Comparable, CustomStringConvertible {
    /// The file's path as the user gave it (relative paths stay relative).
    public var file: String
    /// The 1-based line.
    public var line: Int
    /// The 1-based column.
    public var column: Int

    /// Creates a location.
    public init(file: String, line: Int, column: Int) {
        self.file = file
        self.line = line
        self.column = column
    }

    /// A file as a whole, with no position in it: `path: error: …` rather than a made-up `path:1:1`.
    public init(file: String) {
        self.init(file: file, line: 0, column: 0)
    }

    /// Whether the location names a position in the file rather than the file as a whole.
    public var hasPosition: Bool { line > 0 }

    /// The location as `file:line:column`, or `file` for a file as a whole.
    public var description: String { hasPosition ? "\(file):\(line):\(column)" : file }

    public static func < (lhs: SourceLocation, rhs: SourceLocation) -> Bool {
        (lhs.file, lhs.line, lhs.column) < (rhs.file, rhs.line, rhs.column)
    }
}
