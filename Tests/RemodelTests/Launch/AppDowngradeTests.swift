import Foundation
import Testing

@testable import Remodel
@testable import RemodelModel

/// A store written by a newer app, opened by an older one: the recorded version name decides, never a
/// match of hashes with an older version (the issue's reproduction: `App 4` has `App 2`'s schema again).
struct AppDowngradeTests {
    private static let withEmail =
        #"<entity name="Contact"><attribute name="name" attributeType="String"/><attribute name="email" optional="YES" attributeType="String"/></entity>"#
    private static let withoutEmail =
        #"<entity name="Contact"><attribute name="name" attributeType="String"/></entity>"#
    private static let versions = [
        ("App", withoutEmail), ("App 2", withEmail), ("App 3", withoutEmail), ("App 4", withEmail),
    ]

    /// The newer app's store at `App 4` with two contacts and their emails; the older app's bundle (no `App 4`).
    private func downgrade(order: String? = nil) throws -> (folder: TemporaryFolder, store: String, older: ModelBundle)
    {
        let folder = try TemporaryFolder()
        try FileManager.default.createDirectory(atPath: folder.file("new"), withIntermediateDirectories: true)
        try FileManager.default.createDirectory(atPath: folder.file("old"), withIntermediateDirectories: true)
        let newer = try ModelBundle(
            contentsOf: try BundleWriting.write("App", in: folder.file("new"), versions: Self.versions))
        let store = folder.file("app.sqlite")
        let seed = try folder.write(
            #"{"Contact": [{"name": "Ada", "email": "ada@example.com"}, {"name": "Grace", "email": "grace@example.com"}]}"#,
            to: "seed.json")
        _ = try Store.create(at: store, bundle: newer, version: "App 4", seed: seed)
        #expect(newer.version(named: "App 4")?.entityHashes == newer.version(named: "App 2")?.entityHashes)
        let older = try ModelBundle(
            contentsOf: try BundleWriting.write(
                "App", in: folder.file("old"), versions: Array(Self.versions.prefix(3)), order: order))
        return (folder, store, older)
    }

    @Test func theOlderAppRefusesTheNewerStoreUntouched() async throws {
        let (folder, store, older) = try downgrade()
        let before = try fileBytes(store)
        let inspection = try StoreInspector.inspect(path: store, bundle: older)
        #expect(inspection.state == .newer(versionName: "App 4"))
        #expect(inspection.message.contains(#"(this bundle has "App", "App 2", "App 3")"#))
        await #expect(throws: RemodelError.self) { _ = try await Store.launch(at: store, bundle: older) }
        do {
            _ = try await Store.launch(at: store, bundle: older)
        } catch {
            #expect(error.code == .newerStore)
        }
        do {
            _ = try await Migrator(bundle: older).migrate(storeAt: store)
            Issue.record("the newer store was migrated")
        } catch {
            #expect(error.code == .newerStore)
        }
        #expect(throws: RemodelError.self) { _ = try Migrator(bundle: older).plan(storeAt: store) }
        #expect(try fileBytes(store) == before)
        #expect(try folder.contents() == ["app.sqlite", "new", "old", "seed.json"])
    }

    @Test func theCommandLineSaysWhichVersionsItKnows() throws {
        let (folder, store, _) = try downgrade()
        let before = try fileBytes(store)
        let bundlePath = folder.file("old/App.xcdatamodeld")
        for command in [
            ["status", store, "--model", bundlePath], ["migrate", store, "--model", bundlePath, "--progress", "none"],
        ] {
            let result = try RemodelProcess.run(command)
            #expect(result.status != 0, "\(command[0])")
            #expect((result.output + result.error).contains(#"is at version "App 4""#), "\(command[0])")
            #expect(
                (result.output + result.error).contains(#"(this bundle has "App", "App 2", "App 3")"#), "\(command[0])")
        }
        #expect(try fileBytes(store) == before)
    }

    /// A version folder really renamed (`App 4` is now called `App 2b`): declared in the order file, the store
    /// opens at the renamed version, and a migration records the new name.
    @Test func aDeclaredFormerNameStillOpens() async throws {
        let folder = try TemporaryFolder()
        let oldBundle = try ModelBundle(
            contentsOf: try BundleWriting.write(
                "App", in: folder.path, versions: [("App", Self.withoutEmail), ("Beta", Self.withEmail)]))
        let store = folder.file("app.sqlite")
        _ = try Store.create(at: store, bundle: oldBundle, version: "Beta")
        try FileManager.default.moveItem(
            atPath: folder.file("App.xcdatamodeld/Beta.xcdatamodel"),
            toPath: folder.file("App.xcdatamodeld/App 2.xcdatamodel"))
        try FileManager.default.removeItem(atPath: folder.file("App.xcdatamodeld/.xccurrentversion"))
        let undeclared = try ModelBundle(contentsOf: folder.file("App.xcdatamodeld"))
        #expect(try StoreInspector.inspect(path: store, bundle: undeclared).state == .newer(versionName: "Beta"))
        try Data("App\nApp 2 <- Beta\n".utf8).write(
            to: URL(fileURLWithPath: folder.file("App.xcdatamodeld/.remodel-version-order")))
        let declared = try ModelBundle(contentsOf: folder.file("App.xcdatamodeld"))
        #expect(declared.formerVersionNames == ["Beta": "App 2"])
        #expect(try StoreInspector.inspect(path: store, bundle: declared).state == .current(version: "App 2"))
        let (opened, outcome) = try await Store.launch(at: store, bundle: declared)
        #expect(outcome == .opened)
        #expect(opened.version.name == "App 2")
    }

    /// A former name that is a version's name now, or declared for two versions, is an error in the order file.
    @Test func formerNamesThatClashAreDiagnosed() throws {
        let folder = try TemporaryFolder()
        let bundle = try BundleWriting.write(
            "App", in: folder.path,
            versions: [("App", Self.withoutEmail), ("App 2", Self.withEmail), ("App 3", Self.withoutEmail)],
            order: "App\nApp 2 <- App 3 <- Old\nApp 3 <- Old\n")
        let diagnostics = ModelReader.read(path: bundle).diagnostics.map(\.description)
        let file = "\(bundle)/.remodel-version-order"
        #expect(
            diagnostics == [
                "\(file):2:1: error: 'App 3' is declared a former name of 'App 2', but it is a version of this bundle; a former name must be one no version has now [version-order-former-name]",
                "\(file):3:1: error: 'Old' is declared a former name of both 'App 2' and 'App 3'; keep it on one line [version-order-former-name]",
            ])
    }
}
