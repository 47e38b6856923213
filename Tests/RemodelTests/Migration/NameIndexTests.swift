import Testing
@testable import Remodel

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
}
