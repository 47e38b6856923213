import ArgumentParser
import Foundation
import Remodel

@main
struct RemodelCommand: AsyncParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "remodel",
        abstract: "Validate Core Data models and migrate SQLite stores between their versions.",
        discussion: """
            Exit status: 0 on success; 1 when the command ran and found a problem (errors in files, a \
            store it refuses); 2 when it could not start (a model or path that cannot be read); 64 for a \
            command line it does not understand.
            """,
        version: Remodel.version,
        subcommands: [
            ValidateCommand.self, DiffCommand.self, InferCommand.self, CreateCommand.self, ImportCommand.self,
            ExportCommand.self, StatusCommand.self, MigrateCommand.self, RollbackCommand.self,
            ConvertMappingCommand.self, SeedCommand.self, ImportCoreDataCommand.self, ExtractModelCommand.self,
            TestMatrixCommand.self, DemoCommand.self,
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

    /// Prints what `error` says (help and `--version` on standard output, failures on standard error
    /// with the prefix `error:`) and exits with its status.
    private static func exit(reporting error: any Error, of command: any ParsableCommand.Type) -> Never {
        let status = command.exitCode(for: error)
        var message = command.fullMessage(for: error)
        if status == .success {
            if !message.isEmpty { print(message) }
            Foundation.exit(0)
        }
        if message.hasPrefix("Error: ") { message = "error: " + message.dropFirst("Error: ".count) }
        if !message.isEmpty { printToStandardError(message) }
        Foundation.exit(status.rawValue)
    }
}
