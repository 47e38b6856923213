import ArgumentParser
import Foundation
import Remodel

struct ExportCommand: ParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "export", abstract: "Export every object of a store as JSON, in a deterministic order.",
        discussion: CommandHelp.discussion(
            examples: [
                .init(
                    "remodel export library.sqlite --model Models/Library.xcdatamodeld", "-o library.json",
                    does: "Write every object to library.json; two exports compare with diff."),
                .init(
                    "remodel export library.sqlite --model Models/Library.xcdatamodeld", "--carried-model",
                    does: "Print the model the store carries (its version's contents XML)."),
            ],
            exitStatus: ExitStatusTable.export))

    @OptionGroup var options: StoreOptions

    @OptionGroup var file: OutputFileOption

    @Flag(
        help:
            "Write the model the store carries (its version's contents XML, as written) instead of its objects; works on a store newer than the model too."
    )
    var carriedModel = false

    @OptionGroup var quiet: QuietOption

    @OptionGroup var progress: ProgressOption

    func run() throws {
        let bundle = try options.bundle()
        if carriedModel {
            try exportCarriedModel(bundle: bundle)
            return
        }
        // A bar on the terminal the JSON is written to would be mixed into it.
        let printer =
            progress.progress == .auto && file.output == nil && isatty(STDOUT_FILENO) == 1
            ? ProgressPrinter(style: .none) : progress.printer(quiet: quiet.quiet)
        defer { printer.finish(clearing: true) }
        try runReportingFailure { () throws(RemodelError) in
            let store = try Store.openForReading(at: options.store, bundle: bundle)
            if let output = file.output {
                try store.exportJSON(to: output) { printer.print($0) }
            } else {
                try store.exportJSONToStandardOutput { printer.print($0) }
            }
            try store.checkUnchanged()
        }
    }
}

extension ExportCommand {
    /// `--carried-model`: the XML the store carries, to the output file or standard output.
    func exportCarriedModel(bundle: ModelBundle) throws {
        let carried = try runReportingFailure { () throws(RemodelError) -> CarriedModel in
            guard let carried = try StoreInspector.carriedModel(path: options.store) else {
                throw RemodelError(
                    .incompatibleStore,
                    "the store carries no model yet (it was made before Remodel recorded one): its next migration records it",
                    path: options.store)
            }
            // A store imported without its model carries it under its file's name until the bundle adopts it.
            let adopted = try StoreInspector.inspect(path: options.store, bundle: bundle).adoptedModelName
            guard carried.modelName == bundle.name || adopted == carried.modelName else {
                throw RemodelError(
                    .otherModel,
                    "the store belongs to model \"\(carried.modelName)\", not \"\(bundle.name)\": give the model it was made with",
                    path: options.store)
            }
            return carried
        }
        try writeOutput(carried.contents, to: file.output, describing: "the carried model")
    }
}
