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
    private let sourceName: (Source) -> String
    private let sourceElementID: (Source) -> String?

    init(sources: [Source], name: @escaping (Source) -> String, elementID: @escaping (Source) -> String?) {
        self.sources = sources
        self.sourceName = name
        self.sourceElementID = elementID
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
            if let source = sources.first(where: {
                !taken.contains(sourceName($0)) && (sourceName($0) == identifier || sourceElementID($0) == identifier)
            }) {
                taken.insert(sourceName(source))
                let provenance: Provenance =
                    sourceName(source) == name(destination) ? .sameName : .renamingIdentifier(from: sourceName(source))
                result[index] = Match(source: source, provenance: provenance)
            }
        }
        for (index, destination) in destinations.enumerated() where result[index] == nil {
            if let source = sources.first(where: {
                sourceName($0) == name(destination) && !taken.contains(sourceName($0))
            }) {
                taken.insert(sourceName(source))
                result[index] = Match(source: source, provenance: .sameName)
            }
        }
        return result
    }

    /// Sources that no destination matched, in source order.
    func unmatched(by matches: [Match?]) -> [Source] {
        let matched = Set(matches.compactMap { $0.map { sourceName($0.source) } })
        return sources.filter { !matched.contains(sourceName($0)) }
    }
}
