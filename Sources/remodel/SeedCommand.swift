import ArgumentParser
import Remodel
import RemodelTesting

struct SeedCommand: ParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "seed",
        abstract:
            "Write valid, deterministic synthetic data for a version of a model, as JSON that `remodel import` reads.",
        discussion: CommandHelp.discussion(
            """
            Every concrete entity gets objects; values respect optionality, bounds, regular expressions (the \
            common subset), defaults and uniqueness constraints; relationships are consistent on both sides \
            and within their counts. Rules that cannot be satisfied are named on standard error as warnings. \
            The same --seed-number gives the same bytes.
            """,
            examples: [
                .init(
                    "remodel seed Models/Library.xcdatamodeld --version \"Library 2\"", "--objects 1000 -o seed.json",
                    does: "Write 1,000 objects of each entity of Library 2, for `remodel create --seed`.")
            ],
            exitStatus: ExitStatusTable.seed))

    @Argument(help: ArgumentHelp(OptionHelp.model, valueName: "model"))
    var model: String

    @Option(name: .long, help: "The version to write data for.")
    var version: String

    @Option(name: .long, help: "Objects of each concrete entity.")
    var objects: Int = 10

    @Option(name: .customLong("seed-number"), help: "The seed number: the same number gives the same data.")
    var seedNumber: UInt64 = 1

    @OptionGroup var configurationOption: ConfigurationOption

    @OptionGroup var file: OutputFileOption

    func validate() throws {
        guard objects >= 0 else { throw ValidationError("--objects must be 0 or more") }
    }

    func run() throws {
        let bundle = try configurationOption.restricting(try loadBundle(model))
        try Inputs.requireVersion(version, in: bundle)
        let plan = try runReportingFailure { () throws(RemodelError) in
            let generator = try SeedGenerator(bundle: bundle, version: version)
            if let output = file.output {
                return try generator.write(objects: objects, seedNumber: seedNumber, to: output)
            }
            return try generator.writeToStandardOutput(objects: objects, seedNumber: seedNumber)
        }
        for problem in plan.problems {
            printToStandardError("warning: \(problem)")
        }
        if let output = file.output {
            let entities = plan.counts.filter { $0.value > 0 }.count
            print(
                "Wrote \(ProgressPrinter.counted(plan.objectCount, "object")) of \(ProgressPrinter.counted(entities, "entity", plural: "entities")) at version \"\(version)\" to \(output) (seed number \(seedNumber))."
            )
        }
    }
}
