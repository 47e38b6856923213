import Foundation
import Testing

@testable import Remodel
@testable import RemodelTesting

/// A model that `remodel validate` rejects is never used: every command and API that reads a model refuses
/// it before a store is opened or made, printing the errors as `validate` does, and leaves every file as it
/// was. Only the versions an operation reads are checked.
@Suite struct ModelWithErrorsTests {
    static let zoo = #"<entity name="Pet"><attribute name="name" attributeType="String"/></entity>"#
    /// An unknown attribute type, a relationship to a missing entity, an entity defined twice.
    static let broken = """
        <entity name="Pet"><attribute name="name" attributeType="String"/><attribute name="weight" attributeType="Float 80"/><relationship name="keeper" optional="YES" maxCount="1" deletionRule="Nullify" destinationEntity="Keeper"/></entity>
        <entity name="Pet"><attribute name="age" attributeType="Integer 16"/></entity>
        """
    /// A minimum above the maximum: an error that leaves the version's hashes as they were.
    static let boundsSwapped =
        #"<entity name="Pet"><attribute name="name" attributeType="String" minValueString="5" maxValueString="1"/></entity>"#

    /// The three errors of ``broken`` in version "Zoo 2" of the bundle at `bundle`, as `validate` prints them.
    static func brokenLines(_ bundle: String) -> String {
        let file = bundle + "/Zoo 2.xcdatamodel/contents"
        return """
            \(file):3:107: error: attribute 'Pet.weight' has type 'Float 80', which is not a Core Data attribute type; use one of Integer 16, Integer 32, Integer 64, Decimal, Double, Float, String, Boolean, Date, Binary, UUID, URI, Transformable, ObjectID, Composite [unknown-attribute-type]
            \(file):3:216: error: relationship 'Pet.keeper' has destination entity 'Keeper', which does not exist; add it or choose another destination [missing-destination]
            \(file):4:15: error: entity 'Pet' is defined twice in version 'Zoo 2'; rename or remove one of them [duplicate-entity]

            """
    }

    static func refusal(_ bundle: String, errors: String = "3 errors") -> String {
        "\(bundle): model \"Zoo\" has \(errors) in version \"Zoo 2\", which `remodel validate` reports; Remodel does not use a model with errors, so no store was opened or changed: fix the model, then try again"
    }

    /// A folder with the bundle (versions "Zoo", then "Zoo 2" as given) and, when `storeAt` is given, a
    /// store `zoo.sqlite` made at that version with one pet.
    private func scene(_ zoo2: String, storeAt version: String? = nil) throws -> (TemporaryFolder, String, String) {
        let folder = try TemporaryFolder()
        let bundle = try BundleWriting.write("Zoo", in: folder.path, versions: [("Zoo", Self.zoo), ("Zoo 2", zoo2)])
        let store = folder.file("zoo.sqlite")
        if let version {
            _ = try Store.create(
                at: store, bundle: try ModelBundle(contentsOf: bundle), version: version,
                seed: try folder.write(#"{"Pet": [{"_pk": 1, "name": "Rex"}]}"#, to: "seed.json"))
        }
        return (folder, store, bundle)
    }

    @Test func everyCommandRefusesAModelWithErrorsBeforeOpeningTheStore() throws {
        let (folder, store, bundle) = try scene(Self.broken, storeAt: "Zoo")
        let printed = Self.brokenLines(bundle) + "error: \(Self.refusal(bundle))\n"
        let commands: [([String], Int32)] = [
            (["create", folder.file("new.sqlite"), "--model", bundle], 1),
            (["migrate", store, "--model", bundle, "--progress", "none"], 1),
            (["migrate", store, "--model", bundle, "--dry-run"], 1),
            (["seed", bundle, "--version", "Zoo 2"], 1),
            (["generate", bundle, "--output", folder.file("Records")], 1),
            (["diff", bundle], 1),
            (
                [
                    "import-core-data", try CoreDataStoreBuilder.zoo(at: folder.file("CoreData.sqlite")), "--model",
                    bundle, "--into", folder.file("imported.sqlite"),
                ], 1
            ),
        ]
        for (arguments, status) in commands {
            try expectCommandRefusedUntouched(arguments, status: status, error: printed, folder: folder.path)
        }
        // `status` says what the store is (its own version has no error), then why it cannot be migrated.
        let before = try FolderSnapshot(folder.path)
        let status = try RemodelProcess.run(["status", store, "--model", bundle])
        #expect(status.status == 1)
        expectSameText(
            status.error,
            Self.brokenLines(bundle) + "error: the store cannot be migrated yet: \(Self.refusal(bundle))\n")
        #expect(try FolderSnapshot(folder.path) == before)
    }

    @Test func everyAPIRefusesAModelWithErrorsBeforeOpeningTheStore() async throws {
        let (folder, store, bundlePath) = try scene(Self.broken, storeAt: "Zoo")
        let bundle = try ModelBundle(contentsOf: bundlePath)
        let text = RefusalText.description(Self.refusal(bundlePath))
        let error = try await expectRefusedUntouched(.invalidModel, text, folder: folder.path) {
            _ = try await Store.launch(at: folder.file("new.sqlite"), bundle: bundle)
        }
        expectSameText(error?.diagnostics.map { $0.description + "\n" }.joined() ?? "", Self.brokenLines(bundlePath))
        try await expectRefusedUntouched(.invalidModel, text, folder: folder.path) {
            _ = try await Store.launch(at: store, bundle: bundle)
        }
        try await expectRefusedUntouched(.invalidModel, text, folder: folder.path) {
            try await Migrator(bundle: bundle).migrate(storeAt: store)
        }
        try expectRefusedUntouched(.invalidModel, text, folder: folder.path) {
            _ = try Migrator(bundle: bundle).plan(storeAt: store)
        }
        try expectRefusedUntouched(.invalidModel, text, folder: folder.path) {
            _ = try Store.create(at: folder.file("new.sqlite"), bundle: bundle)
        }
        try expectRefusedUntouched(.invalidModel, text, folder: folder.path) {
            _ = try SeedGenerator(bundle: bundle, version: "Zoo 2")
        }
        try expectRefusedUntouched(.invalidModel, text, folder: folder.path) {
            _ = try ModelDiff(bundle: bundle, from: "Zoo", to: "Zoo 2")
        }
        // The version the store is at has no error: it opens, exports and imports.
        let opened = try Store.open(at: store, bundle: bundle)
        #expect(opened.version.name == "Zoo")
    }

    /// A store made before its version got an error that changes no hash (a minimum above the maximum) is
    /// refused by everything that would read it through that version: no store is "stamped" with a model
    /// `validate` rejects, and fixing the model finds the store as it was.
    @Test func aStoreAtAVersionWithErrorsIsNotOpenedExportedOrImportedInto() async throws {
        let (folder, store, bundlePath) = try scene(Self.zoo, storeAt: "Zoo 2")
        let contents = bundlePath + "/Zoo 2.xcdatamodel/contents"
        let fixed = try Data(contentsOf: URL(fileURLWithPath: contents))
        try Data(
            String(decoding: fixed, as: UTF8.self).replacingOccurrences(of: Self.zoo, with: Self.boundsSwapped).utf8
        ).write(to: URL(fileURLWithPath: contents))
        let line =
            "\(contents):3:82: error: attribute 'Pet.name' has minimum 5, greater than its maximum 1, so no value is valid; swap or correct them [min-greater-than-max]\n"
        let printed = line + "error: \(Self.refusal(bundlePath, errors: "an error"))\n"
        let json = try folder.write(#"{"Pet": [{"name": "Tom"}]}"#, to: "more.json")
        for arguments in [
            ["export", store, "--model", bundlePath], ["import", store, json, "--model", bundlePath],
            ["status", store, "--model", bundlePath],
        ] {
            try expectCommandRefusedUntouched(arguments, error: printed, folder: folder.path)
        }
        let bundle = try ModelBundle(contentsOf: bundlePath)
        try await expectRefusedUntouched(
            .invalidModel, .description(Self.refusal(bundlePath, errors: "an error")), folder: folder.path
        ) {
            _ = try await Store.launch(at: store, bundle: bundle)
        }
        try fixed.write(to: URL(fileURLWithPath: contents))
        let (reopened, outcome) = try await Store.launch(at: store, bundle: try ModelBundle(contentsOf: bundlePath))
        #expect(outcome == .opened && reopened.version.name == "Zoo 2")
    }

    /// A launch checks the version it reads and no other: an error in the current version refuses it, with
    /// nothing created; an error in an older version does not stop it (a migration from there would be refused).
    @Test func aLaunchChecksTheVersionItReadsAndNoOther() async throws {
        let broken = try TemporaryFolder()
        let brokenPath = try BundleWriting.write(
            "Zoo", in: broken.path, versions: [("Zoo", Self.zoo), ("Zoo 2", Self.boundsSwapped)])
        try await expectRefusedUntouched(
            .invalidModel, .description(Self.refusal(brokenPath, errors: "an error")), folder: broken.path
        ) {
            _ = try await Store.launch(at: broken.file("zoo.sqlite"), bundle: try ModelBundle(contentsOf: brokenPath))
        }

        let folder = try TemporaryFolder()
        let bundlePath = try BundleWriting.write(
            "Zoo", in: folder.path, versions: [("Zoo", Self.boundsSwapped), ("Zoo 2", Self.zoo)])
        let bundle = try ModelBundle(contentsOf: bundlePath)
        let (_, created) = try await Store.launch(at: folder.file("zoo.sqlite"), bundle: bundle)
        #expect(created == .created)
        let (_, opened) = try await Store.launch(at: folder.file("zoo.sqlite"), bundle: bundle)
        #expect(opened == .opened)
        #expect(bundle.loadedVersionNames == ["Zoo 2"])
    }
}
