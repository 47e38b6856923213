import ArgumentParser
import Remodel

struct ImportCommand: ParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "import", abstract: "Import objects from a JSON file into a store, all or nothing.")

    @OptionGroup var options: StoreOptions

    @Argument(help: "The JSON file to import.")
    var file: String

    @OptionGroup var output: QuietOption

    func run() throws {
        let bundle = try options.bundle()
        let printer = ProgressPrinter(quiet: output.quiet)
        defer { printer.finish(clearing: true) }
        try runReportingFailure { () throws(RemodelError) in
            let store = try Store.open(at: options.store, bundle: bundle)
            try store.importJSON(from: file) { printer.print($0) }
        }
        printer.finish(clearing: true)
        if !output.quiet { print("Imported \(file) into \(options.store).") }
    }
}
