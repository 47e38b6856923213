import ArgumentParser
import Foundation
import Remodel

struct InferCommand: ParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "infer",
        abstract: "Write the inferred mapping between two versions as a mapping file, ready to edit.")

    @Argument(help: "A .xcdatamodeld bundle.")
    var model: String

    @Option(help: "The version to map from.")
    var from: String

    @Option(help: "The version to map to.")
    var to: String

    @Option(name: [.short, .long], help: "Write the mapping file here instead of standard output.")
    var output: String?

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
        try writeOutput(text, to: output, describing: "the mapping file")
        for problem in mapping.problems {
            printError("needs a mapping: \(problem)")
        }
        if !mapping.problems.isEmpty { throw ExitCode(1) }
    }
}
