import ArgumentParser
import Remodel

/// `remodel validate`: checks model files and prints every problem, compiler-style.
struct ValidateCommand: ParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "validate",
        abstract: "Check model and mapping files.",
        discussion: """
            Exit status: 0 when no error was found (warnings are allowed unless --strict), \
            1 when errors were found (or warnings with --strict), 2 when the command could not run.
            """
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

    @Option(help: "The output format.")
    var format: OutputFormat = .text

    @Flag(help: "Treat warnings as errors: exit with status 1 when there is any warning.")
    var strict = false

    @OptionGroup var output: QuietOption

    func run() throws {
        let report: ValidationReport
        let printer = ProgressPrinter(quiet: output.quiet)
        do {
            report = try ProjectValidation.validate(paths: paths) { printer.print($0) }
            printer.finish(clearing: true)
        } catch {
            printer.finish(clearing: true)
            printError(error.description)
            throw ExitCode(2)
        }
        if output.quiet && format == .text {
            for diagnostic in report.diagnostics.sorted() { print(diagnostic) }
        } else {
            print(report.formatted(as: format.diagnosticFormat), terminator: "")
        }
        if report.fails(strict: strict) { throw ExitCode(1) }
    }
}
