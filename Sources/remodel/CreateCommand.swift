import ArgumentParser
import Remodel

struct CreateCommand: ParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "create",
        abstract: "Create a store at a version of a model, optionally filled from a JSON seed file.")

    @OptionGroup var options: StoreOptions

    @Option(name: .long, help: "The version to create (default: the model's current version).")
    var version: String?

    @Option(name: .long, help: "A JSON file in the export shape to import into the new store.")
    var seed: String?

    @OptionGroup var output: QuietOption

    func run() throws {
        let bundle = try options.bundle()
        let printer = ProgressPrinter(quiet: output.quiet)
        defer { printer.finish(clearing: true) }
        let store = try runReportingFailure { () throws(RemodelError) in
            try Store.create(at: options.store, bundle: bundle, version: version, seed: seed) { printer.print($0) }
        }
        printer.finish(clearing: true)
        if !output.quiet {
            print("Created \(store.path) at version \"\(store.version.name)\" of model \"\(bundle.name)\".")
        }
    }
}
