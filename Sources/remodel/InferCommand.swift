import ArgumentParser
import Foundation
import Remodel

struct InferCommand: ParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "infer",
        abstract: "Write the inferred mapping between two versions as a mapping file, ready to edit.",
        discussion: CommandHelp.discussion(
            examples: [
                .init(
                    "remodel infer Models/Library.xcdatamodeld --from Library --to \"Library 2\"",
                    "-o \"Mappings/Library to Library 2.xml\"",
                    does: "Write the mapping to edit where the migration finds it.")
            ],
            exitStatus: [
                .success("the mapping was written, and needs nothing more"),
                .refused("it was written, but a change needs a value inference cannot give (named on standard error)"),
                .couldNotStart("a model that cannot be read, an unknown version, an output that cannot be written"),
                .usage,
            ]))

    @Argument(help: "A .xcdatamodeld bundle.")
    var model: String

    @Option(help: "The version to map from.")
    var from: String

    @Option(help: "The version to map to.")
    var to: String

    @OptionGroup var output: OutputFileOption

    func run() throws {
        let bundle = try loadBundle(model)
        let mapping: MappingModel
        do {
            mapping = try MappingInference.infer(bundle: bundle, from: from, to: to)
        } catch {
            printError(error.description)
            throw ExitCode(2)
        }
        let text = MappingFileWriter.text(for: mapping)
        try writeOutput(text, to: output.output, describing: "the mapping file")
        for problem in mapping.problems {
            printError("needs a mapping: \(problem)")
        }
        if !mapping.problems.isEmpty { throw ExitCode(1) }
    }
}
