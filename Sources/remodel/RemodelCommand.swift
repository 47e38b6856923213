import ArgumentParser
import Foundation
import Remodel

@main
struct RemodelCommand: AsyncParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "remodel",
        abstract: "Validate Core Data models and migrate SQLite stores between their versions.",
        discussion: CommandHelp.discussion(
            examples: [
                .init("remodel validate", does: "Check the models in Models and the mapping files in Mappings."),
                .init(
                    "remodel migrate library.sqlite --model Models/Library.xcdatamodeld",
                    does: "Migrate a store to the model's current version."),
                .init("remodel help migrate", does: "A subcommand's options, examples and exit statuses."),
            ],
            exitStatus: ExitStatusTable.remodel),
        version: Remodel.version,
        subcommands: [
            ValidateCommand.self, DiffCommand.self, InferCommand.self, CreateCommand.self, ImportCommand.self,
            ExportCommand.self, StatusCommand.self, MigrateCommand.self, RollbackCommand.self,
            ConvertMappingCommand.self, SeedCommand.self, ImportCoreDataCommand.self, ExtractModelCommand.self,
            TestMatrixCommand.self, GenerateCommand.self, AddVersionCommand.self, DemoCommand.self,
        ]
    )

    /// Parses the command line and runs the subcommand, printing a failure the way compilers do
    /// (`error: …`), followed for a command line it does not understand by the subcommand's usage.
    static func main() async {
        let command: any ParsableCommand
        do {
            command = try parseAsRoot()
        } catch {
            exit(reporting: error, of: Self.self)
        }
        do {
            if var asynchronous = command as? any AsyncParsableCommand {
                try await asynchronous.run()
            } else {
                var synchronous = command
                try synchronous.run()
            }
        } catch {
            exit(reporting: error, of: type(of: command))
        }
    }

    /// A help screen with one `--version`. `remodel --version` is ArgumentParser's own flag, which it
    /// checks only after a subcommand's options, so `remodel create --version V` still reaches `create` (as
    /// DESIGN.md pins it); but it lists that flag in every subcommand's help, beside the `--version <version>`
    /// of the subcommands that take a model version, and offers no way to leave it out (its issue 36). So
    /// the help of such a subcommand drops the tool's line and keeps its own.
    static func oneVersionOption(_ help: String) -> String {
        let lines = help.components(separatedBy: "\n")
        guard lines.contains(where: { $0.hasPrefix("  --version <") }) else { return help }
        return lines.filter { !($0.hasPrefix("  --version ") && $0.hasSuffix(" Show the version.")) }
            .joined(separator: "\n")
    }

    /// Prints what `error` says (help and `--version` on standard output, failures on standard error
    /// with the prefix `error:`) and exits with its status. A bad argument found while the subcommand runs
    /// (a glob that matches no store) is followed by the subcommand's usage, as one found while parsing is.
    private static func exit(reporting error: any Error, of command: any ParsableCommand.Type) -> Never {
        let status = command.exitCode(for: error)
        var message = command.fullMessage(for: error)
        if status == .success {
            if !message.isEmpty { print(oneVersionOption(message)) }
            Foundation.exit(0)
        }
        if let validation = error as? ValidationError, command != Self.self {
            // The subcommand's own `fullMessage` would name it without `remodel`.
            let name = command.configuration.commandName ?? ""
            message = """
                error: \(validation.message)
                Usage: \(usageString(for: command))
                  See 'remodel \(name) --help' for more information.
                """
        }
        if message.hasPrefix("Error: ") { message = "error: " + message.dropFirst("Error: ".count) }
        if !message.isEmpty { printToStandardError(message) }
        Foundation.exit(status.rawValue)
    }
}
