/// A place in a file that a diagnostic or an error points at.
///
/// Lines and columns are 1-based; the column counts Unicode scalars from
/// the start of the line, the way editors jump to `path:line:column`.
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

    /// The location as `file:line:column`.
    public var description: String { "\(file):\(line):\(column)" }

    public static func < (lhs: SourceLocation, rhs: SourceLocation) -> Bool {
        (lhs.file, lhs.line, lhs.column) < (rhs.file, rhs.line, rhs.column)
    }
}
