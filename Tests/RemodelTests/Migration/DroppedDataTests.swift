import Foundation
import Testing

@testable import Remodel
@testable import RemodelModel

/// The plan, the report and `diff` say what a migration drops on purpose, with how many stored values
/// each drop loses (the issue "No data lost", item 14): the demo's `email`, which holds data before and
/// nothing after, and a removed entity's objects.
struct DroppedDataTests {
    private func library() throws -> MigrationCase {
        try MigrationCase(bundle: try MigrationFixtures.library(), seed: MigrationFixtures.path("Library", "seed.json"))
    }

    @Test func thePlanAndTheReportNameEveryDroppedPropertyWithItsValues() async throws {
        let migration = try library()
        let emails = try SQLiteConnection(path: migration.store, mode: .readOnly).scalar(
            #"SELECT count("email") FROM "Person""#)
        #expect(emails == .integer(2))
        let options = MigrationOptions(mappingsDirectory: MigrationFixtures.libraryMappings)
        let plan = try Migrator(bundle: migration.bundle, options: options).plan(storeAt: migration.store)
        #expect(plan.losses.map(\.description) == ["Library → Library 2 drops Person.email (2 values)"])
        #expect(plan.description.contains("\n  Drops Person.email (2 values)\nStep 2: Library 2 → Library 3"))
        let report = try await migration.migrate(options)
        #expect(report.losses.map(\.description) == ["Library → Library 2 drops Person.email (2 values)"])
    }

    @Test func migrateSaysWhatItDropped() throws {
        let migration = try library()
        let result = try RemodelProcess.run([
            "migrate", migration.store, "--model", "Models/Library.xcdatamodeld", "--mappings", "Mappings",
            "--progress", "none",
        ])
        #expect(result.status == 0, "\(result)")
        #expect(
            result.output.contains("\n  As the mapping says, Library → Library 2 drops Person.email (2 values)\n"),
            "\(result.output)")
    }

    @Test func aRemovedEntityIsCountedInObjectsAndALaterStepWhenItRuns() async throws {
        let folder = try TemporaryFolder()
        let path = try BundleWriting.write(
            "Notes", in: folder.path,
            versions: [
                (
                    "Notes",
                    #"<entity name="Note"><attribute name="text" optional="YES" attributeType="String"/></entity><entity name="Tag"><attribute name="name" optional="YES" attributeType="String"/></entity>"#
                ),
                (
                    "Notes 2",
                    #"<entity name="Note"><attribute name="text" optional="YES" attributeType="String"/></entity>"#
                ),
                (
                    "Notes 3",
                    #"<entity name="Note"><attribute name="title" optional="YES" attributeType="String"/></entity>"#
                ),
            ])
        let bundle = try ModelBundle(contentsOf: path)
        let store = folder.file("notes.sqlite")
        let seed = try folder.write(
            #"{"Note": [{"text": "a"}, {"text": "b"}, {}], "Tag": [{"name": "x"}, {"name": "y"}, {"name": "z"}]}"#,
            to: "seed.json")
        _ = try Store.create(at: store, bundle: bundle, version: "Notes", seed: seed)
        let plan = try Migrator(bundle: bundle).plan(storeAt: store)
        #expect(
            plan.losses.map(\.description) == [
                "Notes → Notes 2 drops Tag objects (3 objects)",
                "Notes 2 → Notes 3 drops Note.text (counted when the step runs)",
            ])
        let report = try await Migrator(bundle: bundle).migrate(storeAt: store)
        #expect(
            report.losses.map(\.description) == [
                "Notes → Notes 2 drops Tag objects (3 objects)", "Notes 2 → Notes 3 drops Note.text (2 values)",
            ])
    }

    @Test func diffAcrossSeveralVersionsNamesWhatAStepInBetweenDrops() throws {
        let diff = try ModelDiff(bundle: try MigrationFixtures.library(), from: "Library", to: "Library 3")
        #expect(
            diff.lints.map(\.description).contains(
                "warning: Person.email is dropped by the step Library → Library 2 and arrives empty in Library 3: a migration walks every version in between [data-dropped]"
            ))
    }
}
