import ArgumentParser

/// The parts every subcommand's help has after its abstract: what else to know, examples, and what its
/// exit statuses mean. A new subcommand writes only what is its own:
///
/// ```swift
/// static let configuration = CommandConfiguration(
///     commandName: "rollback", abstract: "…",
///     discussion: CommandHelp.discussion(
///         examples: [.init("remodel rollback library.sqlite", does: "Put back the backup of library.sqlite.")],
///         exitStatus: ExitStatusTable.rollback))
/// ```
enum CommandHelp {
    /// One example: a command line (in pieces, each starting a line of its own, and a piece longer than a
    /// line continued on the next, so that it fits 80 columns) and what it does.
    struct Example {
        var command: [String]
        var effect: String

        init(_ command: String..., does effect: String) {
            self.command = command
            self.effect = effect
        }

        /// `  $ remodel …`, continued lines ending in ` \` and indented, then what it does.
        var text: String {
            let lines = command.enumerated().flatMap { index, piece in
                CommandHelp.wrapped(piece, indent: 6, first: index == 0 ? "  $ " : nil, width: 77)
                    .components(separatedBy: "\n")
            }
            return lines.joined(separator: " \\\n") + "\n" + CommandHelp.wrapped(effect, indent: 4)
        }
    }

    /// The discussion: `about` (paragraphs of its own), then `Examples:` and `Exit status:`.
    static func discussion(_ about: String? = nil, examples: [Example], exitStatus: ExitStatuses) -> String {
        var sections: [String] = []
        if let about { sections.append(about) }
        sections.append("Examples:\n" + examples.map(\.text).joined(separator: "\n"))
        sections.append(ExitStatusLine.section(exitStatus.lines))
        return sections.joined(separator: "\n\n")
    }

    /// `text` in lines of at most `width` columns, each indented by `indent` spaces, but the first by `first`
    /// (ArgumentParser wraps a help screen at the terminal's width too, but with no indent).
    static func wrapped(_ text: String, indent: Int, first: String? = nil, width: Int = 79) -> String {
        var lines: [String] = []
        var line = first ?? String(repeating: " ", count: indent)
        var empty = true
        for word in text.split(separator: " ") {
            if !empty, line.count + 1 + word.count > width {
                lines.append(line)
                line = String(repeating: " ", count: indent)
                empty = true
            }
            line += (empty ? "" : " ") + word
            empty = false
        }
        return (lines + [line]).joined(separator: "\n")
    }
}

/// One line of a subcommand's `Exit status:` section (``ExitStatuses/lines`` makes them).
struct ExitStatusLine {
    var status: Int32
    var meaning: String

    /// 64: ArgumentParser's status for a bad argument (`EX_USAGE`).
    static let usage = ExitStatusLine(
        status: ExitStatus.usage, meaning: "a command line it does not understand (the usage follows)")

    /// The section, statuses aligned.
    static func section(_ lines: [ExitStatusLine]) -> String {
        "Exit status:\n"
            + lines.map { line in
                let status = "\(line.status)"
                let first = "  " + status + String(repeating: " ", count: max(1, 4 - status.count))
                return CommandHelp.wrapped(line.meaning, indent: 6, first: first)
            }.joined(separator: "\n")
    }
}

/// `-o`/`--output`, the same in every subcommand that writes a result it could print: the file to write
/// instead of standard output.
struct OutputFileOption: ParsableArguments {
    @Option(
        name: [.short, .long], help: ArgumentHelp("Write to this file instead of standard output.", valueName: "file"))
    var output: String?
}
