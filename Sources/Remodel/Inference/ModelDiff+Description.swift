extension ModelDiff: CustomStringConvertible {
    /// The diff for people (``text``).
    public var description: String { text }
}
