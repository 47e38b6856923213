import Foundation
import Testing

@testable import Remodel

/// Every refusal names the user's file — the store, the JSON file, the Core Data store — never one of
/// Remodel's own temporary files or tables, which the user cannot find or act on: import, create, migrate
/// (composed and step by step), downgrade, rollback and import-core-data, through the API and the command.
@Suite struct MessagesNameTheUsersFileTests {
    /// App 2 makes Person.nick required with the default "anon", App 3 makes Person.age a String.
    static let appVersions = [
        (
            "App",
            #"<entity name="Person"><attribute name="name" optional="YES" attributeType="String"/><attribute name="nick" optional="YES" attributeType="String"/><attribute name="age" optional="YES" attributeType="Integer 32"/></entity>"#
        ),
        (
            "App 2",
            #"<entity name="Person"><attribute name="name" optional="YES" attributeType="String"/><attribute name="nick" attributeType="String" defaultValueString="anon"/><attribute name="age" optional="YES" attributeType="Integer 32"/></entity>"#
        ),
        (
            "App 3",
            #"<entity name="Person"><attribute name="name" optional="YES" attributeType="String"/><attribute name="nick" attributeType="String" defaultValueString="anon"/><attribute name="age" optional="YES" attributeType="String"/></entity>"#
        ),
    ]

    /// One refusal: what it is, the file it must name, and the text a person reads.
    struct Refusal: CustomStringConvertible {
        var name: String
        var file: String
        var text: String
        var description: String { "\(name): \(text)" }
    }

    /// The message of the error `body` throws (or a note that it threw none).
    private static func message(_ body: () async throws -> Void) async -> String {
        do {
            try await body()
            return "(not refused)"
        } catch let error as RemodelError {
            return error.description
        } catch {
            return "\(error)"
        }
    }

    /// `remodel arguments…`'s standard error, when it fails.
    private static func command(_ arguments: [String]) throws -> String {
        let run = try RemodelProcess.run(arguments)
        return run.status == 0 ? "(not refused)" : run.error
    }

    @Test func everyRefusalNamesTheUsersFileNeverATemporaryOne() async throws {
        let folder = try TemporaryFolder()
        var refusals: [Refusal] = []
        let library = try MigrationFixtures.library()
        let mappings = MigrationFixtures.libraryMappings
        let model = Reliability.modelPath

        // import: a value of the wrong type, a file that is not JSON, into a store that is not there.
        let store = folder.file("library.sqlite")
        try Reliability.makeStore(at: store, people: 20)
        let wrong = try folder.write(#"{"Person": [{"firstName": 3, "lastName": "X"}]}"#, to: "wrong.json")
        let broken = try folder.write(#"{"Person": [{"firstName": "#, to: "broken.json")
        // `import` fills a store at the current version only.
        let current = folder.file("current.sqlite")
        _ = try Store.create(at: current, bundle: library)
        let wrongNow = try folder.write(#"{"Person": [{"fullName": 3}]}"#, to: "wrong-now.json")
        refusals.append(
            Refusal(
                name: "import, wrong value", file: wrongNow,
                text: try Self.command(["import", current, wrongNow, "--model", model])))
        refusals.append(
            Refusal(
                name: "import, not JSON", file: broken,
                text: try Self.command(["import", current, broken, "--model", model])))
        refusals.append(
            Refusal(
                name: "import, no store", file: folder.file("none.sqlite"),
                text: try Self.command(["import", folder.file("none.sqlite"), wrong, "--model", model])))
        // create: a seed with a wrong value is read into the store being built beside the new one.
        refusals.append(
            Refusal(
                name: "create --seed", file: wrong,
                text: try Self.command([
                    "create", folder.file("new.sqlite"), "--model", model, "--version", "Library", "--seed", wrong,
                ])))

        // migrate: the app's unique index refuses the default a step fills in, composed and step by step.
        let app = try BundleWriting.write("App", in: folder.path, versions: Self.appVersions)
        for composed in [true, false] {
            let indexed = folder.file("indexed-\(composed).sqlite")
            _ = try Store.create(
                at: indexed, bundle: try ModelBundle(contentsOf: app), version: "App",
                seed: try folder.write(
                    #"{"Person": [{"_pk": 1, "name": "Ada"}, {"_pk": 2, "name": "Grace"}]}"#, to: "app.json"))
            try SQLiteConnection(path: indexed).execute("CREATE UNIQUE INDEX app_nick ON Person (nick)")
            refusals.append(
                Refusal(
                    name: "migrate, app's unique index, composed \(composed)", file: indexed,
                    text: try Self.command(
                        ["migrate", indexed, "--model", app, "--progress", "none"]
                            + (composed ? [] : ["--step-by-step"]))))
        }
        // migrate: the disk fills up while the migrated store is written, composed and step by step.
        for composed in [true, false] {
            let full = folder.file("full-\(composed).sqlite")
            try Reliability.makeStore(at: full, people: 300)
            var options = MigrationOptions(mappingsDirectory: mappings)
            options.maximumPageCount = 5
            options.batchSize = 100
            options.composesSteps = composed
            refusals.append(
                Refusal(
                    name: "migrate, disk full, composed \(composed)", file: full,
                    text: await Self.message {
                        try await Migrator(bundle: library, options: options).migrate(storeAt: full)
                    }))
        }
        // migrate: data that breaks the new version's rules; a step that cannot be planned.
        let required = try MigrationCase(fixture: "RequiredNil")
        refusals.append(
            Refusal(
                name: "migrate, validation", file: required.store,
                text: await Self.message {
                    try await required.migrate(
                        MigrationOptions(mappingsDirectory: MigrationFixtures.mappings("RequiredNil")))
                }))
        let notInferable = try MigrationCase(fixture: "NotInferable")
        refusals.append(
            Refusal(
                name: "migrate, not plannable", file: notInferable.bundle.path,
                text: await Self.message { try await notInferable.migrate() }))

        // downgrade: values the older version has no place for; rollback: no backup, then a store written since.
        let lossy = try DowngradeScene(seed: DowngradeScene.lossySeed)
        refusals.append(
            Refusal(
                name: "downgrade, lossless", file: lossy.store,
                text: try Self.command([
                    "migrate", lossy.store, "--model", lossy.olderPath, "--downgrade", "lossless", "--progress", "none",
                ])))
        refusals.append(Refusal(name: "rollback, no backup", file: store, text: try Self.command(["rollback", store])))
        let kept = folder.file("kept.sqlite")
        try Reliability.makeStore(at: kept, people: 5)
        _ = try Reliability.remodel(Reliability.migrateArguments(kept) + ["--keep-backup"])
        try SQLiteConnection(path: kept).execute("UPDATE Person SET age = 1")
        refusals.append(
            Refusal(name: "rollback, written since", file: kept, text: try Self.command(["rollback", kept])))

        // import-core-data: a damaged store, a file that is no Core Data store, a target that exists.
        let coreData = folder.file("Zoo.sqlite")
        try CoreDataStoreBuilder.zoo(at: coreData)
        let zoo = try BundleWriting.write(
            "Zoo", in: folder.path, versions: [("Zoo 1", CoreDataStoreBuilder.zooEntities)])
        // The animals' table damaged, its schema and Core Data's metadata whole: the import fails while it copies.
        let damaged = folder.file("Damaged.sqlite")
        let root = try SQLiteConnection(path: coreData, mode: .readOnly).scalar(
            "SELECT rootpage FROM sqlite_master WHERE name = 'ZANIMAL'")
        guard case .integer(let page)? = root else {
            Issue.record("no ZANIMAL table")
            return
        }
        var bytes = try Data(contentsOf: URL(fileURLWithPath: coreData))
        let pageSize = Int(bytes[16]) << 8 | Int(bytes[17])
        for offset in (Int(page) - 1) * pageSize..<Int(page) * pageSize { bytes[offset] = 0xA5 }
        try bytes.write(to: URL(fileURLWithPath: damaged))
        refusals.append(
            Refusal(
                name: "import-core-data, damaged", file: damaged,
                text: try Self.command([
                    "import-core-data", damaged, "--model", zoo, "--into", folder.file("from-damaged.sqlite"),
                ])))
        refusals.append(
            Refusal(
                name: "import-core-data, not Core Data", file: store,
                text: try Self.command([
                    "import-core-data", store, "--model", zoo, "--into", folder.file("from-remodel.sqlite"),
                ])))
        refusals.append(
            Refusal(
                name: "import-core-data, target there", file: store,
                text: try Self.command(["import-core-data", coreData, "--model", zoo, "--into", store])))

        for refusal in refusals {
            if ProcessInfo.processInfo.environment["REMODEL_PRINT_REFUSALS"] != nil { print(refusal) }
            #expect(refusal.text != "(not refused)", "\(refusal)")
            expectNoTemporaryName(refusal.text)
            #expect(refusal.text.contains(refusal.file), "does not name \(refusal.file): \(refusal)")
        }
        let left = try folder.contents().filter { name in remodelTemporaryNames.contains { name.contains($0) } }
        #expect(left.isEmpty, "temporary files left: \(left)")
    }
}
