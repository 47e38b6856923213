import Foundation
import Testing

@testable import Remodel

/// A downgrade's mapping comes from the same engine as any step's: renaming identifiers (read
/// backwards: they sit on the newer version), and mapping files for the downward pair when present.
struct DowngradeMappingTests {
    /// `App` → `App 2` renamed `Contact.phone` to `telephone` and the entity `Contact` to `Person`, with
    /// renaming identifiers on `App 2`; a store at `App 2` goes back to `App` with every value in place.
    @Test func renamingIdentifiersAreFollowedBackwards() async throws {
        let folder = try TemporaryFolder()
        let old =
            #"<entity name="Contact"><attribute name="name" attributeType="String"/><attribute name="phone" optional="YES" attributeType="String"/></entity>"#
        let new =
            #"<entity name="Person" elementID="Contact"><attribute name="name" attributeType="String"/><attribute name="telephone" optional="YES" attributeType="String" elementID="phone"/></entity>"#
        let (store, older) = try Self.newerStore(
            in: folder, versions: [("App", old), ("App 2", new)],
            seed:
                #"{"Person": [{"_pk": 1, "name": "Ada", "telephone": "+44 1"}, {"_pk": 2, "name": "Grace", "telephone": null}]}"#
        )
        let plan = try Migrator(bundle: older, options: DowngradeScene.options(.lossless)).plan(storeAt: store)
        #expect(plan.losses.allSatisfy { $0.count == 0 }, "\(plan.losses)")
        #expect(
            plan.description.contains(
                "  Contact from Person: transform (inferred: renamed from Person (renaming identifier))\n"),
            "\(plan.description)")
        #expect(
            plan.description.contains(
                "      phone = $source.telephone  [inferred: renamed from telephone (renaming identifier)]\n"),
            "\(plan.description)")
        _ = try await Migrator(bundle: older, options: DowngradeScene.options(.lossless)).migrate(storeAt: store)
        expectSameText(
            try Store.openForReading(at: store, bundle: older).exportJSONString(),
            """
            {
              "Contact": [
                {"_pk": 1, "name": "Ada", "phone": "+44 1"},
                {"_pk": 2, "name": "Grace", "phone": null}
              ]
            }

            """)
    }

    /// `App 2` replaced the required `title` with `name`: inference alone cannot fill `title` going back
    /// (and would drop `name`); a mapping file for `App 2` → `App` says how, and nothing is lost.
    @Test func aMappingFileForTheDownwardPairIsUsed() async throws {
        let folder = try TemporaryFolder()
        let old = #"<entity name="Note"><attribute name="title" attributeType="String"/></entity>"#
        let new = #"<entity name="Note"><attribute name="name" attributeType="String"/></entity>"#
        let (store, older) = try Self.newerStore(
            in: folder, versions: [("App", old), ("App 2", new)],
            seed: #"{"Note": [{"_pk": 1, "name": "first"}, {"_pk": 2, "name": "second"}]}"#)
        let before = try fileBytes(store)
        // Without the file: the step cannot be planned (title is required and new), and the store stays as it was.
        do {
            _ = try await Migrator(bundle: older, options: DowngradeScene.options(.lossless)).migrate(storeAt: store)
            Issue.record("migrated down without a way to fill title")
        } catch {
            #expect(error.code == .migrationNotPlannable)
            #expect(
                error.message.contains(
                    "App 2 → App: Note.title: String attribute is new and required, with no default value"), "\(error)")
        }
        #expect(try fileBytes(store) == before)

        let mappings = folder.file("Mappings")
        try FileManager.default.createDirectory(atPath: mappings, withIntermediateDirectories: true)
        _ = try folder.write(
            #"<mapping model="App" sourceVersion="App 2" destinationVersion="App"><entity source="Note" destination="Note"><attribute name="title" value="uppercase($source.name)"/></entity></mapping>"#,
            to: "Mappings/down.xml")
        // A file for versions this older build lacks (a newer build's step) does not stop the downgrade.
        _ = try folder.write(
            #"<mapping model="App" sourceVersion="App 2" destinationVersion="App 3"><entity source="Note" destination="Note"/></mapping>"#,
            to: "Mappings/newer.xml")
        var options = DowngradeScene.options(.lossless)
        options.mappingsDirectory = mappings
        let report = try await Migrator(bundle: older, options: options).migrate(storeAt: store)
        #expect(report.isDowngrade)
        #expect(report.losses.isEmpty, "\(report.losses)")
        expectSameText(
            try Store.openForReading(at: store, bundle: older).exportJSONString(),
            """
            {
              "Note": [
                {"_pk": 1, "title": "FIRST"},
                {"_pk": 2, "title": "SECOND"}
              ]
            }

            """)
        let history = try #require(try DowngradeScene.metadataValue("history", in: store))
        #expect(report.sourceVersion == "App 2")
        #expect(
            history.contains(#"{"from": "App 2", "to": "App", "#)
                && history.contains(#""mapping": "\#(mappings)/down.xml"}"#), "\(history)")
    }

    /// `App 2` made `List.items` ordered: going back keeps the links but not their order, which is a stored
    /// value too: a lossless downgrade refuses a store whose lists have items, and takes one whose lists do not.
    @Test func anOrderTheOlderVersionCannotKeepIsALoss() async throws {
        func list(ordered: Bool) -> String {
            #"<entity name="List"><attribute name="name" attributeType="String"/><relationship name="items" optional="YES" toMany="YES" "#
                + (ordered ? #"ordered="YES" "# : "")
                + #"deletionRule="Nullify" destinationEntity="Item" inverseName="list" inverseEntity="Item"/></entity><entity name="Item"><attribute name="label" attributeType="String"/><relationship name="list" optional="YES" maxCount="1" deletionRule="Nullify" destinationEntity="List" inverseName="items" inverseEntity="List"/></entity>"#
        }
        let versions = [("App", list(ordered: false)), ("App 2", list(ordered: true))]
        let folder = try TemporaryFolder()
        let (store, older) = try Self.newerStore(
            in: folder, versions: versions,
            seed:
                #"{"List": [{"_pk": 1, "name": "groceries", "items": [3, 2, 4]}, {"_pk": 5, "name": "empty", "items": []}], "Item": [{"_pk": 2, "label": "b"}, {"_pk": 3, "label": "a"}, {"_pk": 4, "label": "c"}]}"#
        )
        let before = try fileBytes(store)
        do {
            _ = try await Migrator(bundle: older, options: DowngradeScene.options(.lossless)).migrate(storeAt: store)
            Issue.record("migrated down, losing the order")
        } catch {
            #expect(error.code == .downgradeLosesData)
            #expect(error.message.contains("\n  - List.items (its order) (3 values)\n"), "\(error)")
        }
        #expect(try fileBytes(store) == before)

        let emptyFolder = try TemporaryFolder()
        let (empty, emptyOlder) = try Self.newerStore(
            in: emptyFolder, versions: versions,
            seed: #"{"List": [{"_pk": 1, "name": "groceries", "items": []}], "Item": [{"_pk": 2, "label": "b"}]}"#)
        #expect(
            try await Migrator(bundle: emptyOlder, options: DowngradeScene.options(.lossless)).migrate(storeAt: empty)
                .isDowngrade)
    }

    /// Writes the newer bundle (every version) and the older one (all but the last), and a store at the
    /// last version made with `seed`.
    static func newerStore(in folder: TemporaryFolder, versions: [(String, String)], seed: String) throws -> (
        String, ModelBundle
    ) {
        try FileManager.default.createDirectory(atPath: folder.file("new"), withIntermediateDirectories: true)
        try FileManager.default.createDirectory(atPath: folder.file("old"), withIntermediateDirectories: true)
        let newer = try ModelBundle(
            contentsOf: try BundleWriting.write("App", in: folder.file("new"), versions: versions))
        let older = try ModelBundle(
            contentsOf: try BundleWriting.write("App", in: folder.file("old"), versions: Array(versions.dropLast())))
        let store = folder.file("app.sqlite")
        _ = try Store.create(at: store, bundle: newer, seed: try folder.write(seed, to: "seed.json"))
        return (store, older)
    }
}

extension DowngradeMappingTests {
    /// A mistake in the downward pair's own file stops the downgrade, naming the file and position.
    @Test func aWrongDownwardMappingFileStopsTheDowngrade() async throws {
        let folder = try TemporaryFolder()
        let old = #"<entity name="Note"><attribute name="title" attributeType="String"/></entity>"#
        let new = #"<entity name="Note"><attribute name="name" attributeType="String"/></entity>"#
        let (store, older) = try Self.newerStore(
            in: folder, versions: [("App", old), ("App 2", new)], seed: #"{"Note": [{"_pk": 1, "name": "first"}]}"#)
        let before = try fileBytes(store)
        try FileManager.default.createDirectory(atPath: folder.file("Mappings"), withIntermediateDirectories: true)
        let file = try folder.write(
            #"<mapping model="App" sourceVersion="App 2" destinationVersion="App"><entity source="Note" destination="Note"><attribute name="title" value="$source.nam"/></entity></mapping>"#,
            to: "Mappings/down.xml")
        var options = DowngradeScene.options(.lossless)
        options.mappingsDirectory = folder.file("Mappings")
        do {
            _ = try await Migrator(bundle: older, options: options).migrate(storeAt: store)
            Issue.record("migrated down with a wrong mapping file")
        } catch {
            #expect(error.code == .invalidMapping)
            #expect(error.location?.file == file, "\(error)")
        }
        #expect(try fileBytes(store) == before)
    }
}

extension DowngradeMappingTests {
    /// An Xcode mapping model from the newer version to the older one is read as the downward pair's mapping.
    @Test func anXcodeMappingModelForTheDownwardPairIsUsed() async throws {
        typealias E = XcodeExpression
        let folder = try TemporaryFolder()
        let old = #"<entity name="Note"><attribute name="title" attributeType="String"/></entity>"#
        let new = #"<entity name="Note"><attribute name="name" attributeType="String"/></entity>"#
        let (store, older) = try Self.newerStore(
            in: folder, versions: [("App", old), ("App 2", new)],
            seed: #"{"Note": [{"_pk": 1, "name": "first"}, {"_pk": 2, "name": "second"}]}"#)
        try FileManager.default.createDirectory(atPath: folder.file("Mappings"), withIntermediateDirectories: true)
        let fixture = XcodeMappingFixture(
            sourcePath: "App.xcdatamodeld/App 2.xcdatamodel", destinationPath: "App.xcdatamodeld/App.xcdatamodel",
            entities: [
                XcodeMappingFixture.EntityMapping(
                    source: "Note", destination: "Note",
                    attributes: [
                        .init(
                            "title",
                            E(
                                .function(
                                    operand: E(.keyPath(E(.variable("source")), "name")), selector: "uppercaseString",
                                    arguments: [])))
                    ])
            ])
        try fixture.write(in: folder.file("Mappings"), name: "Down")
        var options = DowngradeScene.options(.lossless)
        options.mappingsDirectory = folder.file("Mappings")
        let report = try await Migrator(bundle: older, options: options).migrate(storeAt: store)
        #expect(report.isDowngrade)
        expectSameText(
            try Store.openForReading(at: store, bundle: older).exportJSONString(),
            """
            {
              "Note": [
                {"_pk": 1, "title": "FIRST"},
                {"_pk": 2, "title": "SECOND"}
              ]
            }

            """)
    }
}

extension DowngradeMappingTests {
    /// `App 2` made `size` text; the downward file converts it back with `int(…)`, which gives nil for text that
    /// is no number: counted on the store before anything is written, a lossless downgrade refuses it naming the
    /// expression, the count and an object; allow-loss migrates down and reports it as the closing lines do.
    @Test func aConversionGoingDownThatGivesNilIsALoss() async throws {
        let folder = try TemporaryFolder()
        let old = #"<entity name="Box"><attribute name="size" optional="YES" attributeType="Integer 64"/></entity>"#
        let new = #"<entity name="Box"><attribute name="size" optional="YES" attributeType="String"/></entity>"#
        let (store, older) = try Self.newerStore(
            in: folder, versions: [("App", old), ("App 2", new)],
            seed: #"{"Box": [{"_pk": 1, "size": "12"}, {"_pk": 2, "size": "large"}, {"_pk": 3}]}"#)
        let mappings = folder.file("Mappings")
        try FileManager.default.createDirectory(atPath: mappings, withIntermediateDirectories: true)
        _ = try folder.write(
            #"<mapping model="App" sourceVersion="App 2" destinationVersion="App"><entity source="Box" destination="Box"><attribute name="size" value="int($source.size)"/></entity></mapping>"#,
            to: "Mappings/down.xml")
        let before = try fileBytes(store)
        var options = DowngradeScene.options(.lossless)
        options.mappingsDirectory = mappings
        do {
            _ = try await Migrator(bundle: older, options: options).migrate(storeAt: store)
            Issue.record("a lossless downgrade turned a value into nil")
        } catch {
            #expect(error.code == .downgradeLosesData)
            #expect(
                error.message.contains(
                    "would lose stored values (that \"App\" has no place for, or that a conversion turns into nil), so it was left untouched:\n  - `int($source.size)` gave nil for 1 value of Box.size, e.g. _pk 2 'large'\n"
                ), "\(error.message)")
        }
        #expect(try fileBytes(store) == before)

        options.downgrade = .allowLoss
        let report = try await Migrator(bundle: older, options: options).migrate(storeAt: store)
        #expect(
            report.losses.map(\.description) == [
                "App 2 → App: `int($source.size)` gave nil for 1 value of Box.size, e.g. _pk 2 'large'"
            ])
        let sizes = try SQLiteConnection(path: store, mode: .readOnly).rows(#"SELECT size FROM "Box" ORDER BY _pk"#)
        #expect(sizes.map { $0[0] } == [.integer(12), .null, .null])
    }
}
