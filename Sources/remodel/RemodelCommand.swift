import ArgumentParser

@main
struct RemodelCommand: AsyncParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "remodel",
        abstract: "Validate Core Data models and migrate SQLite stores between their versions.",
        subcommands: [
            ValidateCommand.self, DiffCommand.self, InferCommand.self, CreateCommand.self, ImportCommand.self,
            ExportCommand.self, StatusCommand.self, MigrateCommand.self, SeedCommand.self, TestMatrixCommand.self,
            DemoCommand.self,
        ]
    )
}
