/// The warnings that say whether a step uses an Xcode mapping model, shared by
/// the mapping catalog (migrations) and `remodel validate`.
package enum XcodeMappingNotes {
    /// The mapping model maps from a later version to an earlier one (or a version to itself).
    package static func backwards(from source: String, to destination: String, at location: SourceLocation)
        -> Diagnostic
    {
        let message =
            source == destination
            ? "this mapping model maps '\(source)' to itself, so no step uses it"
            : "this mapping model goes from '\(source)' back to '\(destination)'; Remodel never migrates backwards, so it is not used"
        return Diagnostic(.warning, rule: .xcodeMappingBackwards, message: message, at: location)
    }

    /// A Remodel mapping file maps the same step, and wins.
    package static func superseded(
        by other: String, from source: String, to destination: String, at location: SourceLocation
    )
        -> Diagnostic
    {
        Diagnostic(
            .warning, rule: .xcodeMappingSuperseded,
            message:
                "the Remodel mapping file \(other) maps the same step ('\(source)' to '\(destination)') and is used instead of this mapping model",
            at: location)
    }
}
