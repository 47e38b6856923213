import Foundation
import Testing

@testable import Remodel
@testable import RemodelModel
@testable import RemodelTesting

/// `SeedGenerator`: deterministic, valid data that imports and exports back to the same bytes.
struct SeedGeneratorTests {
    static let everything = MigrationFixtures.packageRoot + "/Tests/RemodelTests/Fixtures/Store/Everything.xcdatamodel"

    @Test func theSameSeedNumberGivesTheSameBytes() throws {
        let bundle = try ModelBundle(contentsOf: Self.everything)
        let generator = SeedGenerator(version: bundle.currentVersion)
        let first = generator.generate(objects: 30, seedNumber: 42)
        #expect(first == generator.generate(objects: 30, seedNumber: 42))
        #expect(first != generator.generate(objects: 30, seedNumber: 43))
        let folder = try TemporaryFolder()
        try generator.write(objects: 30, seedNumber: 42, to: folder.file("seed.json"))
        #expect(try Data(contentsOf: URL(fileURLWithPath: folder.file("seed.json"))) == Data(first.utf8))
        #expect(try folder.contents() == ["seed.json"], "nothing is left beside the file")
    }

    @Test func everyTypeAndRelationshipKindImportsAndExportsUnchanged() throws {
        let bundle = try ModelBundle(contentsOf: Self.everything)
        for seedNumber: UInt64 in [1, 2, 3] {
            let trip = try SeedSupport.roundTrip(
                bundle, version: bundle.currentVersion.name, objects: 25, seedNumber: seedNumber)
            expectSameText(trip.exported, trip.generated)
            #expect(trip.plan.problems.isEmpty)
            #expect(
                trip.plan.counts == ["Sample": 25, "Book": 25, "Gadget": 25, "Chapter": 25, "Person": 25, "Tag": 25])
        }
    }

    @Test func everyVersionOfTheSampleModelsImportsAndExportsUnchanged() throws {
        for name in ["Library", "Diligence"] {
            let bundle = try ModelBundle(contentsOf: MigrationFixtures.packageRoot + "/Models/\(name).xcdatamodeld")
            for version in bundle.versions {
                let trip = try SeedSupport.roundTrip(bundle, version: version.name, objects: 40)
                expectSameText(trip.exported, trip.generated)
                #expect(trip.plan.problems.isEmpty, "\(version.name)")
            }
        }
    }

    @Test func valuesStayWithinTheModelsBoundsAndVary() throws {
        let bundle = try ModelBundle(contentsOf: Self.everything)
        let json = SeedGenerator(version: bundle.currentVersion).generate(objects: 200, seedNumber: 9)
        let people = try SeedSupport.objects(json, "Person")
        let ages = people.compactMap { $0["age"] as? Int }
        #expect(ages.allSatisfy { (0...150).contains($0) })
        #expect(Set(ages).count > 50, "ages vary")
        #expect(ages.contains(0) && ages.contains(150), "the edges of the range come up")
        #expect(people.contains { $0["age"] is NSNull }, "an optional attribute is sometimes empty")
        let names = people.compactMap { $0["name"] as? String }
        #expect(names.count == 200, "a required attribute always has a value")
        #expect(
            names.allSatisfy {
                $0.unicodeScalars.count >= 1 && $0.unicodeScalars.count <= 40 && $0.first?.isUppercase == true
            })
        let tags = try SeedSupport.objects(json, "Tag").compactMap { $0["name"] as? String }
        #expect(Set(tags).count == tags.count, "Tag.name is unique")
    }

    @Test func relationshipsAgreeOnBothSidesAndKeepTheirOrder() throws {
        let bundle = try ModelBundle(contentsOf: Self.everything)
        let json = SeedGenerator(version: bundle.currentVersion).generate(objects: 50, seedNumber: 5)
        let books = try SeedSupport.objects(json, "Book")
        let chapters = try SeedSupport.objects(json, "Chapter")
        var bookOfChapter: [Int: Int] = [:]
        for chapter in chapters {
            if let book = chapter["book"] as? Int { bookOfChapter[chapter["_pk"] as? Int ?? 0] = book }
        }
        var sawUnsorted = false
        for book in books {
            let list = book["chapters"] as? [Int] ?? []
            #expect(
                list.allSatisfy { bookOfChapter[$0] == book["_pk"] as? Int }, "each listed chapter names the book back")
            if list != list.sorted() { sawUnsorted = true }
        }
        #expect(sawUnsorted, "an ordered relationship lists its objects in an order of its own")
        #expect(bookOfChapter.count == books.reduce(0) { $0 + (($1["chapters"] as? [Int])?.count ?? 0) })
        let people = try SeedSupport.objects(json, "Person")
        var friends: [Int: Set<Int>] = [:]
        for person in people { friends[person["_pk"] as? Int ?? 0] = Set(person["friends"] as? [Int] ?? []) }
        for (person, list) in friends {
            #expect(!list.contains(person), "no one is their own friend")
            #expect(list.allSatisfy { friends[$0]?.contains(person) == true }, "friendship is mutual")
        }
        #expect(friends.values.contains { !$0.isEmpty })
    }
}
