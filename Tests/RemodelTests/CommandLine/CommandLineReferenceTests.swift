import Foundation
import Testing

/// docs/CLI.md is the help the commands print now: every subcommand's, verbatim. When a command changes,
/// `scripts/cli-reference.sh` writes it again (it runs this test with `REMODEL_WRITE_CLI_REFERENCE=1`).
@Suite struct CommandLineReferenceTests {
    @Test func theReferenceIsTheCommandsHelp() throws {
        let file = ValidationSupport.packageRoot.appendingPathComponent(CommandLineReference.path)
        let made = try CommandLineReference.text()
        if ProcessInfo.processInfo.environment["REMODEL_WRITE_CLI_REFERENCE"] == "1" {
            try made.write(to: file, atomically: true, encoding: .utf8)
        }
        let committed = (try? String(contentsOf: file, encoding: .utf8)) ?? ""
        #expect(
            committed == made,
            "\(CommandLineReference.path) is not the commands' help any more: run scripts/cli-reference.sh and commit it"
        )
    }

    /// Every subcommand's help has examples that start with `remodel` and the subcommand, and its exit statuses.
    @Test func everySubcommandShowsExamplesAndExitStatuses() throws {
        let subcommands = try CommandLineReference.subcommands()
        #expect(subcommands.count >= 14)
        for (name, _) in subcommands {
            let help = try CommandLineReference.help([name])
            #expect(
                help.contains("\nExamples:\n  $ remodel \(name) ")
                    || help.contains("\nExamples:\n  $ remodel \(name)\n"),
                "\(name): \(help)")
            #expect(help.contains("\nExit status:\n  0   "), "\(name): \(help)")
            #expect(help.contains("\n  64  a command line it does not understand"), "\(name): \(help)")
            #expect(help.contains("\nUSAGE: remodel \(name)"), "\(name)")
            // What comes before the usage line is ours, and fits a terminal 80 columns wide.
            let ours = help.components(separatedBy: "\nUSAGE: ")[0].split(separator: "\n")
            #expect(ours.allSatisfy { $0.count < 80 }, "\(name): \(ours.filter { $0.count >= 80 })")
        }
    }

    /// One `--version` in each help: a subcommand that takes a model version shows that one alone; the others
    /// show the tool's. `remodel --version` prints the tool's version, and `create --version V` still reaches
    /// `create`, as DESIGN.md pins it.
    @Test func oneVersionOptionPerHelp() throws {
        var takingAVersion: [String] = []
        for name in try CommandLineReference.subcommands().map(\.name) {
            let help = try CommandLineReference.help([name])
            let lines = help.split(separator: "\n").filter { $0.hasPrefix("  --version") }
            #expect(lines.count == 1, "\(name): \(lines)")
            let usage = help.split(separator: "\n").first { $0.hasPrefix("USAGE: ") } ?? ""
            if usage.contains("--version <") {
                takingAVersion.append(name)
                #expect(lines.first?.hasPrefix("  --version <") == true, "\(name): \(lines)")
            } else {
                #expect(lines.first == "  --version               Show the version.", "\(name): \(lines)")
            }
        }
        #expect(Set(["create", "seed", "import-core-data", "test-matrix"]).isSubset(of: takingAVersion))
        let version = try RemodelProcess.run(["--version"])
        #expect(version.status == 0 && !version.output.isEmpty)
        let folder = try TemporaryFolder()
        let store = folder.file("library.sqlite")
        let created = try RemodelProcess.run([
            "create", store, "--model", "Models/Library.xcdatamodeld", "--version", "Library 2",
        ])
        #expect(created.output.hasPrefix("Created \(store) at version \"Library 2\""), "\(created)")
    }
}
