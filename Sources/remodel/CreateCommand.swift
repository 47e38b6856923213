import ArgumentParser
import Remodel

struct CreateCommand: ParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "create",
        abstract: "Create a store at a version of a model, optionally filled from a JSON seed file.",
        discussion: CommandHelp.discussion(
            examples: [
                .init(
                    "remodel create library.sqlite --model Models/Library.xcdatamodeld",
                    does: "Create an empty store at the current version."),
                .init(
                    "remodel create library.sqlite --model Models/Library.xcdatamodeld",
                    "--version Library --seed seed.json",
                    does: "Create a store at version Library, filled from seed.json."),
                .init(
                    "remodel create cloud.sqlite --model Models/Library.xcdatamodeld --configuration Cloud",
                    does:
                        "Create a store of configuration Cloud's entities only; every later command reads it so."),
            ],
            exitStatus: ExitStatusTable.create))

    @OptionGroup var options: StoreOptions

    @Option(name: .long, help: "The version to create (default: the model's current version).")
    var version: String?

    @Option(name: .long, help: "A JSON file in the export shape to import into the new store.")
    var seed: String?

    @OptionGroup var configurationOption: ConfigurationOption

    @OptionGroup var output: QuietOption

    @OptionGroup var progress: ProgressOption

    func run() throws {
        let bundle = try configurationOption.restricting(try options.bundle())
        try Inputs.requireVersion(version, in: bundle)
        if let seed { try Inputs.requireFile(seed, "JSON file") }
        let printer = progress.printer(quiet: output.quiet)
        defer { printer.finish(clearing: true) }
        let (store, seeded) = try runReportingFailure { () throws(RemodelError) in
            try Store.create(at: options.store, bundle: bundle, version: version, seed: seed) { printer.print($0) }
        }
        printer.finish(clearing: true)
        if !output.quiet {
            let filled = seed.map { " with \(ProgressPrinter.counted(seeded, "object")) from \($0)" } ?? ", empty"
            let shape = bundle.configurationName.map { " (configuration \"\($0)\")" } ?? ""
            print(
                "Created \(store.path) at version \"\(store.version.name)\"\(shape) of model \"\(bundle.name)\"\(filled)."
            )
        }
    }
}
