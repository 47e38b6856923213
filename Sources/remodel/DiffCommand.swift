import ArgumentParser
import Remodel

struct DiffCommand: ParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "diff",
        abstract: "Show what changed between two versions of a model and how each change will be migrated.")

    enum Format: String, ExpressibleByArgument, CaseIterable { case text, json }

    @Argument(help: "A .xcdatamodeld bundle.")
    var model: String

    @Option(help: "The version to compare from (default: the one before --to).")
    var from: String?

    @Option(help: "The version to compare to (default: the current version).")
    var to: String?

    @Option(help: "text or json.")
    var format: Format = .text

    func run() throws {
        let bundle = try loadBundle(model)
        let target = to ?? bundle.currentVersion.name
        guard let targetIndex = bundle.index(ofVersion: target) else {
            throw ValidationError("the model \(bundle.name) has no version '\(target)'; its versions are \(bundle.versions.map(\.name).joined(separator: ", "))")
        }
        let origin: String
        if let from {
            origin = from
        } else if targetIndex > 0 {
            origin = bundle.versions[targetIndex - 1].name
        } else {
            throw ValidationError("'\(target)' is the first version of \(bundle.name): give --from and --to")
        }
        let diff: ModelDiff
        do {
            diff = try ModelDiff(bundle: bundle, from: origin, to: target)
        } catch {
            printError(error.description)
            throw ExitCode(2)
        }
        print(format == .json ? diff.json : diff.text, terminator: "")
    }
}
