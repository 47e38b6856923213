import ArgumentParser
import Remodel
import RemodelTesting

struct TestMatrixCommand: AsyncParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "test-matrix",
        abstract:
            "Migrate a store of every version of a model, with data, to the current version, and check it against the plan.",
        discussion: CommandHelp.discussion(
            """
            For each version up to the current one (the head), a store is created with generated data (and \
            with each fixture of that version), migrated with the mapping files, and checked: the migration \
            succeeds, each entity has the objects the plan carries, carried values and links are unchanged, \
            and no mapping file drops data that inference would carry.
            """,
            examples: [
                .init(
                    "remodel test-matrix Models/Library.xcdatamodeld",
                    does: "Migrate a store of every version to the head, and check each."),
                .init(
                    "remodel test-matrix Models/Library.xcdatamodeld", "--fixtures Tests/Fixtures --format json",
                    does: "The same with hand-written data too, as JSON for CI."),
            ],
            exitStatus: ExitStatusTable.testMatrix))

    @Argument(help: ArgumentHelp(OptionHelp.model, valueName: "model"))
    var model: String

    @OptionGroup var mappings: MappingsOption

    @Option(help: "Folder of hand-written data: VERSION.json or VERSION.sqlite, or a folder VERSION/ of them.")
    var fixtures: String?

    @Option(help: "Objects of each concrete entity in generated data.")
    var objects: Int = 20

    @Option(name: .customLong("seed-number"), help: "The seed number of generated data.")
    var seedNumber: UInt64 = 1

    @Option(
        name: .customLong("version"),
        help: "A version to test (repeat for several; default: every version up to the head).")
    var versions: [String] = []

    @Option(
        name: .customLong("expect-refused"), help: "A version whose migration is expected to be refused (repeatable).")
    var refused: [String] = []

    @Option(
        name: .customLong("intended"), help: "An intended change, Entity or Entity.property, not reported (repeatable)."
    )
    var intended: [String] = []

    @Flag(help: "Report versions whose migration needs a mapping file as expected, not as failures.")
    var allowMissingMappings = false

    @OptionGroup var format: FormatOption

    func validate() throws {
        guard objects >= 0 else { throw ValidationError("--objects must be 0 or more") }
    }

    func run() async throws {
        let mappings = try mappings.folder()
        if let fixtures { try Inputs.requireFolder(fixtures, "fixtures folder") }
        var matrix = MigrationMatrix(
            model: model, mappings: mappings, fixtures: fixtures, objects: objects,
            seedNumber: seedNumber)
        if case .failure(let error) = matrix.bundle {
            printFailure(error)
            throw ExitCode(ExitStatus.couldNotStart)
        }
        if case .success(let bundle) = matrix.bundle {
            for version in versions + refused { try Inputs.requireVersion(version, in: bundle) }
        }
        matrix.versions = versions.isEmpty ? nil : versions
        matrix.missingMappingsAreExpected = allowMissingMappings
        matrix.intendedChanges = Set(intended)
        for version in refused { matrix.expectations[version] = .refused() }
        let report = MigrationMatrixReport(matrix: matrix, results: await matrix.run())
        print(format.isJSON ? report.json : report.text, terminator: "")
        if report.unexpectedCount > 0 { throw ExitCode(ExitStatus.refused) }
    }
}
