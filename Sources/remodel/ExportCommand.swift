import ArgumentParser
import Remodel

struct ExportCommand: ParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "export", abstract: "Export every object of a store as JSON, in a deterministic order.")

    @OptionGroup var options: StoreOptions

    @Option(name: .long, help: "The file to write (default: standard output).")
    var output: String?

    func run() throws {
        let bundle = try options.bundle()
        try runReportingFailure { () throws(RemodelError) in
            let store = try Store.openForReading(at: options.store, bundle: bundle)
            if let output {
                try store.exportJSON(to: output)
            } else {
                try store.exportJSONToStandardOutput()
            }
            try store.checkUnchanged()
        }
    }
}
