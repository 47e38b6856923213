import Foundation
import Testing

@testable import Remodel
@testable import RemodelCoreData

/// Which version wrote a Core Data store: found where the store tells, named (never guessed) where two
/// versions fit equally, and refused with the closest version and what differs where none fits.
@Suite(.corpusStaysUnchanged) struct CoreDataVersionTests {
    /// Zoo 2 differs from Zoo 1 only in a version hash modifier: nothing in a store tells them apart.
    static let twins = [
        ("Zoo 1", CoreDataStoreBuilder.zooEntities),
        (
            "Zoo 2",
            CoreDataStoreBuilder.zooEntities.replacingOccurrences(
                of: "<attribute name=\"name\" attributeType=\"String\"/>\n    <attribute name=\"born\"",
                with:
                    "<attribute name=\"name\" attributeType=\"String\" versionHashModifier=\"2\"/>\n    <attribute name=\"born\""
            )
        ),
    ]

    @Test func namesBothVersionsWhenTwoFitEquallyAndTakesTheOneGiven() throws {
        let folder = try TemporaryFolder()
        let source = try CoreDataStoreBuilder.zoo(at: folder.file("Zoo.sqlite"))
        let bundle = try CoreDataStoreBuilder.zooBundle(in: folder.path, versions: Self.twins)
        #expect(try bundle.loadVersion(named: "Zoo 1").entityHashes != bundle.loadVersion(named: "Zoo 2").entityHashes)
        let error = try #require(throws: RemodelError.self) {
            try Store.importCoreData(from: source, bundle: bundle, into: folder.file("new.sqlite"))
        }
        #expect(error.code == .incompatibleStore)
        #expect(
            error.message
                == "the Core Data store fits versions \"Zoo 1\" and \"Zoo 2\" of model \"Zoo\" equally (same tables, columns and indexes; Core Data's version hashes, which would tell them apart, cannot be computed outside Apple's platforms); say which one wrote it with --version"
        )
        #expect(!FileManager.default.fileExists(atPath: folder.file("new.sqlite")))

        let result = try Store.importCoreData(
            from: source, bundle: bundle, into: folder.file("new.sqlite"), version: "Zoo 2")
        #expect(result.versionName == "Zoo 2" && result.versionWasGiven)
        let metadata = try StoreMetadata.read(from: SQLiteConnection(path: folder.file("new.sqlite"), mode: .readOnly))
            .get()
        #expect(metadata.versionName == "Zoo 2")
        #expect(metadata.entityHashes == (try bundle.loadVersion(named: "Zoo 2")).entityHashes)
    }

    @Test func namesTheClosestVersionAndWhatDiffersWhenNoneFits() throws {
        let folder = try TemporaryFolder()
        let source = try CoreDataStoreBuilder.zoo(
            at: folder.file("Zoo.sqlite"),
            extraSQL: ["ALTER TABLE ZANIMAL ADD COLUMN ZCOLLAR VARCHAR", "ALTER TABLE ZZONE ADD COLUMN ZAREA FLOAT"])
        let withoutZone = CoreDataStoreBuilder.zooEntities.replacingOccurrences(
            of: "<attribute name=\"title\" attributeType=\"String\"/>", with: "")
        let bundle = try CoreDataStoreBuilder.zooBundle(
            in: folder.path, versions: [("Zoo 1", withoutZone), ("Zoo 2", CoreDataStoreBuilder.zooEntities)])
        let error = try #require(throws: RemodelError.self) {
            try Store.importCoreData(from: source, bundle: bundle, into: folder.file("new.sqlite"))
        }
        #expect(
            error.message
                == "the Core Data store fits no version of model \"Zoo\"; the closest is \"Zoo 2\", but ZANIMAL has column ZCOLLAR, which the version does not have; ZZONE has column ZAREA, which the version does not have; give the model the app had when it wrote the store"
        )
        let given = try #require(throws: RemodelError.self) {
            try Store.importCoreData(from: source, bundle: bundle, into: folder.file("new.sqlite"), version: "Zoo 1")
        }
        #expect(
            given.message
                == "the Core Data store does not fit version \"Zoo 1\" of model \"Zoo\": ZANIMAL has column ZCOLLAR, which the version does not have; ZZONE has column ZTITLE, which the version does not have; ZZONE has column ZAREA, which the version does not have; give the version the app had when it last wrote the store (or leave out --version to let Remodel find it)"
        )
    }

    @Test(CoreDataCorpusTests.enabled) func tellsCloseBookmarkVersionsApartByTheirIndexesOnly() throws {
        // BookmarksModel and BookmarksModel 2 have the same tables and columns; version 2 declares two fetch indexes.
        let fixtures = CoreDataCorpus.fixtures.filter {
            $0.store == "Bookmarks_V1.sqlite" || $0.store == "Bookmarks_V2.sqlite"
        }
        try #require(fixtures.count == 2)
        for fixture in fixtures {
            let folder = try TemporaryFolder()
            try FileManager.default.createDirectory(atPath: folder.file("source"), withIntermediateDirectories: true)
            let source = try fixture.copyStore(into: folder.file("source"))
            let bundle = try ModelBundle(contentsOf: fixture.bundlePath)
            let reader = try CoreDataSource(path: source)
            let connection = try reader.connection()
            let schema = try CoreDataSchema.read(from: connection, path: source)
            let metadata = try CoreDataMetadata.read(from: connection, path: source)
            let first = CoreDataVersionMatcher.candidate(
                try bundle.loadVersion(named: "BookmarksModel"), schema: schema, metadata: metadata)
            let second = CoreDataVersionMatcher.candidate(
                try bundle.loadVersion(named: "BookmarksModel 2"), schema: schema, metadata: metadata)
            #expect(first.mapping.differences.isEmpty && second.mapping.differences.isEmpty)
            #expect(first.mapping.indexDifferences.count != second.mapping.indexDifferences.count)
            let matched = try CoreDataVersionMatcher.match(
                bundle: bundle, requested: nil, schema: schema, metadata: metadata, path: source)
            #expect(matched.version.name == fixture.version)
        }
    }
}
