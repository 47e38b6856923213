import ArgumentParser
import Remodel

struct ImportCoreDataCommand: ParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "import-core-data",
        abstract: "Import a store that Core Data wrote into a new Remodel store, at the version that wrote it.",
        discussion: CommandHelp.discussion(
            """
            The Core Data store is read without writing a byte in it or beside it. Then migrate the new \
            store to the current version with `remodel migrate`.
            """,
            examples: [
                .init(
                    "remodel import-core-data Backup/Notes.sqlite",
                    "--model Models/Notes.xcdatamodeld --into notes.sqlite",
                    does: "Import the Core Data store at the version that wrote it; the next line says what to run.")
            ],
            exitStatus: [
                .success("the store was imported"),
                .refused(
                    "refused, nothing written: not a Core Data store, no version fits (or two do: give --version), a file at --into"
                ),
                .couldNotStart(), .usage,
            ]))

    @Argument(help: "The Core Data store (.sqlite); its -wal and .<Name>_SUPPORT folder are read too.")
    var source: String

    @Option(name: .long, help: "The model: a .xcdatamodeld bundle, a .xcdatamodel folder or a contents file.")
    var model: String

    @Option(name: .long, help: "The new Remodel store (there must be no file there).")
    var into: String

    @Option(name: .long, help: "The version that wrote the Core Data store, when Remodel cannot tell.")
    var version: String?

    @Option(help: "How to show progress on standard error (auto: a bar when it is a terminal, else nothing).")
    var progress: ProgressStyle = .auto

    @OptionGroup var output: QuietOption

    func run() throws {
        let bundle = try loadBundle(model)
        let printer = ProgressPrinter(style: output.quiet && progress == .auto ? .none : progress)
        defer { printer.finish(clearing: true) }
        let result = try runReportingFailure { () throws(RemodelError) in
            try Store.importCoreData(from: source, bundle: bundle, into: into, version: version) { printer.print($0) }
        }
        printer.finish(clearing: true)
        if !output.quiet {
            print(result.description)
            if result.versionName != bundle.currentVersionName {
                print("Next: remodel migrate \(into) --model \(model)")
            }
        }
    }
}
