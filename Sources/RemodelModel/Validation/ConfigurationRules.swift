/// Rules on a version's configurations (docs/CORE-DATA-STORES.md, "Configurations"): a member entity the version
/// lacks is an error (no store of the configuration can be made, nor could Core Data's); a configuration that
/// cannot be a store of its own (a sub-entity without its parent, a relationship leading out of it) is a warning,
/// since Core Data accepts such a model and Remodel refuses only a store of that configuration.
enum ConfigurationRules {
    static func check(_ version: ModelVersion, into list: inout DiagnosticList) {
        for configuration in version.configurations {
            for problem in ConfigurationClosure.problems(of: configuration, in: version) {
                switch problem.kind {
                case .unknownMember:
                    list.report(.configurationUnknownEntity, problem.message, at: problem.location)
                case .parentOutside, .relationshipOutside:
                    list.report(
                        .configurationNotClosed, problem.message + "; Remodel makes no store of this configuration",
                        at: problem.location)
                }
            }
        }
    }
}
