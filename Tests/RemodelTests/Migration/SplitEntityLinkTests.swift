import Foundation
import Testing

@testable import Remodel
@testable import RemodelModel

/// An entity split in two links each new object to the one made from the same source object (issue 21,
/// class 7): Blog 2 splits Blog into Blog and BlogSettings, and each BlogSettings' `blog` is the Blog made
/// from its own source Blog (`source="$source"` in a mapping file, `…sourceInstances:", "BlogToBlog",
/// $source)` in an Xcode mapping model).
struct SplitEntityLinkTests {
    private static let versions = [
        (
            "Blog",
            #"<entity name="Blog"><attribute name="title" attributeType="String"/><attribute name="theme" optional="YES" attributeType="String"/></entity>"#
        ),
        (
            "Blog 2",
            #"<entity name="Blog"><attribute name="title" attributeType="String"/><relationship name="settings" optional="YES" maxCount="1" deletionRule="Cascade" destinationEntity="BlogSettings" inverseName="blog" inverseEntity="BlogSettings"/></entity>"#
                + #"<entity name="BlogSettings"><attribute name="theme" optional="YES" attributeType="String"/><relationship name="blog" maxCount="1" deletionRule="Nullify" destinationEntity="Blog" inverseName="settings" inverseEntity="Blog"/></entity>"#
        ),
    ]
    static let mapping = """
        <mapping model="Blog" sourceVersion="Blog" destinationVersion="Blog 2">
          <entity source="Blog" destination="Blog">
            <relationship name="settings" source="$source"/>
          </entity>
          <entity source="Blog" destination="BlogSettings">
            <attribute name="theme" value="$source.theme"/>
            <relationship name="blog" source="$source"/>
          </entity>
        </mapping>
        """
    private static let seed =
        #"{"Blog": [{"_pk": 3, "title": "Notes", "theme": "dark"}, {"_pk": 8, "title": "Diary", "theme": null}]}"#

    private static let migrated = """
        {
          "Blog": [
            {"_pk": 3, "title": "Notes", "settings": 3},
            {"_pk": 8, "title": "Diary", "settings": 8}
          ],
          "BlogSettings": [
            {"_pk": 3, "theme": "dark", "blog": 3},
            {"_pk": 8, "theme": null, "blog": 8}
          ]
        }

        """

    /// The Blog bundle and an empty Mappings folder beside it, and a store at Blog with the seed.
    private func project() throws -> (MigrationCase, models: TemporaryFolder) {
        let models = try TemporaryFolder()
        let bundle = try ModelBundle(
            contentsOf: try BundleWriting.write("Blog", in: models.path, versions: Self.versions))
        try FileManager.default.createDirectory(atPath: models.file("Mappings"), withIntermediateDirectories: true)
        return (try MigrationCase(bundle: bundle, seed: try models.write(Self.seed, to: "seed.json")), models)
    }

    @Test func anXcodeMappingModelLinksEachSplitObjectToTheOneMadeFromTheSameSource() async throws {
        let (store, models) = try project()
        typealias E = XcodeExpression
        func link(_ mapping: String) -> E {
            E(
                .function(
                    operand: E(.variable("manager")), selector: RelationshipTranslation.byEntityMapping,
                    arguments: [E(.constant(.string(mapping))), E(.variable("source"))]))
        }
        let fixture = XcodeMappingFixture(
            sourcePath: "/Users/someone/Blog/Blog.xcdatamodeld/Blog.xcdatamodel",
            destinationPath: "/Users/someone/Blog/Blog.xcdatamodeld/Blog 2.xcdatamodel",
            sourceSnapshot: ModelSnapshot(version: try store.bundle.loadVersion(named: "Blog")),
            destinationSnapshot: ModelSnapshot(version: try store.bundle.loadVersion(named: "Blog 2")),
            entities: [
                XcodeMappingFixture.EntityMapping(
                    source: "Blog", destination: "Blog", attributes: [.init("title")],
                    relationships: [.init("settings", link("BlogToBlogSettings"))]),
                XcodeMappingFixture.EntityMapping(
                    source: "Blog", destination: "BlogSettings",
                    attributes: [.init("theme", E(.keyPath(E(.variable("source")), "theme")))],
                    relationships: [.init("blog", link("BlogToBlog"))]),
            ])
        _ = try fixture.write(in: models.file("Mappings"), name: "BlogToBlog2")
        try await store.migrate(MigrationOptions(mappingsDirectory: models.file("Mappings")))
        expectSameText(try store.export(), Self.migrated)
    }

    @Test func aMappingFileLinksEachSplitObjectToTheOneMadeFromTheSameSource() async throws {
        let (store, models) = try project()
        _ = try models.write(Self.mapping, to: "Mappings/split.xml")
        try await store.migrate(MigrationOptions(mappingsDirectory: models.file("Mappings")))
        expectSameText(try store.export(), Self.migrated)
    }

    @Test func sourceObjectLinksNeedAnEntityMappingThatMakesTheTargetFromTheSameSource() async throws {
        let (store, models) = try project()
        _ = try models.write(
            """
            <mapping model="Blog" sourceVersion="Blog" destinationVersion="Blog 2">
              <entity source="Blog" destination="Blog">
                <relationship name="settings" source="$source"/>
              </entity>
              <entity destination="BlogSettings"/>
            </mapping>
            """, to: "Mappings/split.xml")
        try await expectRefusedUntouched(
            .invalidMapping,
            .description(
                "\(models.file("Mappings/split.xml")):3:5: Blog.settings is rebuilt from $source, the object made from the same Blog object, but no entity mapping makes a BlogSettings from Blog; map Blog to BlogSettings as well (an entity split in two), or rebuild it from a relationship of Blog"
            ), folder: store.folder.path
        ) {
            try await store.migrate(MigrationOptions(mappingsDirectory: models.file("Mappings")))
        }
    }
}
