/// An Xcode mapping model translated for one bundle: the Remodel mapping-file
/// rules it amounts to, and what a Remodel mapping file cannot say — the
/// migration policy classes entity mappings need, the expressions that have
/// no translation — kept beside each rule for the planner and for
/// `remodel convert-mapping`'s comments.
package struct XcodeMappingTranslation: Sendable {
    /// One Xcode entity mapping that says something inference does not.
    package struct Rule: Sendable {
        /// The Remodel rule, positions in `xcmapping.xml`.
        var rule: MappingFile.EntityRule
        /// The Xcode entity mapping's name.
        var name: String
        /// The policy class it names.
        package var policy: PolicyRequirement?
        /// What it cannot do in Remodel, each a problem for the planner (empty when the policy makes the objects).
        var problems: [MappingProblem]
        /// Comments for the converted file: the Xcode expression of each translated property, by property name.
        var originals: [String: String]
        /// Comments for the converted file: what a person must write by hand.
        var todos: [String]
    }

    /// The mapping model as read.
    var model: XcodeMappingModel
    /// The versions it maps between.
    package var match: XcodeVersionMatcher.Match
    /// The equivalent Remodel mapping file.
    var file: MappingFile
    /// The rules of ``file`` with what goes with each, in the same order.
    package var rules: [Rule]
    /// Problems found while translating, with positions in `xcmapping.xml`.
    var diagnostics: [Diagnostic]

    /// The mapping merged over inference, with each rule's policy and problems attached. The
    /// merger's own reports of what inference cannot do are dropped for entity mappings whose
    /// policy makes the objects, and for properties whose Xcode expression was refused (that
    /// refusal is the report).
    func resolve(bundle: ModelBundle) -> (MappingModel?, [Diagnostic]) {
        let (merged, diagnostics) = MappingResolver.resolve(file: file, bundle: bundle)
        guard var mapping = merged else { return (nil, diagnostics) }
        var policyLocations: Set<SourceLocation> = []
        var refused: [SourceLocation: [String]] = [:]
        for rule in rules {
            let location = rule.rule.source.location
            if rule.policy != nil { policyLocations.insert(location) }
            refused[location] = rule.problems.compactMap { problem in
                problem.property.map { "\(problem.entity).\($0):" }
            }
            for index in mapping.entities.indices where mapping.entities[index].provenance == .explicit(location) {
                if let policy = rule.policy {
                    mapping.entities[index].policy = policy
                    mapping.entities[index].problems = []
                }
                mapping.entities[index].problems += rule.problems
            }
        }
        let kept = diagnostics.filter { diagnostic in
            guard diagnostic.rule == DiagnosticRule.mappingIncomplete.rawValue, let location = diagnostic.location
            else { return true }
            if policyLocations.contains(location) { return false }
            return !(refused[location] ?? []).contains { diagnostic.message.hasPrefix($0) }
        }
        return (mapping, kept)
    }
}
