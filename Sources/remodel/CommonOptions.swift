import ArgumentParser
import Remodel

/// The words every subcommand's help uses for the arguments they share, so that `<model>` or `--mappings`
/// reads the same in each.
enum OptionHelp {
    /// `<model>` and `--model`.
    static let model = "The model: a .xcdatamodeld bundle, a .xcdatamodel folder or a contents file."
    /// `<store>`.
    static let store = "The store file."
}

/// `--mappings`, the same in every subcommand that plans a migration.
struct MappingsOption: ParsableArguments {
    @Option(
        help: ArgumentHelp(
            "The folder of mapping files (default: Mappings, when it exists); a folder that is not there is an error.",
            valueName: "folder"))
    var mappings: String?

    /// The folder to read: the one given, which must be there (else status 2), or `Mappings` when it exists.
    func folder() throws -> String? {
        try Inputs.mappingsFolder(mappings)
    }
}

/// `--format text|json`, the same in every subcommand that prints a result a program may read.
struct FormatOption: ParsableArguments {
    enum Format: String, ExpressibleByArgument, CaseIterable { case text, json }

    @Option(help: "The output format: text for people, or json for programs (docs/JSON.md).")
    var format: Format = .text

    var isJSON: Bool { format == .json }
}

/// `--progress`, the same in every subcommand that draws a progress bar.
struct ProgressOption: ParsableArguments {
    @Option(
        help:
            "How to show progress on standard error: auto (a bar when it is a terminal, else nothing), bar, json (one object a line) or none."
    )
    var progress: ProgressStyle = .auto

    /// The printer for this style; `-q` without `--progress` draws nothing.
    func printer(quiet: Bool) -> ProgressPrinter {
        ProgressPrinter(style: quiet && progress == .auto ? .none : progress)
    }
}
