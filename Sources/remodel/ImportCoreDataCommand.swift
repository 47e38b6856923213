import ArgumentParser
import Remodel
import RemodelCoreData

struct ImportCoreDataCommand: ParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "import-core-data",
        abstract: "Import a store that Core Data wrote into a new Remodel store, at the version that wrote it.",
        discussion: CommandHelp.discussion(
            """
            The Core Data store is read without writing a byte in it or beside it. Without --model, the \
            model the store carries (its Z_MODELCACHE) is used; with several, they are merged as \
            NSManagedObjectModel.mergedModel(from:) merges them. Then migrate the new store to the current \
            version with `remodel migrate`.
            """,
            examples: [
                .init(
                    "remodel import-core-data Backup/Notes.sqlite",
                    "--model Models/Notes.xcdatamodeld --into notes.sqlite",
                    does: "Import the Core Data store at the version that wrote it; the next line says what to run."),
                .init(
                    "remodel import-core-data Backup/Notes.sqlite --into notes.sqlite",
                    does: "Import it through the model the store carries, when the app's model files are not at hand."),
            ],
            exitStatus: ExitStatusTable.importCoreData))

    @Argument(help: "The Core Data store (.sqlite); its -wal and .<Name>_SUPPORT folder are read too.")
    var source: String

    @Option(
        name: .long,
        help: """
            The model: a .xcdatamodeld bundle, a .xcdatamodel folder or a contents file; repeat it to merge \
            several; leave it out to use the model the store carries.
            """)
    var model: [String] = []

    @Option(name: .long, help: "The new Remodel store (there must be no file there).")
    var into: String

    @Option(name: .long, help: "The version that wrote the Core Data store, when Remodel cannot tell.")
    var version: String?

    @Option(
        name: .customLong("configuration"),
        help: ArgumentHelp(
            "The configuration whose entities the Core Data store holds, when Remodel cannot tell.", valueName: "name"))
    var configurationName: String?

    @Option(
        name: .long,
        help: """
            A value whose external data file is missing: refuse the import (naming it), or import it empty \
            (nil, or empty bytes where the attribute is required) and list it.
            """)
    var missingExternalData: MissingExternalDataChoice = .refuse

    @Option(
        help: """
            A to-one or many-to-many link naming an object the store does not have: refuse the import \
            (listing every one), or import without them and list each.
            """)
    var danglingLinks: DanglingLinksChoice = .refuse

    @OptionGroup var format: FormatOption

    @OptionGroup var progress: ProgressOption

    @OptionGroup var output: QuietOption

    func run() throws {
        let bundles = try model.map(loadBundle)
        if bundles.count == 1 {
            try Inputs.requireVersion(version, in: bundles[0])
            try Inputs.requireConfiguration(configurationName, in: bundles[0], version: version)
        }
        let models: CoreDataModels = bundles.count > 1 ? .merged(bundles) : bundles.first.map { .bundle($0) } ?? .store
        let printer = progress.printer(quiet: output.quiet)
        defer { printer.finish(clearing: true) }
        let result = try runReportingFailure { () throws(RemodelError) in
            try Store.importCoreData(
                from: source, models: models, into: into, version: version, configuration: configurationName,
                missingExternalData: missingExternalData.policy, danglingLinks: danglingLinks.policy
            ) { printer.print($0) }
        }
        printer.finish(clearing: true)
        if format.isJSON {
            print(result.json.rendered())
            return
        }
        guard !output.quiet else { return }
        print(result.description)
        switch result.modelOrigin {
        case .modelFile:
            guard let bundle = bundles.first, result.versionName != bundle.currentVersionName else { break }
            if bundle.index(ofVersion: result.versionName) ?? 0 > bundle.index(ofVersion: bundle.currentVersionName)
                ?? 0
            {
                print(
                    "Next: \"\(result.versionName)\" comes after the bundle's current version \"\(bundle.currentVersionName)\"; make it the current version (in Xcode, or in .xccurrentversion) to open the store at launch; `remodel export` reads it as it is."
                )
            } else {
                print("Next: remodel migrate \(into) --model \(model[0])")
            }
        case .store:
            print(
                "The model was the store's own; migrate with the app's model (its version with the same entity hashes adopts the store), or write the store's model as a bundle: remodel extract-model \(source) --output \(result.modelName).xcdatamodeld"
            )
        case .merged:
            break
        }
    }
}

/// `--missing-external-data`: the names of ``CoreDataImport/MissingExternalData`` on the command line.
enum MissingExternalDataChoice: String, ExpressibleByArgument, CaseIterable {
    case refuse, empty

    var policy: CoreDataImport.MissingExternalData { self == .refuse ? .refuse : .empty }
}

/// `--dangling-links`: the names of ``CoreDataImport/DanglingLinks`` on the command line.
enum DanglingLinksChoice: String, ExpressibleByArgument, CaseIterable {
    case refuse, drop

    var policy: CoreDataImport.DanglingLinks { self == .refuse ? .refuse : .drop }
}
