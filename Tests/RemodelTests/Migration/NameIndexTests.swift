import Testing

@testable import Remodel
@testable import RemodelModel

@Suite struct NameIndexTests {
    @Test func findsTheFirstOccurrenceAsADictionaryWould() {
        let index = NameIndex(["a", "b", "a", "caf\u{E9}", String(repeating: "long", count: 10)])
        #expect(index.position(of: "a") == 0)
        #expect(index.position(of: "b") == 1)
        #expect(index.position(of: "cafe\u{301}") == 3)
        #expect(index.position(of: String(repeating: "long", count: 10)) == 4)
        #expect(index.position(of: "c") == nil)
        #expect(index.position(of: "") == nil)
    }

    /// Many names (more than the quick table's first size, so some share a slot) and names that are
    /// equal as `String`s but not byte for byte.
    @Test func manyNamesAndOtherSpellings() {
        let names = (0..<100).map { "attribute\($0 % 10)x\($0)" } + ["K", "\u{212A}elvin", ""]
        let index = NameIndex(names)
        for (position, name) in names.enumerated() { #expect(index.position(of: name) == position) }
        #expect(index.position(of: "\u{212A}") == 100)
        #expect(index.position(of: "Kelvin") == 101)
        #expect(index.position(of: "") == 102)
        #expect(index.position(of: "attribute") == nil)
    }
}
