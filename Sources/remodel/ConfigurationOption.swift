import ArgumentParser
import Remodel

/// `--configuration NAME`: one configuration's entities only (a store of one configuration, as Core Data apps
/// split their entities across stores).
struct ConfigurationOption: ParsableArguments {
    @Option(
        name: .customLong("configuration"),
        help: ArgumentHelp(
            "Only the entities of this configuration of the model (<configuration> in the model file).",
            valueName: "name"))
    var name: String?

    /// The bundle restricted to the configuration, when one is given; prints why and fails when it cannot be
    /// (at its current version, and at `version` too when one is given).
    func restricting(_ bundle: ModelBundle, version: String? = nil) throws -> ModelBundle {
        guard let name else { return bundle }
        return try runReportingFailure(status: ExitStatus.couldNotStart) { () throws(RemodelError) in
            let restricted = try bundle.restricted(toConfiguration: name)
            if let version {
                _ = try bundle.requireVersion(named: version, code: .invalidModel).restricted(toConfiguration: name)
            }
            return restricted
        }
    }
}
