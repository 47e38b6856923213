import ArgumentParser
import Foundation
import Remodel

/// `remodel add-version`: a new version of a bundle without Xcode, for the user to edit.
struct AddVersionCommand: ParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "add-version",
        abstract: "Add a version to a model bundle, a copy of the current one, and make it current (as Xcode does).",
        discussion: CommandHelp.discussion(
            """
            The new version is a folder NAME.xcdatamodel holding a copy of the source version's contents file; \
            .xccurrentversion names it, and a .remodel-version-order file, if the bundle has one, lists it right \
            after its source. Then edit its contents (docs/MODELS.md, "Changing your model on Linux") and check \
            the change with `remodel validate` and `remodel diff`.
            """,
            examples: [
                .init(
                    "remodel add-version Models/Library.xcdatamodeld",
                    does: "Add \"Library 4\", a copy of the current version \"Library 3\", and make it current."),
                .init(
                    "remodel add-version Models/Library.xcdatamodeld --name \"Library 2.1\" --from \"Library 2\"",
                    does: "Add \"Library 2.1\", a copy of \"Library 2\", and make it current."),
            ],
            exitStatus: ExitStatusTable.addVersion))

    @Argument(help: ArgumentHelp(OptionHelp.model, valueName: "model"))
    var model: String

    @Option(
        help: "The new version's name (default: the next number, as Xcode names it: \"Library 4\" after \"Library 3\")."
    )
    var name: String?

    @Option(help: "The version to copy (default: the current version).")
    var from: String?

    @OptionGroup var quiet: QuietOption

    func run() throws {
        let bundle = try loadBundle(model)
        try Inputs.requireVersion(from, in: bundle)
        let added: BundleVersionAdder.Added
        do {
            added = try BundleVersionAdder.add(to: bundle, name: name, from: from)
        } catch {
            printFailure(error)
            throw ExitCode(error.code == .io ? ExitStatus.couldNotStart : ExitStatus.refused)
        }
        guard !quiet.quiet else { return }
        let order = added.inOrderFile ? ", listed after it in \(ModelBundle.versionOrderFileName)" : ""
        print(
            """
            Added version "\(added.name)" to \(model), a copy of "\(added.source)"\(order), and made it current.
            Next: edit \(added.contentsPath), then check it:
              remodel validate \(Self.quoted(model))
              remodel diff \(Self.quoted(model))
            """)
    }

    /// The path as a shell reads it back: in single quotes when it holds anything but letters, digits and `/._-`.
    static func quoted(_ path: String) -> String {
        let plain = path.unicodeScalars.allSatisfy {
            $0.isASCII && ($0.properties.isAlphabetic || "0123456789/._-".unicodeScalars.contains($0))
        }
        return plain ? path : "'" + path.replacingOccurrences(of: "'", with: #"'\''"#) + "'"
    }
}
