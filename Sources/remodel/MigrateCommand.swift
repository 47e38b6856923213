import ArgumentParser
import Foundation
import Remodel

struct MigrateCommand: AsyncParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "migrate",
        abstract: "Migrate stores to the model's current version (or --to a version), safely: one, or a fleet.",
        discussion: CommandHelp.discussion(
            """
            One store prints one line. Several stores (paths, quoted globs, --stores-from), or any of the options from \
            --stores-from on, run as a fleet: each store migrated as one is, --jobs at a time, a line per store and a \
            summary.
            """,
            examples: [
                .init(
                    "remodel migrate library.sqlite --model Models/Library.xcdatamodeld",
                    does: "Migrate the store to the current version, with the mapping files in Mappings."),
                .init(
                    "remodel migrate library.sqlite --model Models/Library.xcdatamodeld", "--dry-run",
                    does: "Print the plan, step by step, and change nothing."),
                .init(
                    "remodel migrate library.sqlite --model Models/Library.xcdatamodeld",
                    "--to \"Library 2\" --downgrade lossless",
                    does: "Migrate a store at Library 3 down to Library 2, unless a stored value would be lost."),
                .init(
                    "remodel migrate 'users/*.sqlite' --model Models/Library.xcdatamodeld",
                    "--jobs 4 --report fleet.jsonl",
                    does: "Migrate every user's store, 4 at a time, a JSON line per store in fleet.jsonl."),
            ],
            exitStatus: ExitStatusTable.migrate))

    @Argument(help: ArgumentHelp("The store files; a quoted glob is expanded.", valueName: "store"))
    var stores: [String] = []

    @Option(name: .long, help: ArgumentHelp(OptionHelp.model, valueName: "model"))
    var model: String

    @OptionGroup var mappings: MappingsOption

    @Option(help: "The version to migrate to (default: the current version); one before the store's needs --downgrade.")
    var to: String?

    @Flag(
        help:
            "Print the plan, step by step, entity by entity and property by property, and change nothing (with --format json: as JSON)."
    )
    var dryRun = false

    @OptionGroup var progress: ProgressOption

    @OptionGroup var format: FormatOption

    @Flag(help: "Keep the original store beside the migrated one as STORE.remodel-backup.")
    var keepBackup = false

    @Option(
        help:
            "A store newer than the model (a rolled-back deploy), or at a version after --to: refuse it untouched, migrate it down when no stored value is lost (lossless; from the model it carries when the model lacks its version), or migrate it down all the same, keeping the original as STORE.remodel-backup (allow-loss)."
    )
    var downgrade: DowngradeChoice = .refuse

    @Flag(
        help:
            "Write every version to a file of its own instead of running consecutive steps in one pass over the store (slower)."
    )
    var stepByStep = false

    @Flag(help: "Check every value and link against the model, not only what the migration wrote or changed.")
    var checkEverything = false

    @Option(
        help:
            "SQLite's own check of the migrated store: only the tables the migration wrote and the schema (written, the default), the whole file's structure (quick), or that and every index against its table (full)."
    )
    var integrityCheck: IntegrityCheckChoice = .written

    // For crash-injection tests: smaller phase-1 batches, so that a few hundred rows make several.
    @Option(help: ArgumentHelp("Source objects per phase-1 batch (default 25,000).", visibility: .hidden))
    var batchSize: Int?

    @OptionGroup var output: QuietOption
    @OptionGroup(title: "Fleet options (many stores)") var fleet: FleetArguments

    func validate() throws {
        if stores.isEmpty && fleet.storesFrom == nil {
            throw ValidationError("give the stores to migrate, or --stores-from FILE")
        }
        if format.isJSON && !dryRun {
            throw ValidationError(
                "--format json prints the plan of --dry-run; a migration's progress as JSON is --progress json")
        }
    }

    func run() async throws {
        let bundle = try loadBundle(model)
        try Inputs.requireVersion(to, in: bundle)
        if let list = fleet.storesFrom, list != "-" { try Inputs.requireFile(list, "list of stores") }
        var options = MigrationOptions(
            mappingsDirectory: try mappings.folder(), targetVersion: to, keepBackup: keepBackup)
        options.composesSteps = !stepByStep
        options.downgrade = downgrade.policy
        options.checksEverything = checkEverything
        options.integrityCheck = integrityCheck.check
        if let batchSize { options.batchSize = max(1, batchSize) }
        let migrator = Migrator(bundle: bundle, options: options)
        if fleet.isGiven || stores.count != 1 || StoreList.isPattern(stores[0]) {
            let run = FleetRun(migrator: migrator, fleet: fleet, progress: progress.progress)
            if dryRun {
                guard !format.isJSON else {
                    throw ValidationError("--format json prints the plan of one store; a fleet's is its --report")
                }
                try run.dryRun(stores)
            } else {
                try await run.run(stores)
            }
            return
        }
        let store = stores[0]
        if dryRun {
            do {
                let plan = try migrator.plan(storeAt: store)
                if format.isJSON {
                    print(plan.json(passes: migrator.passes(of: plan)).rendered())
                } else {
                    print(plan.description, terminator: "")
                    if !plan.steps.isEmpty { print(migrator.passSummary(of: plan)) }
                }
            } catch {
                printFailure(error)
                throw ExitCode(ExitStatus.ofMigration(error))
            }
            return
        }
        let printer = progress.printer(quiet: output.quiet)
        do {
            let report = try await migrator.migrate(storeAt: store) { value in printer.print(value) }
            printer.finish()
            if !output.quiet { print(report.description) }
        } catch {
            printer.finish()
            printFailure(error)
            throw ExitCode(ExitStatus.ofMigration(error))
        }
    }
}

extension ProgressStyle: ExpressibleByArgument {}

/// `--downgrade`: the names of ``DowngradePolicy`` on the command line.
enum DowngradeChoice: String, ExpressibleByArgument, CaseIterable {
    case refuse, lossless
    case allowLoss = "allow-loss"

    var policy: DowngradePolicy {
        switch self {
        case .refuse: return .refuse
        case .lossless: return .lossless
        case .allowLoss: return .allowLoss
        }
    }
}

/// `--integrity-check`: the names of ``MigrationOptions/IntegrityCheck`` on the command line.
enum IntegrityCheckChoice: String, ExpressibleByArgument, CaseIterable {
    case quick, full, written

    var check: MigrationOptions.IntegrityCheck {
        switch self {
        case .quick: return .quick
        case .full: return .full
        case .written: return .writtenTables
        }
    }
}
