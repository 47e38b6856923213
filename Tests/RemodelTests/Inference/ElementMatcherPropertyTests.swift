import Testing

@testable import Remodel

/// The matcher looks sources up by name and by renaming identifier; Core Data's rule is a scan in source order.
/// Random elements drawn from a few names (so that names, identifiers and renames collide) go down both roads. Names
/// are compared byte for byte (DESIGN.md, "Names"): `é` written as U+00E9 and as `e` and U+0301 are two names, which
/// Swift's `String` takes for one.
@Suite struct ElementMatcherPropertyTests {
    struct Element: Equatable {
        var name: String
        var elementID: String?
    }

    /// Core Data's rule as a scan: renaming identifiers first, the first source in order not taken whose name or
    /// identifier is the destination's identifier; then names, the first source of that name not taken.
    static func scanned(sources: [Element], destinations: [Element]) -> [(Int, Provenance)?] {
        func same(_ a: String, _ b: String?) -> Bool { b.map { Array(a.utf8) == Array($0.utf8) } ?? false }
        var taken: Set<[UInt8]> = []
        var result: [(Int, Provenance)?] = Array(repeating: nil, count: destinations.count)
        for (index, destination) in destinations.enumerated() {
            guard let identifier = destination.elementID, !identifier.isEmpty else { continue }
            if let source = sources.indices.first(where: {
                !taken.contains(Array(sources[$0].name.utf8))
                    && (same(sources[$0].name, identifier) || same(identifier, sources[$0].elementID))
            }) {
                taken.insert(Array(sources[source].name.utf8))
                let name = sources[source].name
                result[index] = (source, same(name, destination.name) ? .sameName : .renamingIdentifier(from: name))
            }
        }
        for (index, destination) in destinations.enumerated() where result[index] == nil {
            if let source = sources.indices.first(where: {
                same(sources[$0].name, destination.name) && !taken.contains(Array(sources[$0].name.utf8))
            }) {
                taken.insert(Array(sources[source].name.utf8))
                result[index] = (source, .sameName)
            }
        }
        return result
    }

    @Test func theMatcherPairsAsTheScanDoes() {
        var random = SplitMix64(seed: 29)
        let pool = ["a", "b", "c", "d", "A", "e", "\u{E9}", "e\u{301}", ""]
        var differences = 0
        for _ in 0..<2_000 {
            func element(_ tag: Int) -> Element {
                let name = pool[Int(random.next() % 8)] + (random.next() % 3 == 0 ? "" : "\(tag % 2)")
                let roll = random.next() % 4
                let elementID: String? = roll == 0 ? nil : roll == 1 ? "" : pool[Int(random.next() % 9)]
                return Element(name: name, elementID: elementID)
            }
            // Each source is tagged with its index, so that a match says which of two equal elements it took.
            let sources = (0..<Int(random.next() % 7)).map { element($0) }
            let destinations = (0..<Int(random.next() % 7)).map { element($0) }
            let tagged = sources.indices.map { ($0, sources[$0]) }
            let matcher = ElementMatcher<(Int, Element), Element>(
                sources: tagged, name: { $0.1.name }, elementID: { $0.1.elementID })
            let matched = matcher.match(destinations, name: { $0.name }, elementID: { $0.elementID })
            let expected = Self.scanned(sources: sources, destinations: destinations)
            let same = zip(matched, expected).allSatisfy { got, want in
                switch (got, want) {
                case (nil, nil): return true
                case (let got?, let want?): return got.source.0 == want.0 && got.provenance == want.1
                default: return false
                }
            }
            if !same { differences += 1 }
            #expect(same, "sources \(sources), destinations \(destinations)")
            if differences > 5 { break }
        }
    }
}
