import ArgumentParser
import Remodel

struct ImportCommand: ParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "import", abstract: "Import objects from a JSON file into a store, all or nothing.",
        discussion: CommandHelp.discussion(
            examples: [
                .init(
                    "remodel import library.sqlite more-books.json", "--model Models/Library.xcdatamodeld",
                    does: "Add the objects of more-books.json to the store, or none of them.")
            ],
            exitStatus: [
                .success("every object was imported"),
                .refused(
                    "refused, the store left as it was: a value or link the model rejects, not a store at the current version"
                ),
                .couldNotStart(), .usage,
            ]))

    @OptionGroup var options: StoreOptions

    @Argument(help: "The JSON file to import.")
    var file: String

    @OptionGroup var output: QuietOption

    func run() throws {
        let bundle = try options.bundle()
        let printer = ProgressPrinter(quiet: output.quiet)
        defer { printer.finish(clearing: true) }
        let imported = try runReportingFailure { () throws(RemodelError) in
            let store = try Store.open(at: options.store, bundle: bundle)
            return try store.importJSON(from: file) { printer.print($0) }
        }
        printer.finish(clearing: true)
        if !output.quiet {
            print("Imported \(ProgressPrinter.counted(imported, "object")) from \(file) into \(options.store).")
        }
    }
}
