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
    /// one that fits best. Each version is tried whole and at each of its configurations (a store of one
    /// configuration holds that configuration's entities only); `configuration` tries that one alone, and a
    /// bundle restricted to a configuration tries its versions that have it.
    /// - Throws: ``/RemodelModel/RemodelError`` with ``/RemodelModel/RemodelError/Code/incompatibleStore`` when no
    ///   version fits (naming the closest and what differs) or two fit equally (naming both).
    /// `facts` holds those of versions not read from a file (the store's own model, a merged one), by name.
    package static func match(
        bundle: ModelBundle, facts: [String: CoreDataModelFacts] = [:], requested: String?,
        configuration: String? = nil, schema: CoreDataSchema, metadata: CoreDataMetadata, path: String
    ) throws(RemodelError) -> Candidate {
        let (candidates, skipped) = try Self.candidates(
            bundle: bundle, facts: facts, requested: requested, configuration: configuration, schema: schema,
            metadata: metadata)
        let ranked = candidates.sorted { score($0).lexicographicallyPrecedes(score($1)) }
        guard let best = ranked.first else {
            guard let configuration else {
                throw RemodelError(.invalidModel, "model \"\(bundle.name)\" has no version", path: bundle.path)
            }
            if let requested, let version = bundle.version(named: requested) {
                throw RemodelError(.invalidModel, version.unknownConfiguration(configuration), path: bundle.path)
            }
            throw RemodelError(
                .invalidModel,
                "no version of model \"\(bundle.name)\" has configuration \"\(configuration)\"; \(CoreDataConfigurations.known(in: bundle))",
                path: bundle.path)
        }
        guard best.mapping.differences.isEmpty else {
            // A configuration that cannot be a store of its own was not tried: say why, it may be the store's.
            let untried = skipped.isEmpty ? "" : " (not tried: \(skipped.joined(separator: "; ")))"
            if let requested {
                throw RemodelError(
                    .incompatibleStore,
                    "the Core Data store does not fit version \"\(requested)\" of model \"\(bundle.name)\"\(CoreDataConfigurations.at(best)): \(summary(best.mapping.differences)); give the version the app had when it last wrote the store (or leave out --version to let Remodel find it)\(untried)",
                    path: path)
            }
            throw RemodelError(
                .incompatibleStore,
                "the Core Data store fits no version of model \"\(bundle.name)\"; the closest is \"\(best.version.name)\"\(CoreDataConfigurations.at(best)), but \(summary(best.mapping.differences)); give the model the app had when it wrote the store\(untried)",
                path: path)
        }
        let tied = ranked.filter { score($0) == score(best) }
        guard tied.count == 1 else {
            throw CoreDataConfigurations.tie(tied, bundle: bundle, path: path)
        }
        return best
    }

    /// Every version (or `requested` alone) whole and at each of its configurations, each fitted to the store.
    private static func candidates(
        bundle: ModelBundle, facts: [String: CoreDataModelFacts], requested: String?, configuration: String?,
        schema: CoreDataSchema, metadata: CoreDataMetadata
    ) throws(RemodelError) -> (candidates: [Candidate], skipped: [String]) {
        var candidates: [Candidate] = []
        var skipped: [String] = []
        for name in requested.map({ [$0] }) ?? bundle.versionNames {
            let version: ModelVersion
            if requested == nil, bundle.configurationName != nil {
                // A version without the bundle's configuration cannot have written a store of it.
                guard let found = try? bundle.loadVersion(named: name) else { continue }
                version = found
            } else {
                version = try bundle.requireVersion(named: name, code: .invalidModel)
            }
            let versionFacts = facts[name] ?? CoreDataModelFacts.read(version)
            let (shapes, unfit) = try CoreDataConfigurations.shapes(of: version, configuration: configuration)
            for shape in shapes {
                candidates.append(Self.candidate(shape, facts: versionFacts, schema: schema, metadata: metadata))
            }
            skipped += unfit
        }
        return (candidates, skipped)
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
    static func score(_ candidate: Candidate) -> [Int] {
        [candidate.mapping.differences.count, candidate.mapping.indexDifferences.count]
    }

    /// The first three differences, and how many more.
    static func summary(_ differences: [String]) -> String {
        let shown = differences.prefix(3).joined(separator: "; ")
        return differences.count > 3 ? "\(shown) (and \(differences.count - 3) more)" : shown
    }
}
