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
            exitStatus: ExitStatusTable.infer))

    @Argument(help: ArgumentHelp(OptionHelp.model, valueName: "model"))
    var model: String

    @Option(help: "The version to map from.")
    var from: String

    @Option(help: "The version to map to.")
    var to: String

    @OptionGroup var output: OutputFileOption

    func run() throws {
        let bundle = try loadBundle(model)
        try Inputs.requireVersion(from, in: bundle)
        try Inputs.requireVersion(to, in: bundle)
        let mapping: MappingModel
        do {
            mapping = try MappingInference.infer(bundle: bundle, from: from, to: to)
        } catch {
            printFailure(error)
            throw ExitCode(ExitStatus.of(error))
        }
        let text = MappingFileWriter.text(for: mapping)
        try writeOutput(text, to: output.output, describing: "the mapping file")
        for problem in mapping.problems {
            printError("needs a mapping: \(problem)")
        }
        if !mapping.problems.isEmpty { throw ExitCode(ExitStatus.refused) }
    }
}
