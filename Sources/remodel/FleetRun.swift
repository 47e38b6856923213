import ArgumentParser
import Foundation
import Remodel

/// `remodel migrate` with many stores (or any fleet option): every store migrated as one is, `--jobs`
/// at a time, a line per store, a report, and an exit status for the whole fleet.
struct FleetRun {
    let migrator: Migrator
    let fleet: FleetArguments
    let progress: ProgressStyle

    private var target: String { migrator.options.targetVersion ?? migrator.bundle.currentVersion.name }

    func run(_ arguments: [String]) async throws {
        let (paths, alreadyDone) = try fleet.stores(arguments, target: target)
        let report: FleetReportFile?
        do throws(RemodelError) {
            report = try (fleet.report ?? fleet.resume).map { path throws(RemodelError) in
                try FleetReportFile(appendingTo: path)
            }
        } catch {
            throw ValidationError(error.description)
        }
        var tally = FleetTally(total: paths.count)
        let printer = FleetProgressPrinter(style: progress, tally: tally)
        if let resume = fleet.resume {
            printer.say(
                "Resuming from \(resume): \(ProgressPrinter.grouped(alreadyDone)) stores already done, \(ProgressPrinter.grouped(paths.count)) to go."
            )
        }
        printer.start()
        let results = migrator.migrate(
            stores: paths, jobs: fleet.jobs ?? FleetOptions.defaultJobs,
            options: FleetOptions(maxFailures: fleet.maxFailures, canary: fleet.canary ?? 0)
        ) { store, value in
            printer.progress(store: store, value)
        }
        var reportFailure: RemodelError?
        for await result in results {
            tally.add(result)
            if let report, reportFailure == nil {
                do throws(RemodelError) {
                    try report.append(result.jsonLine)
                } catch {
                    // Without its report a resume cannot skip what is done: start no more stores.
                    reportFailure = error
                    results.cancel()
                }
            }
            printer.finished(result, tally: tally)
        }
        printer.finish()
        print(Self.summary(tally, seconds: Date().timeIntervalSince(tally.started)))
        if let reportFailure {
            printError(reportFailure.description)
            // A store not recorded may be done; a refusal still wins.
            throw ExitCode(ExitStatus.of(tally) == ExitStatus.refused ? ExitStatus.refused : ExitStatus.transient)
        }
        let status = ExitStatus.of(tally)
        if status != ExitStatus.done { throw ExitCode(status) }
    }

    /// `--dry-run` for a fleet: one line per store saying what would happen, and the exit status a run
    /// would have if every store that can be planned migrated.
    func dryRun(_ arguments: [String]) throws {
        let (paths, _) = try fleet.stores(arguments, target: target)
        let planner = migrator.sharingPlans()
        var counts: [StoreMigrationResult.Outcome: Int] = [:]
        for path in paths {
            switch planner.planInFleet(storeAt: path) {
            case .planned(let plan) where plan.steps.isEmpty:
                counts[.current, default: 0] += 1
                print("\(path): already at \(plan.targetVersion).")
            case .planned(let plan):
                counts[.migrated, default: 0] += 1
                let steps = plan.steps.count == 1 ? "1 step" : "\(plan.steps.count) steps"
                let down = plan.isDowngrade ? " (down, from the model the store carries)" : ""
                print(
                    "\(path): \(plan.sourceVersion) → \(plan.targetVersion)\(down), \(steps). \(planner.passSummary(of: plan))"
                )
            case .failed(let result):
                counts[result.outcome, default: 0] += 1
                if let error = result.error { printFailure(error) } else { printError(result.outcome.rawValue) }
            }
        }
        func count(_ outcome: StoreMigrationResult.Outcome) -> String { ProgressPrinter.grouped(counts[outcome] ?? 0) }
        print(
            "Dry run: \(ProgressPrinter.grouped(paths.count)) stores: \(count(.migrated)) to migrate, \(count(.current)) already current, "
                + "\(count(.refused)) refused, \(count(.transient)) failing transiently. Nothing was changed.")
        if (counts[.refused] ?? 0) > 0 { throw ExitCode(ExitStatus.refused) }
        if (counts[.transient] ?? 0) > 0 { throw ExitCode(ExitStatus.transient) }
    }

    /// `300 stores: 250 migrated, 40 already current, 8 refused, 2 failed transiently, 0 not started; 36,000 objects written in 12.34 s.`
    static func summary(_ tally: FleetTally, seconds: Double) -> String {
        "\(tally) in \(String(format: "%.2f", seconds)) s."
    }
}
