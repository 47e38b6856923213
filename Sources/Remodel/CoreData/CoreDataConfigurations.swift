/// The shapes a Core Data store of a version may have: the whole version, or one configuration's entities
/// (docs/CORE-DATA-STORES.md, "Configurations"), and how the version matcher names them.
enum CoreDataConfigurations {
    /// The shapes of `version` to try: the version whole and at each of its configurations that can be a store
    /// of its own, or at `configuration` alone; a version restricted to a configuration is its one shape. A
    /// configuration holding every entity is the whole version (the stores are the same). `skipped` says
    /// why each configuration that cannot be a store was left out.
    static func shapes(of version: ModelVersion, configuration: String?) throws(RemodelError) -> (
        shapes: [ModelVersion], skipped: [String]
    ) {
        if let restricted = version.configurationName {
            guard configuration == nil || configuration == restricted else {
                throw RemodelError(
                    .invalidModel,
                    "the model is restricted to configuration \"\(restricted)\"; it cannot be matched at configuration \"\(configuration ?? "")\"",
                    path: version.path)
            }
            return ([version], [])
        }
        if let configuration {
            // Asked for by name: a configuration that cannot be a store is refused with its reason.
            guard
                version.configurations.contains(where: { $0.name == configuration })
                    || version.isWholeVersion(atConfiguration: configuration)
            else { return ([], []) }
            return ([try version.restricted(toConfiguration: configuration)], [])
        }
        var shapes = [version]
        var skipped: [String] = []
        let everyEntity = Set(version.entities.map(\.name))
        for candidate in version.configurations where Set(candidate.memberEntities) != everyEntity {
            do {
                shapes.append(try version.restricted(toConfiguration: candidate.name))
            } catch {
                skipped.append(error.message)
            }
        }
        return (shapes, skipped)
    }

    /// ` at configuration "C"` for a candidate of one configuration, `""` for a whole version.
    static func at(_ candidate: CoreDataVersionMatcher.Candidate) -> String {
        candidate.version.configurationName.map { " at configuration \"\($0)\"" } ?? ""
    }

    /// The configurations the bundle's versions have, for a message about one they lack.
    static func known(in bundle: ModelBundle) -> String {
        var names: [String] = []
        for version in bundle.versions {
            for configuration in version.configurations where !names.contains(configuration.name) {
                names.append(configuration.name)
            }
        }
        guard !names.isEmpty else { return "its versions have no configurations" }
        return "its versions have configurations " + names.map { "\"\($0)\"" }.joined(separator: ", ")
    }

    /// The error for candidates that fit the store equally: each named, and the option that tells them apart.
    static func tie(_ tied: [CoreDataVersionMatcher.Candidate], bundle: ModelBundle, path: String) -> RemodelError {
        let names = tied.map { "\"\($0.version.name)\"\(at($0))" }
        let list = names.listed()
        let versions = Set(tied.map(\.version.name)).count > 1
        let configurations = Set(tied.map { $0.version.configurationName ?? "" }).count > 1
        let options = [versions ? "--version" : nil, configurations ? "--configuration" : nil].compactMap { $0 }
        let why =
            versions
            ? "same tables, columns and indexes; Core Data's version hashes, which would tell them apart, cannot be computed outside Apple's platforms"
            : "same entities, tables and columns"
        return RemodelError(
            .incompatibleStore,
            "the Core Data store fits versions \(list) of model \"\(bundle.name)\" equally (\(why)); say which one wrote it with \(options.joined(separator: " and "))",
            path: path)
    }
}
