import ArgumentParser
import Remodel
import RemodelCoreData

struct ExtractModelCommand: ParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "extract-model",
        abstract: "Write the model a Core Data store was written with as a .xcdatamodeld bundle.",
        discussion: CommandHelp.discussion(
            """
            Core Data keeps the compiled model in the store (Z_MODELCACHE). The bundle has one version, named \
            as the bundle is, and validates. The store is read without writing a byte in it or beside it.
            """,
            examples: [
                .init(
                    "remodel extract-model Backup/Notes.sqlite -o Notes.xcdatamodeld",
                    does: "Write the model Notes.sqlite was written with, to migrate the imported store with.")
            ],
            exitStatus: ExitStatusTable.extractModel))

    @Argument(help: "The Core Data store (.sqlite).")
    var source: String

    @Option(
        name: [.short, .long],
        help: ArgumentHelp(
            "The bundle to write (NAME.xcdatamodeld; there must be nothing there).", valueName: "bundle"))
    var output: String

    @OptionGroup var quiet: QuietOption

    func run() throws {
        let (version, unread) = try runReportingFailure { () throws(RemodelError) in
            try Store.extractCoreDataModelSayingWhatIsNotRead(from: source, to: output)
        }
        if !quiet.quiet {
            print(
                "Wrote the model of the Core Data store \(source) to \(output): version \"\(version.name)\", \(version.entities.count) entit\(version.entities.count == 1 ? "y" : "ies")."
            )
            if !unread.isEmpty {
                print("Not read (classes Remodel does not read, left out): \(unread.joined(separator: ", ")).")
            }
        }
    }
}
