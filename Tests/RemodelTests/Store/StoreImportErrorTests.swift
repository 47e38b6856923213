import Foundation
import Testing

@testable import Remodel
@testable import RemodelModel

struct StoreImportErrorTests {
    /// Creating with a bad seed fails with `message` and leaves no file; importing it into an existing
    /// store fails the same way and leaves the store's bytes unchanged.
    private func expectFailure(
        _ json: String, _ message: String, entity: String?, primaryKey: Int64?, property: String?
    ) throws {
        let folder = try TemporaryFolder()
        let seed = try folder.write(json, to: "seed.json")
        let bundle = try StoreFixtures.everything()
        let created = #expect(throws: RemodelError.self) {
            try Store.create(at: folder.file("new.sqlite"), bundle: bundle, seed: seed)
        }
        #expect(created?.message == message)
        #expect(created?.entity == entity)
        #expect(created?.primaryKey == primaryKey)
        #expect(created?.property == property)
        #expect(try folder.contents() == ["seed.json"])

        let path = folder.file("old.sqlite")
        do { _ = try Store.create(at: path, bundle: bundle, seed: StoreFixtures.path("everything.json")) }
        let before = try fileBytes(path)
        let store = try Store.open(at: path, bundle: bundle)
        let imported = #expect(throws: RemodelError.self) { try store.importJSON(from: seed) }
        #expect(imported?.entity == entity)
        #expect(try fileBytes(path) == before)
        #expect(try folder.contents() == ["old.sqlite", "seed.json"])
        #expect(try store.exportJSONString() == (try StoreFixtures.text("everything.json")))
    }

    @Test func wrongType() throws {
        try expectFailure(
            #"{"Person": [{"_pk": 30, "name": "Ada", "age": "old"}]}"#,
            #"Person _pk 30 attribute "age": expected an integer, found "old""#, entity: "Person", primaryKey: 30,
            property: "age")
    }

    @Test func missingRequiredAttribute() throws {
        try expectFailure(
            #"{"Person": [{"_pk": 30, "age": 3}]}"#,
            #"Person _pk 30 attribute "name": a value is required, but the object has no "name" key"#, entity: "Person",
            primaryKey: 30, property: "name")
    }

    @Test func requiredAttributeGivenNull() throws {
        try expectFailure(
            #"{"Tag": [{"_pk": 30, "name": null}]}"#, #"Tag _pk 30 attribute "name": a value is required, found null"#,
            entity: "Tag", primaryKey: 30, property: "name")
    }

    @Test func danglingPrimaryKey() throws {
        try expectFailure(
            #"{"Chapter": [{"_pk": 30, "name": "x", "book": 99}]}"#,
            #"Chapter _pk 30 relationship "book": names _pk 99, but there is no Book with that _pk"#, entity: "Chapter",
            primaryKey: 30, property: "book")
    }

    @Test func relationshipOfTheWrongEntity() throws {
        // Item 2 is a Gadget: a chapter's book must be a Book.
        try expectFailure(
            #"{"Chapter": [{"_pk": 30, "name": "x", "book": 2}]}"#,
            #"Chapter _pk 30 relationship "book": names _pk 2, but there is no Book with that _pk"#, entity: "Chapter",
            primaryKey: 30, property: "book")
    }

    @Test func sidesThatDisagree() throws {
        try expectFailure(
            #"{"Person": [{"_pk": 30, "name": "A", "items": []}], "Gadget": [{"_pk": 31, "title": "G", "owner": 30}]}"#,
            #"Gadget _pk 31 relationship "owner": names Person _pk 30, but that object's "items" does not name _pk 31"#,
            entity: "Gadget", primaryKey: 31, property: "owner")
    }

    @Test func valueOutOfRange() throws {
        try expectFailure(
            #"{"Person": [{"_pk": 30, "name": "Ada", "age": 151}]}"#,
            #"Person _pk 30 attribute "age": must be at most 150, found 151"#,
            entity: "Person", primaryKey: 30, property: "age")
    }

    @Test func integerTooLargeForItsType() throws {
        try expectFailure(
            #"{"Sample": [{"_pk": 30, "i16": 40000}]}"#,
            #"Sample _pk 30 attribute "i16": expected an integer that fits Integer 16, found 40000"#,
            entity: "Sample", primaryKey: 30, property: "i16")
    }

    @Test func regularExpression() throws {
        try expectFailure(
            #"{"Person": [{"_pk": 30, "name": "ada"}]}"#,
            #"Person _pk 30 attribute "name": does not match the regular expression [A-Z].*, found "ada""#,
            entity: "Person",
            primaryKey: 30, property: "name")
    }

    @Test func unknownKey() throws {
        try expectFailure(
            #"{"Person": [{"_pk": 30, "name": "Ada", "agee": 3}]}"#,
            #"Person _pk 30: unknown key "agee"; Person has no stored attribute or relationship of that name"#,
            entity: "Person",
            primaryKey: 30, property: "agee")
    }

    @Test func unknownEntity() throws {
        try expectFailure(
            #"{"Robot": []}"#, #"unknown entity "Robot" in the model"#, entity: "Robot", primaryKey: nil, property: nil)
    }

    @Test func abstractEntity() throws {
        try expectFailure(
            #"{"Item": []}"#, #"entity "Item" is abstract; list its objects under their concrete entities"#,
            entity: "Item",
            primaryKey: nil, property: nil)
    }

    @Test func badDate() throws {
        try expectFailure(
            #"{"Sample": [{"_pk": 30, "when": "yesterday"}]}"#,
            #"Sample _pk 30 attribute "when": expected an ISO 8601 date such as "2024-01-02T03:04:05.678Z", found "yesterday""#,
            entity: "Sample", primaryKey: 30, property: "when")
    }

    @Test func badDecimal() throws {
        try expectFailure(
            #"{"Sample": [{"_pk": 30, "dec": "12,5"}]}"#,
            #"Sample _pk 30 attribute "dec": expected a decimal number as a string, found "12,5""#,
            entity: "Sample", primaryKey: 30, property: "dec")
    }

    @Test func uniquenessConstraint() throws {
        try expectFailure(
            #"{"Tag": [{"_pk": 30, "name": "same"}, {"_pk": 31, "name": "same"}]}"#,
            "Tag _pk 30 and _pk 31 have the same name, which must be unique", entity: "Tag", primaryKey: 31,
            property: "name")
    }

    @Test func malformedJSONNamesLineAndColumn() throws {
        let folder = try TemporaryFolder()
        let seed = try folder.write("{\"Tag\": [\n  {\"name\": \"x\"\n]}", to: "seed.json")
        let error = #expect(throws: RemodelError.self) {
            try Store.create(at: folder.file("new.sqlite"), bundle: try StoreFixtures.everything(), seed: seed)
        }
        #expect(error?.description == "\(seed):3:1: expected ',' or '}', found ']'")
        #expect(try folder.contents() == ["seed.json"])
    }

    @Test func errorDescriptionNamesTheFileAndLine() throws {
        let folder = try TemporaryFolder()
        let seed = try folder.write(
            "{\"Person\": [\n  {\"_pk\": 3, \"name\": \"Ada\", \"age\": \"old\"}\n]}", to: "seed.json")
        let error = #expect(throws: RemodelError.self) {
            try Store.create(at: folder.file("new.sqlite"), bundle: try StoreFixtures.everything(), seed: seed)
        }
        #expect(error?.description == "\(seed):2:3: Person _pk 3 attribute \"age\": expected an integer, found \"old\"")
    }
}
