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

    /// The bundle restricted to the configuration, when one is given; prints why and fails when it cannot be.
    func restricting(_ bundle: ModelBundle) throws -> ModelBundle {
        guard let name else { return bundle }
        return try runReportingFailure(status: ExitStatus.couldNotStart) { () throws(RemodelError) in
            try bundle.restricted(toConfiguration: name)
        }
    }
}
