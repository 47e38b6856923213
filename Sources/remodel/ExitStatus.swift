import ArgumentParser
import Remodel

/// `remodel migrate`'s exit statuses, which a job runner can act on (docs/FLEET.md).
enum ExitStatus {
    /// Every store is at the target: migrated, or already there.
    static let done: Int32 = 0
    /// Some store was refused for a reason a retry will not fix: its data, the model or mapping files,
    /// a newer store, not a store. (A model that cannot be read at all is 2: the command could not start.)
    static let refused: Int32 = 1
    /// The command line cannot be acted on: ArgumentParser's status for a bad argument (`EX_USAGE`).
    static let usage: Int32 = ExitCode.validationFailure.rawValue
    /// No store refused, but some failed for a reason that may pass (locked, busy, disk full, I/O) or
    /// were not started: running again (with `--resume`) may finish them (`EX_TEMPFAIL`).
    static let transient: Int32 = 75

    /// The status for a fleet's results.
    static func of(_ tally: FleetTally) -> Int32 {
        if tally[.refused] > 0 { return refused }
        if tally[.transient] > 0 || tally[.skipped] > 0 || tally.finished < tally.total { return transient }
        return done
    }

    /// The status for one store's failure.
    static func of(_ error: RemodelError) -> Int32 {
        StoreMigrationResult.Reason.of(error, inspection: nil).isTransient ? transient : refused
    }

    /// What `remodel migrate --help` says about them.
    static let help: [ExitStatusLine] = [
        .success("every store is at the target (migrated, or already current)"),
        .refused("some store refused: a retry will not fix it (data, model, newer store)"),
        .couldNotStart("the model cannot be read"),
        ExitStatusLine(
            status: usage,
            meaning: "a command line it does not understand: a bad option, no store, a glob that matches no file"),
        ExitStatusLine(
            status: transient,
            meaning: "none refused (a refusal wins), some failed transiently or not started: run again with --resume"),
    ]
}
