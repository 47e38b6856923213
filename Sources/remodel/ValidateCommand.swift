import ArgumentParser
import Remodel

/// `remodel validate`: checks model files and prints every problem, compiler-style.
struct ValidateCommand: ParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "validate",
        abstract: "Check model and mapping files.",
        discussion: CommandHelp.discussion(
            examples: [
                .init("remodel validate", does: "Check the models in Models and the mapping files in Mappings."),
                .init(
                    "remodel validate Models/Library.xcdatamodeld Mappings", "--format sarif > remodel.sarif",
                    does: "Check one model and its mappings; write SARIF for a CI job to annotate."),
            ],
            exitStatus: ExitStatusTable.validate)
    )

    /// The output formats, as spelled on the command line.
    enum OutputFormat: String, ExpressibleByArgument, CaseIterable {
        case text, json, sarif

        var diagnosticFormat: DiagnosticFormat {
            switch self {
            case .text: .text
            case .json: .json
            case .sarif: .sarif
            }
        }
    }

    @Argument(help: "Bundles, version folders, contents files or folders to search (default: Models and Mappings).")
    var paths: [String] = []

    @Option(help: "The output format: text for people, or json or sarif for programs (docs/JSON.md, docs/VALIDATE.md).")
    var format: OutputFormat = .text

    @Flag(help: "Treat warnings as errors: exit with status 1 when there is any warning.")
    var strict = false

    @OptionGroup var output: QuietOption

    @OptionGroup var progress: ProgressOption

    func run() throws {
        let report: ValidationReport
        let printer = progress.printer(quiet: output.quiet)
        do {
            report = try ProjectValidation.validate(paths: paths) { printer.print($0) }
            printer.finish(clearing: true)
        } catch {
            printer.finish(clearing: true)
            printError(error.description)
            throw ExitCode(ExitStatus.couldNotStart)
        }
        if output.quiet && format == .text {
            for diagnostic in report.diagnostics.sorted() { print(diagnostic) }
        } else {
            print(report.formatted(as: format.diagnosticFormat), terminator: "")
        }
        if report.fails(strict: strict) { throw ExitCode(ExitStatus.refused) }
    }
}
