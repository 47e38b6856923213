import Foundation
import Testing

@testable import Remodel
@testable import RemodelModel

struct StoreRoundTripTests {
    @Test func importThenExportGivesBackTheSameBytes() throws {
        let folder = try TemporaryFolder()
        let json = StoreFixtures.path("everything.json")
        let store = try Store.create(
            at: folder.file("store.sqlite"), bundle: try StoreFixtures.everything(), seed: json)
        let exported = try store.exportJSONString()
        #expect(exported == (try StoreFixtures.text("everything.json")))
    }

    @Test func exportToAFileWritesTheSameBytesAndLeavesNoTemporaryFile() throws {
        let folder = try TemporaryFolder()
        let store = try Store.create(
            at: folder.file("store.sqlite"), bundle: try StoreFixtures.everything(),
            seed: StoreFixtures.path("everything.json"))
        try store.exportJSON(to: folder.file("out.json"))
        #expect(try fileBytes(folder.file("out.json")) == (try fileBytes(StoreFixtures.path("everything.json"))))
        #expect(try folder.contents() == ["out.json", "store.sqlite"])
    }

    @Test func importIntoAnEmptyStoreThenExportMatches() throws {
        let folder = try TemporaryFolder()
        let store = try Store.create(at: folder.file("store.sqlite"), bundle: try StoreFixtures.everything())
        try store.importJSON(from: StoreFixtures.path("everything.json"))
        #expect(try store.exportJSONString() == (try StoreFixtures.text("everything.json")))
    }

    @Test func relationshipsGivenOnOneSideOnlyAreCompletedOnTheOther() throws {
        let folder = try TemporaryFolder()
        let input = try folder.write(
            """
            {"Tag": [{"_pk": 1, "name": "a", "items": [2, 1]}],
             "Book": [{"_pk": 1, "title": "B", "chapters": [2, 1]}],
             "Chapter": [{"_pk": 1, "name": "c1"}, {"_pk": 2, "name": "c2"}],
             "Gadget": [{"_pk": 2, "title": "G"}],
             "Person": [{"_pk": 5, "name": "P", "items": [1], "friends": [6]}, {"_pk": 6, "name": "Q", "manager": 5}]}
            """, to: "in.json")
        let store = try Store.create(
            at: folder.file("store.sqlite"), bundle: try StoreFixtures.everything(), seed: input)
        let exported = try store.exportJSONString()
        #expect(
            exported.contains(#"{"_pk": 1, "title": "B", "pages": null, "owner": 5, "tags": [1], "chapters": [2, 1]}"#))
        #expect(exported.contains(#"{"_pk": 2, "name": "c2", "book": 1}"#))
        #expect(exported.contains(#"{"_pk": 1, "name": "a", "items": [2, 1]}"#))
        #expect(
            exported.contains(
                #"{"_pk": 5, "name": "P", "age": null, "items": [1], "manager": null, "reports": [6], "friends": [6], "favorites": []}"#
            ))
        #expect(
            exported.contains(
                #"{"_pk": 6, "name": "Q", "age": null, "items": [], "manager": 5, "reports": [], "friends": [5], "favorites": []}"#
            ))
    }

    @Test func emptyEntitiesAreListedAndOrderedByName() throws {
        let folder = try TemporaryFolder()
        let store = try Store.create(at: folder.file("store.sqlite"), bundle: try StoreFixtures.everything())
        #expect(
            try store.exportJSONString()
                == "{\n  \"Book\": [],\n  \"Chapter\": [],\n  \"Gadget\": [],\n  \"Person\": [],\n  \"Sample\": [],\n  \"Tag\": []\n}\n"
        )
    }

    @Test func objectsWithoutPrimaryKeysAreNumbered() throws {
        let folder = try TemporaryFolder()
        let input = try folder.write(
            #"{"Tag": [{"name": "x"}, {"name": "y", "_pk": 9}, {"name": "z"}]}"#, to: "in.json")
        let store = try Store.create(
            at: folder.file("store.sqlite"), bundle: try StoreFixtures.everything(), seed: input)
        #expect(
            try store.exportJSONString().contains(
                #"{"_pk": 1, "name": "x", "items": []},"# + "\n    " + #"{"_pk": 9, "name": "y", "items": []},"#
                    + "\n    " + #"{"_pk": 10, "name": "z", "items": []}"#))
    }
}
