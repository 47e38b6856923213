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
            exitStatus: ExitStatusTable.importJSON))

    @OptionGroup var options: StoreOptions

    @Argument(help: "The JSON file to import.")
    var file: String

    @OptionGroup var output: QuietOption

    @OptionGroup var progress: ProgressOption

    func run() throws {
        let bundle = try options.bundle()
        try Inputs.requireFile(file, "JSON file")
        let printer = progress.printer(quiet: output.quiet)
        defer { printer.finish(clearing: true) }
        let imported = try runReportingFailure { () throws(RemodelError) in
            let store = try Store.open(at: options.store, bundle: bundle)
            guard store.version.name == bundle.currentVersionName else {
                throw RemodelError(
                    .incompatibleStore,
                    "the store is at version \"\(store.version.name)\", not the current version \"\(bundle.currentVersionName)\", so nothing was imported; migrate it first (`remodel migrate`), then import",
                    path: options.store)
            }
            return try store.importJSON(from: file) { printer.print($0) }
        }
        printer.finish(clearing: true)
        if !output.quiet {
            print("Imported \(ProgressPrinter.counted(imported, "object")) from \(file) into \(options.store).")
        }
    }
}
