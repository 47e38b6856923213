import ArgumentParser
import Remodel

/// `remodel convert-mapping`: writes an Xcode mapping model as the equivalent Remodel mapping file.
struct ConvertMappingCommand: ParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "convert-mapping",
        abstract: "Write an Xcode mapping model (.xcmappingmodel) as a Remodel mapping file, ready to review.",
        discussion: """
            Policy classes and expressions without a translation are written as TO DO comments. \
            Exit status: 0 when the file was written with no error, 1 when it was written but has errors \
            (printed on standard error), 2 when nothing could be written.
            """
    )

    @Argument(help: "The .xcmappingmodel folder (or its xcmapping.xml).")
    var mappingModel: String

    @Option(help: "The .xcdatamodeld bundle the mapping model maps between two versions of.")
    var model: String

    @Option(help: "Write the mapping file here instead of standard output.")
    var output: String?

    func run() throws {
        let bundle = try loadBundle(model)
        let (text, diagnostics) = XcodeMappingWriter.convert(path: mappingModel, bundle: bundle)
        for diagnostic in diagnostics.sorted() { printToStandardError(diagnostic.description) }
        guard let text else { throw ExitCode(2) }
        try writeOutput(text, to: output, describing: "the mapping file")
        if diagnostics.containsErrors { throw ExitCode(1) }
    }
}
