import Foundation
import Testing

@testable import Remodel
@testable import RemodelModel

/// Shapes of shipped models that Xcode accepts, migrated across versions that change something unrelated:
/// every object and link arrives, composed and step by step (the issue "No data lost", items 11–13).
struct RealModelShapesTests {
    /// Three versions of `model`: each later one adds an optional attribute to an unrelated entity `Blog`.
    private func bundle(_ model: String, in folder: TemporaryFolder) throws -> ModelBundle {
        let blogs = [
            #"<entity name="Blog"><attribute name="title" optional="YES" attributeType="String"/></entity>"#,
            #"<entity name="Blog"><attribute name="title" optional="YES" attributeType="String"/><attribute name="note" optional="YES" attributeType="String"/></entity>"#,
            #"<entity name="Blog"><attribute name="title" optional="YES" attributeType="String"/><attribute name="note" optional="YES" attributeType="String"/><attribute name="rank" optional="YES" attributeType="Integer 32"/></entity>"#,
        ]
        let path = try BundleWriting.write(
            "Shape", in: folder.path,
            versions: [("Shape", model + blogs[0]), ("Shape 2", model + blogs[1]), ("Shape 3", model + blogs[2])])
        let result = ModelReader.read(path: path)
        let errors = result.diagnostics.filter { $0.severity == .error }.map(\.description)
        #expect(errors.isEmpty, "Xcode accepts this model: \(errors)")
        return try ModelBundle(contentsOf: path)
    }

    /// Creates the store at the first version from `seed`, migrates it to the last (composed, then step by step
    /// on a second copy) and checks that each export equals the one before the migration.
    private func expectEverythingArrives(
        model: String, seed: String, sourceLocation: Testing.SourceLocation = #_sourceLocation
    ) async throws {
        let folder = try TemporaryFolder()
        let bundle = try bundle(model, in: folder)
        let seedPath = try folder.write(seed, to: "seed.json")
        for composed in [true, false] {
            let store = folder.file("store-\(composed).sqlite")
            _ = try Store.create(at: store, bundle: bundle, version: "Shape", seed: seedPath)
            let before = folder.file("before.json")
            try Store.open(at: store, bundle: bundle).exportJSON(to: before)
            var options = MigrationOptions(batchSize: 2)
            options.composesSteps = composed
            let report = try await Migrator(bundle: bundle, options: options).migrate(storeAt: store)
            #expect(report.steps == 2, sourceLocation: sourceLocation)
            let after = folder.file("after.json")
            try Store.open(at: store, bundle: bundle).exportJSON(to: after)
            expectSameText(
                try String(contentsOfFile: after, encoding: .utf8), try String(contentsOfFile: before, encoding: .utf8),
                sourceLocation: sourceLocation)
            #expect(
                try String(contentsOfFile: before, encoding: .utf8).contains("\"post\": 1"),
                sourceLocation: sourceLocation)
        }
    }

    /// WordPress-iOS 13–20: `Comment.post` (→ `AbstractPost`) and `ReaderComment.post` (→ `ReaderPost`), siblings
    /// under one root, both destinations under `BasePost`.
    @Test func siblingToOnesOfTheSameNameKeepTheirLinks() async throws {
        let model = """
            <entity name="BasePost" isAbstract="YES"><attribute name="title" optional="YES" attributeType="String"/></entity>
            <entity name="AbstractPost" parentEntity="BasePost"><relationship name="comments" optional="YES" toMany="YES" deletionRule="Cascade" destinationEntity="Comment" inverseName="post" inverseEntity="Comment"/></entity>
            <entity name="ReaderPost" parentEntity="BasePost"><relationship name="comments" optional="YES" toMany="YES" ordered="YES" deletionRule="Cascade" destinationEntity="ReaderComment" inverseName="post" inverseEntity="ReaderComment"/></entity>
            <entity name="BaseComment" isAbstract="YES"><attribute name="content" optional="YES" attributeType="String"/></entity>
            <entity name="Comment" parentEntity="BaseComment"><relationship name="post" optional="YES" maxCount="1" deletionRule="Nullify" destinationEntity="AbstractPost" inverseName="comments" inverseEntity="AbstractPost"/></entity>
            <entity name="ReaderComment" parentEntity="BaseComment"><relationship name="post" optional="YES" maxCount="1" deletionRule="Nullify" destinationEntity="ReaderPost" inverseName="comments" inverseEntity="ReaderPost"/></entity>
            """
        let seed = """
            {"AbstractPost": [{"_pk": 1, "title": "Draft"}, {"_pk": 2, "title": "Page"}],
             "ReaderPost": [{"_pk": 3, "title": "Feed", "comments": [7, 5, 6]}],
             "Comment": [{"_pk": 4, "content": "a", "post": 1}, {"_pk": 8, "content": "b", "post": 2}, {"_pk": 9, "content": "c", "post": 1}],
             "ReaderComment": [{"_pk": 5, "content": "x"}, {"_pk": 6, "content": "y"}, {"_pk": 7, "content": "z"}]}
            """
        try await expectEverythingArrives(model: model, seed: seed)
    }

    /// olvid's engine model (v45–v60) and WordPress (87–108): sibling attributes whose names differ only in case.
    @Test func attributesDifferingOnlyInCaseGetColumnsOfTheirOwn() async throws {
        let model = """
            <entity name="Group" isAbstract="YES"><attribute name="name" optional="YES" attributeType="String"/></entity>
            <entity name="ContactGroup" parentEntity="Group"><attribute name="rawGroupUid" optional="YES" attributeType="String"/><attribute name="iconUrlString" optional="YES" attributeType="String"/><relationship name="post" optional="YES" maxCount="1" deletionRule="Nullify" destinationEntity="Owned"/></entity>
            <entity name="OwnedGroup" parentEntity="Group"><attribute name="rawGroupUID" optional="YES" attributeType="Binary"/><attribute name="iconURLString" optional="YES" attributeType="String"/><attribute name="Post" optional="YES" attributeType="Integer 64"/></entity>
            <entity name="Owned"><attribute name="label" optional="YES" attributeType="String"/></entity>
            """
        let seed = """
            {"Owned": [{"_pk": 1, "label": "o"}],
             "ContactGroup": [{"_pk": 1, "name": "c", "rawGroupUid": "uid-1", "iconUrlString": "http://a", "post": 1}],
             "OwnedGroup": [{"_pk": 2, "name": "o", "rawGroupUID": "AAEC", "iconURLString": "http://b", "Post": 42}]}
            """
        try await expectEverythingArrives(model: model, seed: seed)
        let folder = try TemporaryFolder()
        let layout = StoreLayout(version: try bundle(model, in: folder).currentVersion)
        let group = try #require(layout.table(forEntity: "Group"))
        #expect(
            group.columns.map(\.name) == [
                "_pk", "_entity", "name", "rawGroupUid", "iconUrlString", "rawGroupUID_OwnedGroup",
                "iconURLString_OwnedGroup",
                "Post", "post_ContactGroup",
            ])
    }

    /// WordPress-iOS 101–108: `Comment.sites`'s inverse is `ReaderSiteTopic.cards`, whose own inverse is
    /// `ReaderCard.sites`. A warning, and each side is stored as a relationship without an inverse.
    @Test func inversesThatDoNotPairUpAreStoredApart() async throws {
        let model = """
            <entity name="Comment"><attribute name="content" optional="YES" attributeType="String"/><relationship name="sites" optional="YES" toMany="YES" deletionRule="Nullify" destinationEntity="ReaderSiteTopic" inverseName="cards" inverseEntity="ReaderSiteTopic"/><relationship name="post" optional="YES" maxCount="1" deletionRule="Nullify" destinationEntity="ReaderCard"/></entity>
            <entity name="ReaderCard"><relationship name="sites" optional="YES" toMany="YES" deletionRule="Nullify" destinationEntity="ReaderSiteTopic" inverseName="cards" inverseEntity="ReaderSiteTopic"/></entity>
            <entity name="ReaderSiteTopic"><attribute name="title" optional="YES" attributeType="String"/><relationship name="cards" optional="YES" toMany="YES" deletionRule="Nullify" destinationEntity="ReaderCard" inverseName="sites" inverseEntity="ReaderCard"/></entity>
            """
        let seed = """
            {"ReaderSiteTopic": [{"_pk": 1, "title": "t1", "cards": [1]}, {"_pk": 2, "title": "t2"}],
             "ReaderCard": [{"_pk": 1, "sites": [1]}],
             "Comment": [{"_pk": 1, "content": "hi", "sites": [1, 2], "post": 1}]}
            """
        try await expectEverythingArrives(model: model, seed: seed)
        let folder = try TemporaryFolder()
        let path = try BundleWriting.write("Shape", in: folder.path, versions: [("Shape", model)])
        let found =
            ModelReader.read(path: path).diagnostics + ModelValidator.validate(try ModelBundle(contentsOf: path))
        let mismatches = found.filter { $0.rule == "inverse-mismatch" }
        #expect(mismatches.count == 1)
        #expect(mismatches.allSatisfy { $0.severity == .warning })
    }
}
