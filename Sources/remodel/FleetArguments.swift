import ArgumentParser
import Foundation
import Remodel
import RemodelFleet

/// `remodel migrate`'s options for many stores.
struct FleetArguments: ParsableArguments {
    @Option(help: ArgumentHelp("Read store paths from FILE, one a line (- for standard input).", valueName: "file"))
    var storesFrom: String?

    @Option(help: "How many stores to migrate at once (default: the number of cores).")
    var jobs: Int?

    @Option(
        help: ArgumentHelp(
            "Migrate only shard I of N (from 0): every N-th store of the byte-sorted list. I or N may be `auto`: I from JOB_COMPLETION_INDEX (Kubernetes) or SLURM_ARRAY_TASK_ID, N from SLURM_ARRAY_TASK_COUNT.",
            valueName: "I/N"))
    var shard: String?

    @Option(
        help: ArgumentHelp(
            "Append one JSON line per store to FILE (path, outcome, reason, from, to, objects, seconds, message).",
            valueName: "file"))
    var report: String?

    @Option(
        help: ArgumentHelp(
            "Skip the stores FILE records as done at the target and try the others again; a missing FILE records none. The report is appended to FILE unless --report names another.",
            valueName: "file"))
    var resume: String?

    @Option(help: ArgumentHelp("Start no new store after K failures.", valueName: "K"))
    var maxFailures: Int?

    @Option(
        help: ArgumentHelp("Migrate the first N stores alone first, and stop if any of them fails.", valueName: "N"))
    var canary: Int?

    func validate() throws {
        if let jobs, jobs < 1 { throw ValidationError("--jobs takes a number of at least 1") }
        if let maxFailures, maxFailures < 1 { throw ValidationError("--max-failures takes a number of at least 1") }
        if let canary, canary < 0 { throw ValidationError("--canary takes a number of stores, 0 or more") }
        if let shard {
            do {
                _ = try FleetShard(parsing: shard, environment: ProcessInfo.processInfo.environment)
            } catch {
                throw ValidationError(error.description)
            }
        }
    }

    /// Whether any of these options was given: then even one store is run as a fleet.
    var isGiven: Bool {
        storesFrom != nil || jobs != nil || shard != nil || report != nil || resume != nil || maxFailures != nil
            || canary != nil
    }

    /// The stores to run: the arguments (globs expanded) and the list file, without repeats, this
    /// shard's only, less those the resume file records as done at `target`.
    func stores(_ arguments: [String], target: String) throws -> (paths: [String], alreadyDone: Int) {
        var paths: [String]
        do throws(RemodelError) {
            paths = try StoreList.expand(arguments)
            if let storesFrom { paths += try StoreList.read(listAt: storesFrom) }
        } catch {
            throw ValidationError(error.description)
        }
        paths = StoreList.unique(paths)
        if let shard {
            paths = try FleetShard(parsing: shard, environment: ProcessInfo.processInfo.environment).select(paths)
        }
        guard let resume else { return (paths, 0) }
        let done: Set<String>
        do throws(RemodelError) {
            done = try FleetReportFile.doneStores(in: resume, target: target)
        } catch {
            throw ValidationError(error.description)
        }
        let remaining = paths.filter { !done.contains(StoreList.identity(of: $0)) }
        return (remaining, paths.count - remaining.count)
    }
}
