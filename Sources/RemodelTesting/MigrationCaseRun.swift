internal import Foundation
import Remodel

/// The work of one case, in a temporary folder of its own that is removed at the end.
struct MigrationCaseRun {
    let testCase: MigrationTestCase

    private var matrix: MigrationMatrix { testCase.matrix }

    /// Why a case stopped before the checks, as the result's outcome.
    private struct Stop: Error {
        var outcome: MigrationTestResult.Outcome
    }

    /// The state a case reaches, filled in as it goes.
    private struct Progress {
        var seedProblems: [String] = []
        var objectsBefore = 0
        var objectsAfter = 0
        var seconds = 0.0
        var failures: [MigrationCheckFailure] = []
        var losses: [DataLoss] = []
    }

    func run(_ assertions: (@Sendable (MigratedStore) async throws -> Void)?) async -> MigrationTestResult {
        var progress = Progress()
        let folder = FileManager.default.temporaryDirectory.appendingPathComponent(
            "remodel-testkit-\(UUID().uuidString)"
        ).path
        defer { try? FileManager.default.removeItem(atPath: folder) }
        let outcome: MigrationTestResult.Outcome
        do {
            try FileManager.default.createDirectory(atPath: folder, withIntermediateDirectories: true)
            outcome = try await migrate(in: folder, assertions: assertions, progress: &progress)
        } catch let stop as Stop {
            outcome = stop.outcome
            progress.objectsAfter = progress.objectsBefore
        } catch {
            outcome = .failed("\(error)")
            progress.objectsAfter = progress.objectsBefore
        }
        return MigrationTestResult(
            testCase: testCase, outcome: outcome, isExpected: Self.matches(outcome, testCase.expectation, matrix),
            failures: progress.failures, seedProblems: progress.seedProblems, objectsBefore: progress.objectsBefore,
            objectsAfter: progress.objectsAfter, seconds: progress.seconds, losses: progress.losses)
    }

    static func matches(
        _ outcome: MigrationTestResult.Outcome, _ expectation: MigrationExpectation, _ matrix: MigrationMatrix
    ) -> Bool {
        switch (outcome, expectation) {
        case (.migrated, .migrates), (.needsMapping, .needsMapping):
            return true
        case (.needsMapping, .migrates):
            return matrix.missingMappingsAreExpected
        case (.refused(let reason), .refused(let text)):
            return text.map(reason.contains) ?? true
        default:
            return false
        }
    }

    private func migrate(
        in folder: String, assertions: (@Sendable (MigratedStore) async throws -> Void)?, progress: inout Progress
    ) async throws -> MigrationTestResult.Outcome {
        let bundle = try matrix.bundle.get()
        guard let source = bundle.version(named: testCase.version), let head = bundle.version(named: testCase.head)
        else {
            throw Stop(outcome: .failed("the model \(bundle.name) has no version \"\(testCase.version)\""))
        }
        let store = folder + "/store.sqlite"
        let original = folder + "/original.sqlite"
        try makeStore(at: store, bundle: bundle, version: source, folder: folder, progress: &progress)
        try FileManager.default.copyItem(atPath: store, toPath: original)
        progress.objectsBefore = try Self.totalCount(path: store, version: source)

        var options = matrix.options
        options.targetVersion = head.name
        let migrator = Migrator(bundle: bundle, options: options)
        let plan = try Self.plan(migrator, from: source.name, store: store)
        let verifier = MigrationVerifier(bundle: bundle, plan: plan, options: options, intended: matrix.intendedChanges)
        progress.failures += verifier.planFindings()

        let started = Date()
        let migrated = await Self.migrate(migrator, store: store)
        progress.seconds = Date().timeIntervalSince(started)
        let report: MigrationReport
        switch migrated {
        case .success(let done):
            report = done
        case .failure(let error) where error.code == .validationFailed:
            if try Self.bytes(store) != Self.bytes(original) {
                progress.failures.append(MigrationCheckFailure(message: "the refused migration changed the store"))
                throw Stop(outcome: .failed("refused, and the store changed"))
            }
            throw Stop(outcome: .refused(error.message))
        case .failure(let error) where error.code == .migrationNotPlannable:
            // A later step's problem that the data it gets makes real is found when that step runs.
            throw Stop(outcome: .needsMapping(error.message))
        case .failure(let error):
            throw error
        }
        progress.losses = report.losses
        // The report counts the objects the migration wrote; the matrix shows every object after.
        progress.objectsAfter = try Self.totalCount(path: store, version: head)
        progress.failures += try verifier.compare(before: original, after: store)
        if let assertions {
            do {
                try await assertions(MigratedStore(path: store, originalPath: original, bundle: bundle, report: report))
            } catch {
                progress.failures.append(MigrationCheckFailure(message: "an assertion failed: \(error)"))
            }
        }
        guard progress.failures.isEmpty else {
            let count = progress.failures.count
            return .failed("\(count) difference\(count == 1 ? "" : "s") from the plan")
        }
        return .migrated
    }

    /// The plan from the store's version: planned from the model alone first (no need to read the store's
    /// version again); when that finds a step that cannot be inferred, planned as the migrator plans, with
    /// the store's data deciding which problems bite.
    private static func plan(_ migrator: Migrator, from version: String, store: String) throws -> MigrationPlan {
        let options = migrator.options
        do throws(RemodelError) {
            return try MigrationPlanner.plan(
                bundle: migrator.bundle, from: version, to: options.targetVersion,
                mappingsDirectory: options.mappingsDirectory)
        } catch {
            guard error.code == .migrationNotPlannable else { throw error }
        }
        do throws(RemodelError) {
            return try migrator.plan(storeAt: store)
        } catch {
            if error.code == .migrationNotPlannable { throw Stop(outcome: .needsMapping(error.message)) }
            throw error
        }
    }

    private static func migrate(_ migrator: Migrator, store: String) async -> Result<MigrationReport, RemodelError> {
        do throws(RemodelError) {
            return .success(try await migrator.migrate(storeAt: store))
        } catch {
            return .failure(error)
        }
    }

    private static func bytes(_ path: String) throws -> Data {
        try Data(contentsOf: URL(fileURLWithPath: path))
    }

    /// The case's store at its version: from its fixture (a seed or a store), or from generated data.
    private func makeStore(
        at store: String, bundle: ModelBundle, version: ModelVersion, folder: String, progress: inout Progress
    ) throws {
        guard let fixture = testCase.fixture else {
            let seed = folder + "/seed.json"
            let plan = try SeedGenerator(version: version).write(
                objects: matrix.objects, seedNumber: matrix.seedNumber, to: seed)
            progress.seedProblems = plan.problems.map(\.description)
            do {
                _ = try Store.create(at: store, bundle: bundle, version: version.name, seed: seed)
            } catch {
                throw Stop(outcome: .failed("the generated data for \(version.name) does not import: \(error)"))
            }
            return
        }
        if fixture.hasSuffix(".json") {
            do {
                _ = try Store.create(at: store, bundle: bundle, version: version.name, seed: fixture)
            } catch {
                throw Stop(outcome: .failed("the fixture does not import: \(error)"))
            }
            return
        }
        try FileManager.default.copyItem(atPath: fixture, toPath: store)
        let found = try StoreInspector.inspect(path: store, bundle: bundle)
        switch found.state {
        case .current(let name) where name == version.name, .older(let name, _) where name == version.name:
            return
        default:
            throw Stop(
                outcome: .failed("the fixture \(fixture) is not a store at version \(version.name): \(found.message)"))
        }
    }

    // MARK: - Reading stores

    static func count(_ entity: String, path: String, version: ModelVersion?) throws -> Int {
        guard let version, let found = version.entity(named: entity) else {
            throw RemodelError(.invalidModel, "there is no entity \(entity) at this version", path: path)
        }
        let connection = try SQLiteConnection(path: path, mode: .readOnly)
        let value = try connection.scalar(
            "SELECT count(*) FROM \(quoteIdentifier(version.root(of: found).name)) WHERE \(StoreColumn.entity) = ?",
            [.text(entity)])
        return Int(value?.integerValue ?? 0)
    }

    static func totalCount(path: String, version: ModelVersion) throws -> Int {
        try version.entities.filter { !$0.isAbstract }.reduce(0) {
            $0 + (try count($1.name, path: path, version: version))
        }
    }

    static func export(path: String, bundle: ModelBundle) throws -> String {
        let output = path + ".export.json"
        defer { try? FileManager.default.removeItem(atPath: output) }
        try Store.open(at: path, bundle: bundle).exportJSON(to: output)
        return try String(contentsOfFile: output, encoding: .utf8)
    }
}
