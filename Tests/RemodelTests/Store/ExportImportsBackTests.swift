import Foundation
import Testing

@testable import Remodel

/// An export always imports back: a store that passes the full check exports JSON that `remodel import` takes into
/// a fresh store with the same export. Two classes broke it (found by RecordWritesPropertyTests): dates outside the
/// years 0000–9999, which export writes as seconds since 1970 and import refused, and a required to-many left empty,
/// which the check and a migration allow (Core Data's rule) and import refused.
struct ExportImportsBackTests {
    /// `store` exported, imported into a fresh store of the same bundle, exported again.
    func exportImportedBack(_ store: Store, bundle: ModelBundle, in folder: TemporaryFolder) throws -> (String, String)
    {
        let export = try store.exportJSONString()
        let file = try folder.write(export, to: "export.json")
        let again = try Store.create(at: folder.file("again.sqlite"), bundle: bundle, seed: file)
        return (export, try again.exportJSONString())
    }

    @Test func datesOutsideFourDigitYearsAndInfiniteOnesImportBack() throws {
        let folder = try TemporaryFolder()
        let bundle = try StoreFixtures.everything()
        let store = try Store.create(at: folder.file("store.sqlite"), bundle: bundle)
        for (key, seconds) in [(1, 4e11), (2, -1e12), (3, Double.infinity), (4, -Double.infinity), (5, 1.7e9)] {
            try store.connection.run(
                "INSERT INTO Sample (_pk, _entity, \"when\") VALUES (?, 'Sample', ?)",
                [.integer(Int64(key)), .real(seconds)])
        }
        #expect(try store.checkEverything().isEmpty)
        let (export, again) = try exportImportedBack(store, bundle: bundle, in: folder)
        #expect(export.contains(#""when": 400000000000.0"#) && export.contains(#""when": "-Infinity""#))
        #expect(export.contains(#""when": "2023-11-14T22:13:20.000Z""#))
        #expect(again == export)
    }

    @Test func anEmptyRequiredToManyImportsBack() throws {
        let folder = try TemporaryFolder()
        let owner = Entity(
            name: "Owner",
            relationships: [
                Relationship(
                    name: "pets", destinationEntity: "Pet", inverseName: "owner", inverseEntity: "Pet",
                    isOptional: false, isToMany: true)
            ])
        let pet = Entity(
            name: "Pet",
            relationships: [
                Relationship(name: "owner", destinationEntity: "Owner", inverseName: "pets", inverseEntity: "Owner")
            ])
        let bundle = ModelBundle(name: "Pets", versions: [ModelVersion(name: "Pets", entities: [owner, pet])])
        let store = try Store.create(at: folder.file("store.sqlite"), bundle: bundle)
        try store.connection.run("INSERT INTO Owner (_pk, _entity) VALUES (1, 'Owner')")
        #expect(try store.checkEverything().isEmpty, "a required to-many with no minimum may be empty")
        let (export, again) = try exportImportedBack(store, bundle: bundle, in: folder)
        #expect(again == export)
    }
}
