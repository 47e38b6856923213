import ArgumentParser
import Remodel

struct SeedCommand: ParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "seed",
        abstract:
            "Write valid, deterministic synthetic data for a version of a model, as JSON that `remodel import` reads.",
        discussion: """
            Every concrete entity gets objects; values respect optionality, bounds, regular expressions (the \
            common subset), defaults and uniqueness constraints; relationships are consistent on both sides \
            and within their counts. Rules that cannot be satisfied are named on standard error as warnings. \
            The same --seed-number gives the same bytes.
            """)

    @Argument(help: "The model: a .xcdatamodeld bundle, a .xcdatamodel folder or a contents file.")
    var model: String

    @Option(name: .long, help: "The version to write data for.")
    var version: String

    @Option(name: .long, help: "Objects of each concrete entity.")
    var objects: Int = 10

    @Option(name: .customLong("seed-number"), help: "The seed number: the same number gives the same data.")
    var seedNumber: UInt64 = 1

    @Option(name: .long, help: "The file to write (default: standard output).")
    var output: String?

    func validate() throws {
        guard objects >= 0 else { throw ValidationError("--objects must be 0 or more") }
    }

    func run() throws {
        let bundle = try loadBundle(model)
        let plan = try runReportingFailure { () throws(RemodelError) in
            let generator = try SeedGenerator(bundle: bundle, version: version)
            if let output {
                return try generator.write(objects: objects, seedNumber: seedNumber, to: output)
            }
            return try generator.writeToStandardOutput(objects: objects, seedNumber: seedNumber)
        }
        for problem in plan.problems {
            printToStandardError("warning: \(problem)")
        }
        if let output {
            let entities = plan.counts.filter { $0.value > 0 }.count
            print(
                "Wrote \(plan.objectCount) objects of \(entities) entities at version \"\(version)\" to \(output) (seed number \(seedNumber))."
            )
        }
    }
}
