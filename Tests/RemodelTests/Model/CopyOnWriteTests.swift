import Testing

@testable import Remodel
@testable import RemodelModel

/// The model's entities and properties share their fields between copies (`CopyOnWrite`) and still behave as
/// values: a copy written to is its own, the original keeps what it had, and equality and hashing go by the
/// fields, whether two values share a box or were made apart.
@Suite struct CopyOnWriteTests {
    private static func entity() -> Entity {
        Entity(
            name: "Book", attributes: [Attribute(name: "title", type: .string, isOptional: false)],
            relationships: [Relationship(name: "author", destinationEntity: "Person", isToMany: false)])
    }

    @Test func aCopyWrittenToLeavesTheOriginalAsItWas() {
        let original = Self.entity()
        var copy = original
        #expect(copy == original)
        copy.name = "Novel"
        copy.attributes[0].name = "heading"
        copy.attributes[0].isOptional = true
        copy.relationships[0].isToMany = true
        #expect(original.name == "Book")
        #expect(original.attributes[0].name == "title" && !original.attributes[0].isOptional)
        #expect(!original.relationships[0].isToMany)
        #expect(copy.name == "Novel" && copy.attributes[0].name == "heading" && copy.relationships[0].isToMany)
        #expect(copy != original)
    }

    @Test func valuesMadeApartCompareAndHashByTheirFields() {
        let one = Self.entity()
        let other = Self.entity()
        #expect(one == other)
        #expect(one.hashValue == other.hashValue)
        #expect(Set([one, other]).count == 1)
        var changed = other
        changed.attributes[0].defaultValue = "untitled"
        #expect(changed != one)
        #expect(Set([one, other, changed]).count == 2)
        var back = changed
        back.attributes[0].defaultValue = nil
        #expect(back == one, "written back, equal again")
    }
}
