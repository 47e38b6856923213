import ArgumentParser
import Foundation
import Remodel

struct StatusCommand: ParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "status", abstract: "Say which version a store is at and what would happen next.",
        discussion: CommandHelp.discussion(
            examples: [
                .init(
                    "remodel status library.sqlite --model Models/Library.xcdatamodeld",
                    does: "Name the store's version and print the plan `remodel migrate` would run."),
                .init(
                    "remodel status library.sqlite --model Models/Library.xcdatamodeld --format json",
                    does: "The same as one JSON object (docs/JSON.md)."),
            ],
            exitStatus: ExitStatusTable.status))

    @OptionGroup var options: StoreOptions

    @OptionGroup var mappings: MappingsOption

    @OptionGroup var format: FormatOption

    func run() throws {
        let bundle = try options.bundle()
        let mappings = try mappings.folder()
        let inspection = try runReportingFailure { () throws(RemodelError) in
            try StoreInspector.inspect(path: options.store, bundle: bundle)
        }
        let status = StoreStatus(inspection: inspection, bundle: bundle, mappings: mappings)
        if format.isJSON {
            print(status.json.rendered())
            if status.isRefused { printError(inspection.message) }
        } else {
            status.printText()
        }
        if let failure = status.failure { printFailure(failure, prefix: StoreStatus.failurePrefix) }
        if status.isRefused || status.failure != nil { throw ExitCode(ExitStatus.refused) }
    }
}
