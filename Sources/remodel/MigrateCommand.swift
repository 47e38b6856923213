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
                    "remodel migrate 'users/*.sqlite' --model Models/Library.xcdatamodeld",
                    "--jobs 4 --report fleet.jsonl",
                    does: "Migrate every user's store, 4 at a time, a JSON line per store in fleet.jsonl."),
            ],
            exitStatus: ExitStatus.help))

    @Argument(help: ArgumentHelp("The store files; a quoted glob is expanded.", valueName: "store"))
    var stores: [String] = []

    @Option(name: .long, help: "The model: a .xcdatamodeld bundle, a .xcdatamodel folder or a contents file.")
    var model: String

    @Option(help: "Folder of mapping files (default: Mappings, when it exists).")
    var mappings: String?

    @Option(help: "The version to migrate to (default: the current version).")
    var to: String?

    @Flag(help: "Print the plan, step by step, entity by entity and property by property, and change nothing.")
    var dryRun = false

    @Option(help: "How to show progress on standard error (auto: a bar when it is a terminal, else nothing).")
    var progress: ProgressStyle = .auto

    @Flag(help: "Keep the original store beside the migrated one as STORE.remodel-backup.")
    var keepBackup = false

    @Option(
        help:
            "A store newer than the model (a rolled-back deploy): refuse it untouched, migrate it down from the model it carries when no stored value is lost (lossless), or migrate it down all the same, keeping the original as STORE.remodel-backup (allow-loss)."
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
    @OptionGroup var fleet: FleetArguments

    func validate() throws {
        if stores.isEmpty && fleet.storesFrom == nil {
            throw ValidationError("give the stores to migrate, or --stores-from FILE")
        }
    }

    func run() async throws {
        let bundle = try loadBundle(model)
        var options = MigrationOptions(
            mappingsDirectory: mappings ?? defaultMappingsDirectory(), targetVersion: to, keepBackup: keepBackup)
        options.composesSteps = !stepByStep
        options.downgrade = downgrade.policy
        options.checksEverything = checkEverything
        options.integrityCheck = integrityCheck.check
        if let batchSize { options.batchSize = max(1, batchSize) }
        let migrator = Migrator(bundle: bundle, options: options)
        if fleet.isGiven || stores.count != 1 || StoreList.isPattern(stores[0]) {
            let run = FleetRun(migrator: migrator, fleet: fleet, progress: progress)
            if dryRun { try run.dryRun(stores) } else { try await run.run(stores) }
            return
        }
        let store = stores[0]
        if dryRun {
            do {
                let plan = try migrator.plan(storeAt: store)
                print(plan.description, terminator: "")
                if !plan.steps.isEmpty { print(migrator.passSummary(of: plan)) }
            } catch {
                printFailure(error)
                throw ExitCode(ExitStatus.of(error))
            }
            return
        }
        let printer = ProgressPrinter(style: output.quiet && progress == .auto ? .none : progress)
        do {
            let report = try await migrator.migrate(storeAt: store) { value in printer.print(value) }
            printer.finish()
            if !output.quiet { print(Self.summary(report)) }
        } catch {
            printer.finish()
            printFailure(error)
            throw ExitCode(ExitStatus.of(error))
        }
    }

    static func summary(_ report: MigrationReport) -> String {
        let rollback =
            report.rolledBackUnfinishedTransaction
            ? " A program had stopped in the middle of a write and left an unfinished transaction in its journal: SQLite rolled it back first."
            : ""
        guard report.steps > 0 else {
            return "\(report.path) is already at \(report.targetVersion): nothing to do." + rollback
        }
        let steps = report.steps == 1 ? "1 step" : "\(report.steps) steps"
        var text = String(
            format: "Migrated %@ %@from %@ to %@ in %@: %@, %.2f s.", report.path, report.isDowngrade ? "down " : "",
            report.sourceVersion, report.targetVersion, steps, writtenAndCarried(report), report.seconds)
        if let backup = report.backupPath { text += " The original is kept as \(backup)." }
        for loss in report.losses where loss.count != 0 {
            switch (loss.becameNil, report.isDowngrade) {
            case (true, true): text += "\n  Lost, as --downgrade allow-loss allows: \(loss)"
            case (true, false): text += "\n  Lost: \(loss)"
            case (false, true): text += "\n  Dropped, as --downgrade allow-loss allows: \(loss.detail)"
            case (false, false): text += "\n  As the mapping says, \(loss)"
            }
        }
        for upkeep in report.rebuiltIndexes.map(\.description) + report.unfiredTriggers.map(\.description) {
            text += "\n  \(upkeep)"
        }
        return text + rollback
    }
}

extension MigrateCommand {
    /// What the objects written count: `3 objects written to Person and Tag, 1 other table carried as it
    /// was`; `0 objects written, every table carried as it was`.
    static func writtenAndCarried(_ report: MigrationReport) -> String {
        let objects = ProgressPrinter.counted(report.objects, "object") + " written"
        let written = report.writtenTables
        guard !written.isEmpty else { return objects + ", every table carried as it was" }
        let tables =
            written.count > 3
            ? "\(written.count) tables (\(written.prefix(3).joined(separator: ", ")), …)"
            : written.count == 1
                ? written[0] : written.dropLast().joined(separator: ", ") + " and " + written[written.count - 1]
        let others = report.tableCount - written.count
        let carried =
            others <= 0
            ? "" : others == 1 ? ", 1 other table carried as it was" : ", \(others) other tables carried as they were"
        return "\(objects) to \(tables)\(carried)"
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

/// `Mappings` in the current folder, when it exists.
func defaultMappingsDirectory() -> String? {
    var isDirectory: ObjCBool = false
    return FileManager.default.fileExists(atPath: "Mappings", isDirectory: &isDirectory) && isDirectory.boolValue
        ? "Mappings" : nil
}
