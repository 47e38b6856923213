import Foundation
import Testing

/// docs/CLI.md, made from the built `remodel`'s own help: the root's and every subcommand's `--help`, as it
/// prints them on a terminal 80 columns wide, in the order `remodel --help` lists them. A subcommand added
/// to `RemodelCommand` comes in by itself.
enum CommandLineReference {
    /// Where the reference is, from the package's root.
    static let path = "docs/CLI.md"

    /// The subcommands `remodel --help` lists, with their abstracts (ArgumentParser's `help` left out).
    static func subcommands() throws -> [(name: String, abstract: String)] {
        let dump = try RemodelProcess.run(["--experimental-dump-help"])
        try #require(dump.status == 0, "\(dump.error)")
        let object = try JSONSerialization.jsonObject(with: Data(dump.output.utf8)) as? [String: Any]
        let command = try #require(object?["command"] as? [String: Any])
        let subcommands = try #require(command["subcommands"] as? [[String: Any]])
        return subcommands.compactMap { subcommand in
            guard let name = subcommand["commandName"] as? String, name != "help",
                subcommand["shouldDisplay"] as? Bool != false
            else { return nil }
            return (name, subcommand["abstract"] as? String ?? "")
        }
    }

    /// A command's help, as on a terminal 80 columns wide.
    static func help(_ command: [String]) throws -> String {
        let result = try RemodelProcess.run(command + ["--help"], environment: ["COLUMNS": "80"])
        try #require(result.status == 0, "\(command): \(result.error)")
        return result.output
    }

    /// The whole reference.
    static func text() throws -> String {
        let subcommands = try subcommands()
        var text = """
            # The `remodel` command line

            <!-- Made from the commands' own help by scripts/cli-reference.sh; do not edit it by hand: edit the \
            commands (Sources/remodel), then run the script. CI fails when this file is stale. -->

            Every subcommand's `--help`, as `remodel` prints it on a terminal 80 columns wide. What they share:

            - **Exit status**, one rule for every subcommand: 0 done; 1 refused, nothing written (errors found
              in the files, a store or a value refused); 2 could not start (a file or folder that cannot be read
              or is not there, a version the model lacks); 64 a command line it does not understand, followed by
              the subcommand's usage. `migrate` adds 75, a failure that may pass. Each subcommand's help says
              what they mean for it, from one table in Sources/remodel/ExitStatusTable.swift.
            - **`<model>`/`--model`** is a `.xcdatamodeld` bundle, a `.xcdatamodel` folder or a `contents` file;
              **`--mappings FOLDER`** defaults to `Mappings` when that folder exists, and a folder that is not
              there is an error (2), never taken for no mapping files.
            - **`-o`/`--output FILE`** writes what the command would print to FILE instead of standard output;
              **`-q`/`--quiet`** keeps a command to its errors; **`--progress auto|bar|json|none`** chooses how
              a command that draws a bar shows its progress on standard error; **`--format text|json`** prints
              for people or for programs (the JSON shapes are in [JSON.md](JSON.md)).
            - **`--version`** after a subcommand that takes a model version (`create`, `seed`,
              `import-core-data`, `test-matrix`) is that version; anywhere else, `remodel --version` prints the
              tool's version.


            """
        text += subcommands.map { "- [`remodel \($0.name)`](#remodel-\($0.name)): \($0.abstract)" }.joined(
            separator: "\n")
        text += "\n\n## remodel\n\n```text\n" + (try help([])) + "```\n"
        for subcommand in subcommands {
            text += "\n## remodel \(subcommand.name)\n\n```text\n" + (try help([subcommand.name])) + "```\n"
        }
        return text
    }
}
