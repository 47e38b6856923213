import ArgumentParser
import Foundation
import Remodel

struct ExportCommand: ParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "export", abstract: "Export every object of a store as JSON, in a deterministic order.")

    @OptionGroup var options: StoreOptions

    @Option(name: [.short, .long], help: "The file to write (default: standard output).")
    var output: String?

    @OptionGroup var quiet: QuietOption

    func run() throws {
        let bundle = try options.bundle()
        // A bar on the terminal the JSON is written to would be mixed into it.
        let printer = ProgressPrinter(quiet: quiet.quiet || (output == nil && isatty(STDOUT_FILENO) == 1))
        defer { printer.finish(clearing: true) }
        try runReportingFailure { () throws(RemodelError) in
            let store = try Store.openForReading(at: options.store, bundle: bundle)
            if let output {
                try store.exportJSON(to: output) { printer.print($0) }
            } else {
                try store.exportJSONToStandardOutput { printer.print($0) }
            }
            try store.checkUnchanged()
        }
    }
}
