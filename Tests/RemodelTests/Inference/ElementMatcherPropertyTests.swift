import Testing

@testable import Remodel

/// The matcher looks sources up by name and by renaming identifier; Core Data's rule is a scan in source order.
/// Random elements drawn from a few names (so that names, identifiers and renames collide) go down both roads.
@Suite struct ElementMatcherPropertyTests {
    struct Element: Equatable {
        var name: String
        var elementID: String?
    }

    /// Core Data's rule as a scan: renaming identifiers first, the first source in order not taken whose name or
    /// identifier is the destination's identifier; then names, the first source of that name not taken.
    static func scanned(sources: [Element], destinations: [Element]) -> [(Int, Provenance)?] {
        var taken: Set<String> = []
        var result: [(Int, Provenance)?] = Array(repeating: nil, count: destinations.count)
        for (index, destination) in destinations.enumerated() {
            guard let identifier = destination.elementID, !identifier.isEmpty else { continue }
            if let source = sources.indices.first(where: {
                !taken.contains(sources[$0].name)
                    && (sources[$0].name == identifier || sources[$0].elementID == identifier)
            }) {
                taken.insert(sources[source].name)
                let name = sources[source].name
                result[index] = (source, name == destination.name ? .sameName : .renamingIdentifier(from: name))
            }
        }
        for (index, destination) in destinations.enumerated() where result[index] == nil {
            if let source = sources.indices.first(where: {
                sources[$0].name == destination.name && !taken.contains(sources[$0].name)
            }) {
                taken.insert(sources[source].name)
                result[index] = (source, .sameName)
            }
        }
        return result
    }

    @Test func theMatcherPairsAsTheScanDoes() {
        var random = SplitMix64(seed: 29)
        let pool = ["a", "b", "c", "d", "A", "e", ""]
        var differences = 0
        for _ in 0..<2_000 {
            func element(_ tag: Int) -> Element {
                let name = pool[Int(random.next() % 6)] + (random.next() % 3 == 0 ? "" : "\(tag % 2)")
                let roll = random.next() % 4
                let elementID: String? = roll == 0 ? nil : roll == 1 ? "" : pool[Int(random.next() % 7)]
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
