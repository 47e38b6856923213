import ArgumentParser
import Remodel

struct ExtractModelCommand: ParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "extract-model",
        abstract: "Write the model a Core Data store was written with as a .xcdatamodeld bundle.",
        discussion: """
            Core Data keeps the compiled model in the store (Z_MODELCACHE). The bundle has one version, named \
            as the bundle is, and validates. The store is read without writing a byte in it or beside it.
            """)

    @Argument(help: "The Core Data store (.sqlite).")
    var source: String

    @Option(name: .long, help: "The bundle to write (NAME.xcdatamodeld; there must be nothing there).")
    var output: String

    @OptionGroup var quiet: QuietOption

    func run() throws {
        let version = try runReportingFailure { () throws(RemodelError) in
            try Store.extractCoreDataModel(from: source, to: output)
        }
        if !quiet.quiet {
            print(
                "Wrote the model of the Core Data store \(source) to \(output): version \"\(version.name)\", \(version.entities.count) entit\(version.entities.count == 1 ? "y" : "ies")."
            )
        }
    }
}
