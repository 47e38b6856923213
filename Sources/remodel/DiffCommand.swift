import ArgumentParser
import Remodel

struct DiffCommand: ParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "diff",
        abstract: "Show what changed between two versions of a model and how each change will be migrated.",
        discussion: CommandHelp.discussion(
            examples: [
                .init(
                    "remodel diff Models/Library.xcdatamodeld",
                    does: "What the current version changed, and how each change is migrated."),
                .init(
                    "remodel diff Models/Library.xcdatamodeld --from Library --to \"Library 3\"", "--format json",
                    does: "The same for two versions, as JSON."),
            ],
            exitStatus: [
                .success("every change can be inferred, or has no error"),
                .refused("a change needs a mapping file (an error line ending in [needs-mapping])"),
                .couldNotStart("a model that cannot be read, an unknown version"), .usage,
            ]))

    enum Format: String, ExpressibleByArgument, CaseIterable { case text, json }

    @Argument(help: "A .xcdatamodeld bundle.")
    var model: String

    @Option(help: "The version to compare from (default: the one before --to).")
    var from: String?

    @Option(help: "The version to compare to (default: the current version).")
    var to: String?

    @Option(help: "The output format.")
    var format: Format = .text

    func run() throws {
        let bundle = try loadBundle(model)
        let target = to ?? bundle.currentVersion.name
        let origin: String
        if let from {
            origin = from
        } else if let index = bundle.index(ofVersion: target) {
            guard index > 0 else {
                printError("\"\(target)\" is the first version of model \"\(bundle.name)\": give --from and --to")
                throw ExitCode(2)
            }
            origin = bundle.versions[index - 1].name
        } else {
            // The diff names the unknown version and lists the bundle's.
            origin = target
        }
        let diff: ModelDiff
        do {
            diff = try ModelDiff(bundle: bundle, from: origin, to: target)
        } catch {
            printFailure(error)
            throw ExitCode(2)
        }
        print(format == .json ? diff.json : diff.text, terminator: "")
        if diff.lints.contains(where: { $0.severity == .error }) { throw ExitCode(1) }
    }
}
