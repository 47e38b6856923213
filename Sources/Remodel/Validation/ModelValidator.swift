/// Checks a model bundle for every mistake Core Data or the store would trip
/// over, and for the ones Xcode warns about, without stopping at the first.
///
/// For example:
/// ```swift
/// let result = ModelReader.read(path: "Models/Library.xcdatamodeld")
/// if let bundle = result.bundle {
///     for diagnostic in ModelValidator.validate(bundle) {
///         print(diagnostic) // Models/…/contents:7:71: error: … [missing-inverse]
///     }
/// }
/// ```
package enum ModelValidator {
    /// Validates every version of the bundle, then the bundle as a whole.
    ///
    /// - Parameter bundle: A bundle as ``ModelReader`` read it.
    /// - Returns: The diagnostics, sorted by file, line and column.
    package static func validate(_ bundle: ModelBundle) -> [Diagnostic] {
        var list = DiagnosticList()
        for version in bundle.versions {
            validate(version, into: &list)
        }
        VersionRules.check(bundle, into: &list)
        return list.items.sorted()
    }

    /// The errors (not the warnings) the rules that look at one version find in it, sorted.
    static func errors(in version: ModelVersion) -> [Diagnostic] {
        var list = DiagnosticList()
        list.keepsWarnings = false
        validate(version, into: &list)
        return list.items.filter { $0.severity == .error }.sorted()
    }

    /// Runs every rule that looks at one version.
    static func validate(_ version: ModelVersion, into list: inout DiagnosticList) {
        NameRules.check(version, into: &list)
        InheritanceRules.check(version, into: &list)
        AttributeRules.check(version, into: &list)
        ValueRules.check(version, into: &list)
        RelationshipRules.check(version, into: &list)
        ConstraintRules.check(version, into: &list)
    }
}
