import ArgumentParser
import Remodel
import RemodelGeneration

/// `remodel generate`: Swift records for a model version, on GRDB.
struct GenerateCommand: ParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "generate",
        abstract: "Write Swift types for a model version's objects, as GRDB records (docs/TYPED-ACCESS.md).",
        discussion: CommandHelp.discussion(
            """
            Writes one file per table and <Model>Schema.swift into the folder, replacing the files an earlier run \
            generated there and nothing else; the same model gives the same bytes. A model with errors is refused, \
            its errors printed as `remodel validate` prints them.
            """,
            examples: [
                .init(
                    "remodel generate Models/Library.xcdatamodeld -o Sources/App/Records",
                    does: "Write GRDB records for the current version of Library into Sources/App/Records."),
                .init(
                    "remodel generate Models/Library.xcdatamodeld --version \"Library 2\"",
                    "--access public -o Records",
                    does: "Write public records for Library 2, for a library target."),
                .init(
                    "remodel generate Models/Library.xcdatamodeld --configuration Cloud -o Sources/App/Cloud",
                    does:
                        "Write records for the entities of configuration Cloud only, as a store of it holds them (LibraryCloudSchema)."
                ),
            ],
            exitStatus: ExitStatusTable.generate))

    /// The access levels, as spelled on the command line.
    enum AccessLevel: String, ExpressibleByArgument, CaseIterable {
        case `public`, `internal`
    }

    @Argument(help: ArgumentHelp(OptionHelp.model, valueName: "model"))
    var model: String

    @Option(name: .long, help: "The version to generate for (default: the current one).")
    var version: String?

    @Option(
        name: [.short, .long], help: ArgumentHelp("The folder to write the Swift files into.", valueName: "folder"))
    var output: String

    @Option(name: .long, help: "The access level of the generated declarations.")
    var access: AccessLevel = .internal

    @OptionGroup var configurationOption: ConfigurationOption

    @OptionGroup var quiet: QuietOption

    func run() throws {
        let whole = try loadBundle(model)
        try Inputs.requireVersion(version, in: whole)
        let bundle = try configurationOption.restricting(whole, version: version)
        // A model that `validate` rejects is never used: the generator refuses it, printing its errors.
        let generator = try runReportingFailure(status: ExitStatus.refused) { () throws(RemodelError) in
            try RecordGenerator(bundle: bundle, version: version, access: access == .public ? .public : .internal)
        }
        let files = try runReportingFailure(status: ExitStatus.couldNotStart) { () throws(RemodelError) in
            try generator.write(to: output)
        }
        if !quiet.quiet {
            let name = version ?? bundle.currentVersionName
            let shape = bundle.configurationName.map { " (configuration \"\($0)\")" } ?? ""
            print("Wrote \(files.count) files for version \"\(name)\"\(shape) of \"\(bundle.name)\" to \(output).")
        }
    }
}
