import ArgumentParser
import Foundation
import Remodel

/// `remodel demo`: the main job on the sample model, end to end, leaving nothing behind.
struct DemoCommand: AsyncParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "demo",
        abstract:
            "Create a store of the oldest sample Library version with generated data, migrate it to the current version, show the result.",
        discussion: CommandHelp.discussion(
            examples: [
                .init("remodel demo", does: "Run the demo from the Remodel folder: 200,000 objects, then the result."),
                .init("remodel demo --people 1000 --progress none", does: "A small one, without the bar."),
            ],
            exitStatus: ExitStatusTable.demo)
    )

    @Option(help: "How many people to generate (each with about 1.5 books).")
    var people = 80_000

    @OptionGroup var progress: ProgressOption

    func validate() throws {
        guard people > 0 else { throw ValidationError("--people must be at least 1") }
    }

    func run() async throws {
        let samples = try SampleFolders.locate()
        let bundle = try loadBundle(samples.model)
        let folder = FileManager.default.temporaryDirectory.appendingPathComponent("remodel-demo-\(UUID().uuidString)")
        try FileManager.default.createDirectory(at: folder, withIntermediateDirectories: true)
        defer { try? FileManager.default.removeItem(at: folder) }
        let path = folder.appendingPathComponent("Library.sqlite").path
        let oldest = bundle.versions[0].name

        let generated = try runReportingFailure { () throws(RemodelError) in
            try DemoData.generate(at: path, bundle: bundle, version: oldest, people: people)
        }
        print("Created \(path)")
        print(
            "  at version \"\(oldest)\" with \(ProgressPrinter.grouped(generated.people)) people and \(ProgressPrinter.grouped(generated.books)) books (\(String(format: "%.2f", generated.seconds)) s)."
        )
        print("  Before, a person looks like: \(try DemoData.sample(at: path, table: "Person"))")
        print("")

        let migrator = Migrator(bundle: bundle, options: MigrationOptions(mappingsDirectory: samples.mappings))
        let plan = try runReportingFailure { () throws(RemodelError) in try migrator.plan(storeAt: path) }
        print("Migrating to \"\(plan.targetVersion)\" in \(plan.steps.count) steps:")
        for (index, step) in plan.steps.enumerated() {
            let how =
                step.isInferred
                ? "inferred"
                : "mapping file \(step.mapping.files.map { URL(fileURLWithPath: $0).lastPathComponent }.joined(separator: ", "))"
            print("  \(index + 1). \(step.source.name) → \(step.destination.name) (\(how))")
        }
        print(migrator.passSummary(of: plan))
        let printer = progress.printer(quiet: false)
        let report: MigrationReport
        do {
            report = try await migrator.migrate(storeAt: path) { value in printer.print(value) }
            printer.finish()
        } catch {
            printer.finish()
            printFailure(error)
            throw ExitCode(ExitStatus.refused)
        }
        print(report.description)
        print("")
        print("After, a few objects as `remodel export` writes them:")
        // Three objects of each entity are read: two are shown, the third says whether more follow.
        let exported = try runReportingFailure { () throws(RemodelError) in
            try Store.open(at: path, bundle: bundle).exportJSONString(objectsPerEntity: 3)
        }
        for line in DemoData.firstObjects(ofExport: exported, perEntity: 2) { print("  " + line) }
        print("")
        print(
            "The temporary folder is removed. Try it on your own model: remodel validate, remodel diff, remodel migrate --dry-run."
        )
    }
}

/// Where the sample model and mappings are: in the current folder, or in the package this tool was built from.
enum SampleFolders {
    static func locate() throws -> (model: String, mappings: String?) {
        let candidates = [
            FileManager.default.currentDirectoryPath,
            URL(fileURLWithPath: #filePath).deletingLastPathComponent().deletingLastPathComponent()
                .deletingLastPathComponent().path,
        ]
        for root in candidates {
            let model = root + "/Models/Library.xcdatamodeld"
            if FileManager.default.fileExists(atPath: model) {
                let mappings = root + "/Mappings"
                return (model, FileManager.default.fileExists(atPath: mappings) ? mappings : nil)
            }
        }
        printError(
            "the sample model Models/Library.xcdatamodeld was not found here nor in the package the tool was built from; run the demo from the Remodel folder"
        )
        throw ExitCode(ExitStatus.couldNotStart)
    }
}
