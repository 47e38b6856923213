import Foundation
import Testing

@testable import Remodel

/// Messages and results show sentences, never Remodel's internals: the check every run of the tool goes through
/// (``InternalValues``) finds each kind of leak; a relationship read from `$source` prints as `$source` in the dry
/// run and `status`; every public result prints as a sentence (`print(outcome)`), not a dump of its fields.
struct InternalValuesTests {
    @Test func theCheckFindsEachKindOfLeak() {
        let leaks = [
            "      blog ← $source.$source  [mapping file]",
            "no object has _pk -9223372036854775808",
            "migrated(Remodel.MigrationReport(path: \"a.sqlite\", sourceVersion: \"A\"))",
            "value Optional(\"x\")",
            "cannot read /tmp/remodel-core-data-5F3A/store.sqlite",
        ]
        for leak in leaks {
            #expect(InternalValues.leaks(in: leak).count == 1, "\(leak)")
        }
        #expect(
            InternalValues.leaks(
                in:
                    "Migrated library.sqlite from Library to Library 3 in 2 steps: 3 objects written to Person and Tag, 0.02 s.\n      blog ← $source  [mapping file]"
            ).isEmpty)
    }

    /// An entity split in two, each new object linked to the one made from the same source object
    /// (`<relationship name="blog" source="$source"/>`): `$source` in the plan, once.
    @Test func aRelationshipReadFromTheSourceObjectPrintsAsSource() throws {
        let folder = try TemporaryFolder()
        let bundle = try BundleWriting.write(
            "Blog", in: folder.path,
            versions: [
                (
                    "Blog",
                    #"<entity name="Blog"><attribute name="title" attributeType="String"/><attribute name="theme" optional="YES" attributeType="String"/></entity>"#
                ),
                (
                    "Blog 2",
                    #"<entity name="Blog"><attribute name="title" attributeType="String"/><relationship name="settings" optional="YES" maxCount="1" deletionRule="Cascade" destinationEntity="BlogSettings" inverseName="blog" inverseEntity="BlogSettings"/></entity>"#
                        + #"<entity name="BlogSettings"><attribute name="theme" optional="YES" attributeType="String"/><relationship name="blog" maxCount="1" deletionRule="Nullify" destinationEntity="Blog" inverseName="settings" inverseEntity="Blog"/></entity>"#
                ),
            ])
        let mappings = folder.file("Mappings")
        try FileManager.default.createDirectory(atPath: mappings, withIntermediateDirectories: true)
        try Data(SplitEntityLinkTests.mapping.utf8).write(to: URL(fileURLWithPath: mappings + "/blog.xml"))
        let store = folder.file("blog.sqlite")
        _ = try Store.create(at: store, bundle: try ModelBundle(contentsOf: bundle), version: "Blog")
        for arguments in [
            ["migrate", store, "--model", bundle, "--mappings", mappings, "--dry-run"],
            ["status", store, "--model", bundle, "--mappings", mappings],
            ["diff", bundle, "--mappings", mappings],
        ] {
            let result = try RemodelProcess.run(arguments)
            #expect(result.status == 0, "\(result)")
            #expect(result.output.contains("      settings ← $source  [mapping file"), "\(result)")
            #expect(result.output.contains("      blog ← $source  [mapping file"), "\(result)")
            #expect(InternalValues.leaks(in: result.output).isEmpty, "\(result)")
        }
    }

    /// What an app prints of the values Remodel gives back: a sentence each.
    @Test func everyResultPrintsAsASentence() async throws {
        let folder = try TemporaryFolder()
        let bundle = try MigrationFixtures.library()
        let store = folder.file("library.sqlite")
        let seed = try folder.write(
            #"{"Person": [{"_pk": 1, "firstName": "Ada", "lastName": "Lovelace", "yearsSinceBirth": 36, "email": "ada@example.org"}]}"#,
            to: "seed.json")
        _ = try Store.create(at: store, bundle: bundle, version: "Library", seed: seed)
        let options = MigrationOptions(mappingsDirectory: MigrationFixtures.packageRoot + "/Mappings", keepBackup: true)
        let plan = try Migrator(bundle: bundle, options: options).plan(storeAt: store)
        let (_, outcome) = try await Store.launch(at: store, bundle: bundle, options: options)
        guard case .migrated(let report) = outcome else {
            Issue.record("not migrated: \(outcome)")
            return
        }
        #expect(
            "\(outcome)".hasPrefix(
                "Migrated \(store) from Library to Library 3 in 2 steps: 1 object written to Person and Tag, 1 other table carried as it was, "
            ), "\(outcome)")
        #expect(
            "\(outcome)".hasSuffix(
                " The original is kept as \(store).remodel-backup.\n  As the mapping says, Library → Library 2 drops Person.email (1 value)"
            ), "\(outcome)")
        let (_, created) = try await Store.launch(at: folder.file("new.sqlite"), bundle: bundle)
        #expect("\(created)" == "There was no store: it was created at the current version.")
        let rollback = try Store.rollback(at: store)
        #expect(
            "\(rollback)"
                == "Rolled \(store) back to the backup the migration kept: it is at version Library again (it was at Library 3)."
        )
        var tally = FleetTally(total: 2)
        for await result in Migrator(bundle: bundle, options: options).migrate(stores: [
            store, folder.file("none.sqlite"),
        ]) {
            tally.add(result)
            #expect(!"\(result)".contains("StoreMigrationResult("), "\(result)")
        }
        #expect(
            "\(tally)"
                == "2 stores: 1 migrated, 0 already current, 1 refused, 0 failed transiently, 0 not started; 1 object written"
        )
        let progress = MigrationProgress(
            phase: .validation, step: 1, steps: 2, pass: 1, passes: 1, passSteps: 1...2, entity: "Book",
            completed: 375_000, total: 400_000, fraction: 0.48, estimatedSecondsRemaining: nil)
        #expect("\(progress)" == "48% step 1/2 validation Book 375,000/400,000")
        let carried = try #require(try StoreInspector.carriedModel(path: store))
        #expect("\(carried)".hasPrefix(#"version "Library 3" of model "Library" ("#), "\(carried)")
        let values: [Any] = [
            report, outcome, rollback, tally, progress, carried, plan, plan.steps[0],
            try ModelDiff(bundle: bundle, plan: plan), try ProjectValidation.validate(paths: [Reliability.modelPath]),
        ]
        for value in values {
            #expect(InternalValues.leaks(in: "\(value)").isEmpty, "\(value)")
        }
        #expect(
            "\(plan.steps[0])"
                == "Library → Library 2 (mapping file \(MigrationFixtures.packageRoot)/Mappings/Library to Library 2.xml)"
        )
    }
}
