import Foundation
import Testing

@testable import Remodel
@testable import RemodelModel
@testable import RemodelProject

/// Consecutive steps composed into one pass give exactly what writing every version in turn
/// gives, and the rules of the versions passed through still hold.
@Suite struct ComposedMigrationTests {
    private static let stepByStep: MigrationOptions = {
        var options = MigrationOptions()
        options.composesSteps = false
        return options
    }()

    /// Item.count gets a maximum of 10 in v2; v3 lifts it again unless `keptInV3`.
    private static func boundedInTheMiddle(keptInV3: Bool = false) throws -> ModelBundle {
        let item = { (bound: String) in
            """
            <entity name="Item" representedClassName="Item">
                <attribute name="name" attributeType="String"/>
                <attribute name="count" optional="YES" attributeType="Integer 32" \(bound)usesScalarValueType="NO"/>
            </entity>
            """
        }
        return makeBundle(
            "Items", try makeVersion("Items", item("")), try makeVersion("Items 2", item("maxValueString=\"10\" ")),
            try makeVersion("Items 3", item(keptInV3 ? "maxValueString=\"10\" " : "")))
    }

    private func itemsStore(counts: [Int], keptInV3: Bool = false) throws -> MigrationCase {
        let folder = try TemporaryFolder()
        let rows = counts.enumerated().map {
            #"{"_pk": \#($0.offset + 1), "name": "item \#($0.offset)", "count": \#($0.element)}"#
        }
        let seed = folder.file("seed.json")
        try #"{"Item": [\#(rows.joined(separator: ", "))]}"#.write(toFile: seed, atomically: true, encoding: .utf8)
        return try MigrationCase(bundle: try Self.boundedInTheMiddle(keptInV3: keptInV3), seed: seed)
    }

    @Test func consecutiveStepsRunAsOnePass() throws {
        let bundle = try Self.boundedInTheMiddle()
        let steps = try MigrationPlanner.plan(bundle: bundle, from: "Items").steps
        #expect(StepComposition.passes(of: steps, options: MigrationOptions()) == [1...2])
        #expect(StepComposition.passes(of: steps, options: Self.stepByStep) == [1...1, 2...2])
    }

    /// Swift code sees a store of its own step's version: a step a policy runs in is a pass by itself, the
    /// steps around it run together; with hooks every step is.
    @Test func swiftCodeSplitsThePlanWhereItStands() throws {
        let item =
            #"<entity name="Item" representedClassName="Item"><attribute name="name" optional="YES" attributeType="String"/></entity>"#
        let note =
            #"<entity name="Note" representedClassName="Note"><attribute name="text" optional="YES" attributeType="String"/></entity>"#
        let bundle = makeBundle(
            "Notes", try makeVersion("Notes", item), try makeVersion("Notes 2", item),
            try makeVersion("Notes 3", item + note),
            try makeVersion("Notes 4", item), try makeVersion("Notes 5", item))
        let steps = try MigrationPlanner.plan(bundle: bundle, from: "Notes").steps
        var options = MigrationOptions()
        #expect(StepComposition.passes(of: steps, options: options) == [1...4])
        options.policies = [EntityPolicy(destination: "Note") { _ in [] }]
        #expect(StepComposition.passes(of: steps, options: options) == [1...1, 2...2, 3...4])
        var hooked = MigrationOptions()
        hooked.hooks.afterStep = { _ in }
        #expect(StepComposition.passes(of: steps, options: hooked) == [1...1, 2...2, 3...3, 4...4])
    }

    /// A value v2 does not allow stops the composed migration as it stops the step-by-step one,
    /// naming the step, the object and the rule, and the store is left as it was.
    @Test func aRuleOfTheVersionPassedThroughStillHolds() async throws {
        for options in [MigrationOptions(), Self.stepByStep] {
            let migration = try itemsStore(counts: [3, 50, 7])
            let error = try await expectRefusedUntouched(
                .validationFailed,
                .message(
                    #"the data migrated from Items to Items 2 breaks the model's rules, so the store was left as it was:\#n  - Item _pk 2 "count": 50 is more than the maximum 10 [maximum]"#
                ), folder: migration.folder.path
            ) { try await migration.migrate(options) }
            #expect(error?.primaryKey == 2 && error?.property == "count", "composed: \(options.composesSteps)")
        }
    }

    /// When v3 keeps the same maximum on the copied value, the check runs once, on v3, and still refuses.
    @Test func aRuleKeptByTheNextVersionIsCheckedThere() async throws {
        let migration = try itemsStore(counts: [3, 50, 7], keptInV3: true)
        let error = try await expectRefusedUntouched(
            .validationFailed,
            .message(
                #"the data migrated from Items to Items 2 breaks the model's rules, so the store was left as it was:\#n  - Item _pk 2 "count": 50 is more than the maximum 10 [maximum]"#
            ), folder: migration.folder.path
        ) { try await migration.migrate() }
        #expect(error?.primaryKey == 2)
    }

    @Test func valuesWithinEveryVersionsRulesMigrateInOnePass() async throws {
        let migration = try itemsStore(counts: [3, 10, 7])
        let report = try await migration.migrate()
        #expect(report.steps == 2)
        #expect(try migration.versionName() == "Items 3")
        let history = try Store.open(at: migration.store, bundle: migration.bundle).metadata().history.map {
            "\($0.from ?? "-") → \($0.to)"
        }
        #expect(history == ["- → Items", "Items → Items 2", "Items 2 → Items 3"])
        #expect(try migration.export().contains(#""count": 10"#))
    }

    /// The benchmark's model, v1 → v4 in three steps (a computed value, a rename with widening, dropped and
    /// added attributes, to-one and many-to-many links): composed, the export is byte for byte the step-by-step one.
    @Test func benchmarkModelComposedEqualsStepByStep() async throws {
        let bundle = try ModelBundle(
            contentsOf: MigrationFixtures.packageRoot + "/Benchmarks/Models/BenchLibrary.xcdatamodeld")
        var options = MigrationOptions(
            mappingsDirectory: MigrationFixtures.packageRoot + "/Benchmarks/Mappings", batchSize: 7)
        let composed = try await exportAfterMigrating(bundle: bundle, options: options)
        options.composesSteps = false
        let written = try await exportAfterMigrating(bundle: bundle, options: options)
        #expect(composed.passes == 1)
        #expect(written.passes == 3)
        expectSameText(composed.export, written.export)
    }

    /// Every run of two or more consecutive inferable steps in the real models of the corpus, with
    /// generated objects: composed and step by step give the same export, or the same refusal.
    @Test(
        .tags(.corpus), .skippable(.corpus),
        .enabled(if: ValidationSupport.corpusExists, "the shared corpus is not beside the repository"))
    func corpusChainsComposedEqualStepByStep() async throws {
        var search = ModelSearch()
        try search.add(ValidationSupport.corpus.path)
        var compared = 0
        for model in search.models {
            guard let bundle = ModelReader.read(path: model.path).bundle, bundle.versions.count > 2 else { continue }
            let current = bundle.index(ofVersion: bundle.currentVersionName) ?? bundle.versions.count - 1
            let versions = Array(bundle.versions.prefix(current + 1))
            var run: [ModelVersion] = [bundle.versions[0]]
            for (source, destination) in zip(versions, versions.dropFirst()) {
                if MappingInference.infer(from: source, to: destination, modelName: bundle.name).problems.isEmpty {
                    run.append(destination)
                    continue
                }
                if run.count > 2 { try await compare(bundle, run, &compared) }
                run = [destination]
            }
            if run.count > 2 { try await compare(bundle, run, &compared) }
        }
        // CoreStore's VersionedModel (4 versions) and mastodon (9) have such runs.
        #expect(compared >= 2)
    }

    /// Migrates from the first version of `run` to its last both ways: one pass, and a pass per step.
    private func compare(_ bundle: ModelBundle, _ run: [ModelVersion], _ compared: inout Int) async throws {
        var options = MigrationOptions(targetVersion: run.last?.name, batchSize: 4)
        let composed = try await exportAfterMigrating(bundle: bundle, from: run[0], options: options)
        options.composesSteps = false
        let written = try await exportAfterMigrating(bundle: bundle, from: run[0], options: options)
        #expect(composed.export == written.export, "\(bundle.name) \(run[0].name) → \(run.last?.name ?? "")")
        #expect(composed.passes == 1)
        compared += 1
    }

    /// Migrates a store of generated objects at `version` (the bundle's first) to the options' target; the export
    /// (or the refusal) and the number of passes.
    private func exportAfterMigrating(
        bundle: ModelBundle, from version: ModelVersion? = nil, options: MigrationOptions
    ) async throws -> (export: String, passes: Int) {
        let version = version ?? bundle.versions[0]
        let folder = try TemporaryFolder()
        let store = folder.file("store.sqlite")
        _ = try Store.create(at: store, bundle: bundle, version: version.name)
        do {
            let connection = try SQLiteConnection(path: store, mode: .readWrite)
            try GeneratedStoreData.fill(connection, version: version, objectsPerEntity: 9)
        }
        let migrator = Migrator(bundle: bundle, options: options)
        let plan = try migrator.plan(storeAt: store)
        let passes = StepComposition.passes(of: plan.steps, options: options).count
        do {
            _ = try await migrator.migrate(storeAt: store)
        } catch {
            return ("refused: \(error.message)", passes)
        }
        let output = folder.file("export.json")
        try Store.open(at: store, bundle: bundle).exportJSON(to: output)
        return (try String(contentsOfFile: output, encoding: .utf8), passes)
    }
}
