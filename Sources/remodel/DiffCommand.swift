import ArgumentParser
import Remodel

struct DiffCommand: ParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "diff",
        abstract: "Show what changed between two versions of a model and the plan a migration between them runs.",
        discussion: CommandHelp.discussion(
            """
            The plan is the one `remodel migrate --dry-run` prints for a store at the first version: each step's \
            mapping file merged over inference, or inference alone. A change that needs a mapping file the folder \
            lacks is an error line ending in [needs-mapping].
            """,
            examples: [
                .init(
                    "remodel diff Models/Library.xcdatamodeld",
                    does: "What the current version changed, and the plan that migrates a store to it."),
                .init(
                    "remodel diff Models/Library.xcdatamodeld --from Library --to \"Library 3\"", "--format json",
                    does: "The same for two versions, as JSON (docs/JSON.md)."),
            ],
            exitStatus: ExitStatusTable.diff))

    @Argument(help: ArgumentHelp(OptionHelp.model, valueName: "model"))
    var model: String

    @Option(help: "The version to compare from (default: the one before --to).")
    var from: String?

    @Option(help: "The version to compare to (default: the current version).")
    var to: String?

    @OptionGroup var mappings: MappingsOption

    @OptionGroup var format: FormatOption

    func run() throws {
        let bundle = try loadBundle(model)
        try Inputs.requireVersion(from, in: bundle)
        try Inputs.requireVersion(to, in: bundle)
        let folder = try mappings.folder()
        let target = to ?? bundle.currentVersionName
        let origin: String
        if let from {
            origin = from
        } else {
            let index = bundle.index(ofVersion: target) ?? 0
            guard index > 0 else {
                printError("\"\(target)\" is the first version of model \"\(bundle.name)\": give --from and --to")
                throw ExitCode(ExitStatus.usage)
            }
            origin = bundle.versionNames[index - 1]
        }
        let (diff, plan) = try runReportingFailure { () throws(RemodelError) in
            try Self.compare(bundle: bundle, from: origin, to: target, mappings: folder)
        }
        let summary = plan.map { Migrator(bundle: bundle).passSummary(of: $0) }
        if format.isJSON {
            let passes = plan.map { Migrator(bundle: bundle).passes(of: $0) } ?? []
            print(JSONDocument.object(diff.jsonMembers + [("plan", plan?.json(passes: passes) ?? .null)]).rendered())
        } else {
            print(diff.text, terminator: "")
            if let plan, !plan.steps.isEmpty, let summary {
                print("\nThe plan, as `remodel migrate` runs it for a store at \(origin):")
                print(plan.description, terminator: "")
                print(summary)
            }
        }
        if diff.lints.contains(where: { $0.severity == .error }) { throw ExitCode(ExitStatus.refused) }
    }

    /// The diff and, when `from` comes before `to`, the plan of a migration between them: the diff says how the plan
    /// carries each change, or, when a step cannot be planned, what it needs (a `needs-mapping` error).
    static func compare(bundle: ModelBundle, from: String, to: String, mappings: String?) throws(RemodelError) -> (
        ModelDiff, MigrationPlan?
    ) {
        guard let start = bundle.index(ofVersion: from), let end = bundle.index(ofVersion: to), start < end else {
            return (try ModelDiff(bundle: bundle, from: from, to: to), nil)
        }
        do {
            let plan = try MigrationPlanner.plan(bundle: bundle, from: from, to: to, mappingsDirectory: mappings)
            return (try ModelDiff(bundle: bundle, plan: plan), plan)
        } catch  where error.code == .migrationNotPlannable {
            var diff = try ModelDiff(bundle: bundle, from: from, to: to)
            if !diff.lints.contains(where: { $0.severity == .error }) {
                diff.lints.append(
                    ModelDiff.Lint(
                        rule: .needsMapping, severity: .error, entity: error.entity ?? bundle.name,
                        property: error.property, message: error.message))
            }
            return (diff, nil)
        }
    }
}
