import ArgumentParser
import Remodel

/// `remodel convert-mapping`: writes an Xcode mapping model as the equivalent Remodel mapping file.
struct ConvertMappingCommand: ParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "convert-mapping",
        abstract: "Write an Xcode mapping model (.xcmappingmodel) as a Remodel mapping file, ready to review.",
        discussion: CommandHelp.discussion(
            "Policy classes and expressions without a translation are written as TO DO comments.",
            examples: [
                .init(
                    "remodel convert-mapping Library2to3.xcmappingmodel", "--model Models/Library.xcdatamodeld",
                    "-o \"Mappings/Library 2 to Library 3.xml\"",
                    does: "Write the Xcode mapping model as a Remodel mapping file, to review and keep.")
            ],
            exitStatus: ExitStatusTable.convertMapping)
    )

    @Argument(help: "The .xcmappingmodel folder (or its xcmapping.xml).")
    var mappingModel: String

    @Option(
        help: ArgumentHelp(
            OptionHelp.model + " The mapping model maps between two of its versions.", valueName: "model"))
    var model: String

    @OptionGroup var output: OutputFileOption

    func run() throws {
        let bundle = try loadBundle(model)
        let (text, diagnostics) = XcodeMappingWriter.convert(path: mappingModel, bundle: bundle)
        for diagnostic in diagnostics.sorted() { printToStandardError(diagnostic.description) }
        guard let text else { throw ExitCode(ExitStatus.couldNotStart) }
        try writeOutput(text, to: output.output, describing: "the mapping file")
        if diagnostics.containsErrors { throw ExitCode(ExitStatus.refused) }
    }
}
