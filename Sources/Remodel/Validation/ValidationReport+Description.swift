extension ValidationReport: CustomStringConvertible {
    /// Every diagnostic, one a line as compilers print them, then ``summary``.
    public var description: String {
        (diagnostics.sorted().map(\.description) + [summary]).joined(separator: "\n")
    }
}
