import ArgumentParser
import Remodel
import RemodelFleet

/// The exit statuses, the same for every subcommand (DESIGN.md "Command line"): 0 done; 1 refused, nothing
/// written (a judgement on the model or the data); 2 could not start (a file or folder that cannot be read or
/// is not there, a version the model lacks); 64 a command line it does not understand. `remodel migrate` adds
/// 75, a failure that may pass (docs/FLEET.md). What each subcommand's statuses mean is in
/// ``ExitStatusTable``, which its help is written from.
enum ExitStatus {
    /// Done.
    static let done: Int32 = 0
    /// Refused, nothing written: errors found in the files, a store or a value refused.
    static let refused: Int32 = 1
    /// Could not start: a file or folder that cannot be read or is not there, a version the model lacks.
    static let couldNotStart: Int32 = 2
    /// The command line cannot be acted on: ArgumentParser's status for a bad argument (`EX_USAGE`).
    static let usage: Int32 = ExitCode.validationFailure.rawValue
    /// `migrate`: no store refused, but some failed for a reason that may pass (locked, busy, disk full, I/O)
    /// or were not started: running again (with `--resume`) may finish them (`EX_TEMPFAIL`).
    static let transient: Int32 = 75

    /// The status for a fleet's results.
    static func of(_ tally: FleetTally) -> Int32 {
        if tally[.refused] > 0 { return refused }
        if tally[.transient] > 0 || tally[.skipped] > 0 || tally.finished < tally.total { return transient }
        return done
    }

    /// The status for one store's migration failure: 2 for a store that is not there, 75 for a failure that
    /// may pass, else 1.
    static func ofMigration(_ error: RemodelError) -> Int32 {
        if error.code == .storeMissing { return couldNotStart }
        return StoreMigrationResult.Reason.of(error, inspection: nil).isTransient ? transient : refused
    }

    /// The status for a failure of any other subcommand: 2 for an input that is not there (a store, a Core
    /// Data store), else 1.
    static func of(_ error: RemodelError) -> Int32 {
        error.code == .storeMissing ? couldNotStart : refused
    }
}

/// What one subcommand's exit statuses mean, written into its help's `Exit status:` section.
struct ExitStatuses {
    /// What the subcommand reads that may be missing or unreadable (status 2).
    enum Input: CaseIterable {
        case model, store, version, configuration, mappings, jsonFile, coreDataStore, mappingModel, fixtures, storeList,
            path

        /// The input in the `2` line.
        var noun: String {
            switch self {
            case .model: "a model"
            case .store: "a store"
            case .version: "a version"
            case .configuration: "a configuration"
            case .mappings: "a --mappings folder"
            case .jsonFile: "a JSON file"
            case .coreDataStore: "a Core Data store"
            case .mappingModel: "a mapping model"
            case .fixtures: "a --fixtures folder"
            case .storeList: "a --stores-from file"
            case .path: "a path"
            }
        }
    }

    /// What 0 means.
    var done: String
    /// What 1 means, or `nil` for a subcommand that never refuses.
    var refused: String?
    /// What may be missing (2).
    var inputs: [Input]
    /// What else 2 covers (`an output that cannot be written`).
    var otherwise: String? = nil
    /// Statuses of the subcommand's own (`migrate`'s 75).
    var more: [ExitStatusLine] = []

    /// The section's lines, statuses in order.
    var lines: [ExitStatusLine] {
        var lines = [ExitStatusLine(status: ExitStatus.done, meaning: done)]
        if let refused { lines.append(ExitStatusLine(status: ExitStatus.refused, meaning: refused)) }
        if let couldNotStart { lines.append(ExitStatusLine(status: ExitStatus.couldNotStart, meaning: couldNotStart)) }
        lines.append(.usage)
        return lines + more
    }

    /// `could not start: a model or a store that cannot be read or is not there, a version the model lacks`.
    private var couldNotStart: String? {
        let files = inputs.filter { $0 != .version && $0 != .configuration }.map(\.noun)
        var parts: [String] = []
        if !files.isEmpty {
            parts.append(files.listed("or") + " that cannot be read or is not there")
        }
        if inputs.contains(.version) { parts.append("a version the model lacks") }
        if inputs.contains(.configuration) { parts.append("a configuration the model lacks") }
        if let otherwise { parts.append(otherwise) }
        return parts.isEmpty ? nil : "could not start: " + parts.joined(separator: "; ")
    }
}
