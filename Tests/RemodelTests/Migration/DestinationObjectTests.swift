import Testing

@testable import Remodel
@testable import RemodelModel

/// The dictionary-style API of ``DestinationObject`` over its ordered storage.
@Suite struct DestinationObjectTests {
    @Test func aLiteralKeepsItsOrderAndReadsLikeADictionary() {
        let object = DestinationObject(["fullName": .text("Ada"), "age": .integer(36)])
        #expect(names(object) == ["fullName", "age"])
        #expect(object["fullName"] == .text("Ada"))
        #expect(object["age"] == .integer(36))
        #expect(object["missing"] == nil)
        #expect(object.values == ["fullName": .text("Ada"), "age": .integer(36)])
    }

    @Test func aDictionaryAndNoArgumentStillWork() {
        let values: [String: SQLiteValue] = ["a": .null, "b": .real(1.5)]
        #expect(DestinationObject(values).values == values)
        #expect(DestinationObject().values.isEmpty)
        #expect(DestinationObject([:]).values.isEmpty)
    }

    /// A name given twice in a literal: the last value counts, for reading and for `values`.
    @Test func theLastOfARepeatedNameCounts() {
        let name = "label"
        var object = DestinationObject([name: .text("first"), "label": .text("second")])
        #expect(object["label"] == .text("second"))
        #expect(object.values == ["label": .text("second")])
        object["label"] = .text("third")
        #expect(object.values == ["label": .text("third")])
        object["label"] = nil
        #expect(object["label"] == nil)
        #expect(names(object).isEmpty)
    }

    @Test func settingReplacesAppendsAndRemoves() {
        var object = DestinationObject(["a": .integer(1)])
        object["b"] = .text("x")
        object["a"] = .integer(2)
        #expect(names(object) == ["a", "b"])
        #expect(object.values == ["a": .integer(2), "b": .text("x")])
        object["a"] = nil
        #expect(object.values == ["b": .text("x")])
        object.values["c"] = .null
        #expect(object.values == ["b": .text("x"), "c": .null])
        object.values = [:]
        #expect(object["b"] == nil)
    }

    /// Names compare as `String`s do (as a dictionary's keys would): canonically equivalent spellings are one name.
    @Test func canonicallyEquivalentNamesAreOneName() {
        var object = DestinationObject(["caf\u{E9}": .integer(1)])
        object["cafe\u{301}"] = .integer(2)
        #expect(object.values.count == 1)
        #expect(object["caf\u{E9}"] == .integer(2))
    }

    private func names(_ object: DestinationObject) -> [String] {
        var names: [String] = []
        object.forEachField { _, name, _ in names.append(name) }
        return names
    }
}
