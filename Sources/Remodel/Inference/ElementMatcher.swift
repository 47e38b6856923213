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
    /// Each source's renaming identifier.
    private let identifiers: [String?]
    /// The sources with each name, and with each renaming identifier, in source order. Swift's `String` keys take
    /// canonically equivalent spellings for one: a name matches only byte for byte
    /// (``/RemodelModel/SQLName/identical(_:_:)``), as Core Data matches them (`café` with U+00E9 is not `cafe` with
    /// U+0301).
    private let sourcesNamed: [String: [Int]]
    private let sourcesIdentified: [String: [Int]]

    init(sources: [Source], name: (Source) -> String, elementID: (Source) -> String?) {
        self.sources = sources
        names = sources.map(name)
        identifiers = sources.map(elementID)
        var named: [String: [Int]] = [:]
        var identified: [String: [Int]] = [:]
        for (index, identifier) in identifiers.enumerated() {
            named[names[index], default: []].append(index)
            if let identifier { identified[identifier, default: []].append(index) }
        }
        sourcesNamed = named
        sourcesIdentified = identified
    }

    /// The sources named `name`, byte for byte.
    private func named(_ name: String) -> [Int] {
        (sourcesNamed[name] ?? []).filter { SQLName.identical(names[$0], name) }
    }

    /// The sources whose renaming identifier is `identifier`, byte for byte.
    private func identified(_ identifier: String) -> [Int] {
        (sourcesIdentified[identifier] ?? []).filter {
            identifiers[$0].map { SQLName.identical($0, identifier) } == true
        }
    }

    /// Matches every destination, in order; returns the match for each (nil for new ones).
    func match(
        _ destinations: [Destination], name: (Destination) -> String, elementID: (Destination) -> String?
    ) -> [Match?] {
        // Names taken, byte for byte: taking a source takes every source of its name, as Core Data's scan does.
        var taken: Set<[UInt8]> = []
        func isTaken(_ source: Int) -> Bool { taken.contains(Array(names[source].utf8)) }
        var result: [Match?] = Array(repeating: nil, count: destinations.count)
        // Renaming identifiers first, so a renamed element can take a name that another element leaves.
        for (index, destination) in destinations.enumerated() {
            guard let identifier = elementID(destination), !identifier.isEmpty else { continue }
            // The first source, in source order, named so or identified so, and not taken.
            let candidates = (named(identifier) + identified(identifier)).sorted()
            if let source = candidates.first(where: { !isTaken($0) }) {
                taken.insert(Array(names[source].utf8))
                let provenance: Provenance =
                    SQLName.identical(names[source], name(destination))
                    ? .sameName : .renamingIdentifier(from: names[source])
                result[index] = Match(source: sources[source], provenance: provenance)
            }
        }
        for (index, destination) in destinations.enumerated() where result[index] == nil {
            if let source = named(name(destination)).first(where: { !isTaken($0) }) {
                taken.insert(Array(names[source].utf8))
                result[index] = Match(source: sources[source], provenance: .sameName)
            }
        }
        return result
    }
}
