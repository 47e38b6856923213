import ArgumentParser
import Foundation
import Remodel

struct RollbackCommand: ParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "rollback",
        abstract:
            "Put back the backup a migration kept (--keep-backup, --downgrade allow-loss), if the store was not written since.",
        discussion: CommandHelp.discussion(
            """
            The migration recorded the store it made beside the backup (STORE.remodel-backup.json). The backup is \
            renamed over the store only when the store is still exactly that; a store written since is never \
            overwritten: the command refuses, says why, and changes nothing.
            """,
            examples: [
                .init(
                    "remodel rollback library.sqlite",
                    does: "Put back library.sqlite.remodel-backup, kept by `remodel migrate --keep-backup`.")
            ],
            exitStatus: ExitStatusTable.rollback))

    @Argument(help: ArgumentHelp(OptionHelp.store, valueName: "store"))
    var store: String

    @OptionGroup var output: QuietOption

    func run() throws {
        let report = try runReportingFailure { () throws(RemodelError) in try Store.rollback(at: store) }
        guard !output.quiet else { return }
        print(report.description)
    }
}
