/// Finds which version of a bundle wrote a Core Data store (docs/CORE-DATA-STORES.md, "Which version").
///
/// Core Data's entity hashes cannot be computed here (Apple does not publish how), so each version is
/// compared with what the store says and has: the entity names of its version hashes and its model
/// version identifier (`Z_METADATA`), its entity numbers (`Z_PRIMARYKEY`), and its tables and columns
/// against the version's Core Data layout. The version with the fewest differences wins; where two
/// tie, the indexes each declares decide; where they still tie, both are named and `--version` decides.
package enum CoreDataVersionMatcher {
    /// A version and how it fits the store.
    package struct Candidate {
        package var version: ModelVersion
        package var layout: StoreLayout
        package var mapping: CoreDataMapping
    }

    /// The version that wrote the store: `requested` when given (refused if it does not fit), else the
    /// one that fits best.
    /// - Throws: `RemodelError` with `RemodelError.Code.incompatibleStore` when no version fits (naming
    ///   the closest and what differs) or two fit equally (naming both).
    /// `facts` holds those of versions not read from a file (the store's own model, a merged one), by name.
    package static func match(
        bundle: ModelBundle, facts: [String: CoreDataModelFacts] = [:], requested: String?, schema: CoreDataSchema,
        metadata: CoreDataMetadata, path: String
    ) throws(RemodelError) -> Candidate {
        if let requested {
            let version = try bundle.requireVersion(named: requested, code: .invalidModel)
            let candidate = Self.candidate(version, facts: facts[version.name], schema: schema, metadata: metadata)
            guard candidate.mapping.differences.isEmpty else {
                throw RemodelError(
                    .incompatibleStore,
                    "the Core Data store does not fit version \"\(requested)\" of model \"\(bundle.name)\": \(summary(candidate.mapping.differences)); give the version the app had when it last wrote the store (or leave out --version to let Remodel find it)",
                    path: path)
            }
            return candidate
        }
        var candidates: [Candidate] = []
        for name in bundle.versionNames {
            candidates.append(
                Self.candidate(
                    try bundle.loadVersion(named: name), facts: facts[name], schema: schema, metadata: metadata))
        }
        let ranked = candidates.sorted { score($0).lexicographicallyPrecedes(score($1)) }
        guard let best = ranked.first else {
            throw RemodelError(.invalidModel, "model \"\(bundle.name)\" has no version", path: bundle.path)
        }
        guard best.mapping.differences.isEmpty else {
            throw RemodelError(
                .incompatibleStore,
                "the Core Data store fits no version of model \"\(bundle.name)\"; the closest is \"\(best.version.name)\", but \(summary(best.mapping.differences)); give the model the app had when it wrote the store",
                path: path)
        }
        let tied = ranked.filter { score($0) == score(best) }
        guard tied.count == 1 else {
            let names = tied.map { "\"\($0.version.name)\"" }
            let list = names.dropLast().joined(separator: ", ") + " and " + (names.last ?? "")
            throw RemodelError(
                .incompatibleStore,
                "the Core Data store fits versions \(list) of model \"\(bundle.name)\" equally (same tables, columns and indexes; Core Data's version hashes, which would tell them apart, cannot be computed outside Apple's platforms); say which one wrote it with --version",
                path: path)
        }
        return best
    }

    /// The candidate of `version`, with its `facts` (read from its file when `nil`).
    static func candidate(
        _ version: ModelVersion, facts: CoreDataModelFacts? = nil, schema: CoreDataSchema, metadata: CoreDataMetadata
    ) -> Candidate {
        let layout = StoreLayout(version: version)
        let mapping = CoreDataMapping(
            layout: layout, schema: schema, metadata: metadata, facts: facts ?? CoreDataModelFacts.read(version))
        return Candidate(version: version, layout: layout, mapping: mapping)
    }

    /// Differences first, indexes only to break a tie.
    private static func score(_ candidate: Candidate) -> [Int] {
        [candidate.mapping.differences.count, candidate.mapping.indexDifferences.count]
    }

    /// The first three differences, and how many more.
    static func summary(_ differences: [String]) -> String {
        let shown = differences.prefix(3).joined(separator: "; ")
        return differences.count > 3 ? "\(shown) (and \(differences.count - 3) more)" : shown
    }
}
