/// Pairs destination elements with source elements the way Core Data does:
/// a destination element whose renaming identifier (`elementID`) equals a
/// source element's name, or that element's own renaming identifier, is the
/// same element renamed; otherwise elements match by name. Each source element
/// matches at most one destination element.
struct ElementMatcher<Source, Destination> {
    struct Match {
        var source: Source
        var provenance: Provenance
    }

    private let sources: [Source]
    /// Each source's name, read once: matching compares names and identifiers, never the elements.
    private let names: [String]
    /// The sources with each name, and with each renaming identifier, in source order.
    private let sourcesNamed: [String: [Int]]
    private let sourcesIdentified: [String: [Int]]

    init(sources: [Source], name: (Source) -> String, elementID: (Source) -> String?) {
        self.sources = sources
        names = sources.map(name)
        var named: [String: [Int]] = [:]
        var identified: [String: [Int]] = [:]
        for (index, source) in sources.enumerated() {
            named[names[index], default: []].append(index)
            if let identifier = elementID(source) { identified[identifier, default: []].append(index) }
        }
        sourcesNamed = named
        sourcesIdentified = identified
    }

    /// Matches every destination, in order; returns the match for each (nil for new ones).
    func match(
        _ destinations: [Destination], name: (Destination) -> String, elementID: (Destination) -> String?
    ) -> [Match?] {
        var taken: Set<String> = []
        var result: [Match?] = Array(repeating: nil, count: destinations.count)
        // Renaming identifiers first, so a renamed element can take a name that another element leaves.
        for (index, destination) in destinations.enumerated() {
            guard let identifier = elementID(destination), !identifier.isEmpty else { continue }
            // The first source, in source order, named so or identified so, and not taken.
            let candidates = ((sourcesNamed[identifier] ?? []) + (sourcesIdentified[identifier] ?? [])).sorted()
            if let source = candidates.first(where: { !taken.contains(names[$0]) }) {
                taken.insert(names[source])
                let provenance: Provenance =
                    names[source] == name(destination) ? .sameName : .renamingIdentifier(from: names[source])
                result[index] = Match(source: sources[source], provenance: provenance)
            }
        }
        for (index, destination) in destinations.enumerated() where result[index] == nil {
            if let source = sourcesNamed[name(destination)]?.first(where: { !taken.contains(names[$0]) }) {
                taken.insert(names[source])
                result[index] = Match(source: sources[source], provenance: .sameName)
            }
        }
        return result
    }
}
