extension ModelVersion {
    /// The version as a store of one configuration sees it: the configuration's member entities only, each
    /// with its attributes and relationships as the whole version has them (so each keeps its version hash),
    /// and the sub-entities the configuration does not name left out; of the configurations, only this one. Core Data splits a model's entities
    /// across stores this way, one configuration a store (docs/CORE-DATA-STORES.md, "Configurations").
    ///
    /// For example:
    /// ```swift
    /// let cloud = try bundle.currentVersion.restricted(toConfiguration: "Cloud")
    /// print(cloud.entities.map(\.name))
    /// ```
    /// Xcode's `Default` configuration (``Configuration/defaultName``) holds every entity: when the version declares
    /// no configuration of that name, restricting it to `Default` gives the version itself, whose stores record
    /// no configuration. One the model declares is used as any other.
    /// - Throws: ``RemodelError`` with ``RemodelError/Code/invalidModel`` when the version has no such
    ///   configuration (naming those it has), or when the configuration cannot be a store of its own: it names
    ///   an entity the version lacks, a sub-entity without its parent (Core Data keeps a sub-entity's objects in
    ///   its root's table), or a relationship leads from one of its entities to an entity outside it (Core Data
    ///   cannot relate objects in different stores; Apple links such objects with a fetched property).
    public func restricted(toConfiguration name: String) throws(RemodelError) -> ModelVersion {
        guard configurationName == nil || configurationName == name else {
            throw RemodelError(
                .invalidModel,
                "version \"\(self.name)\" already holds only configuration \"\(configurationName ?? "")\"; it cannot hold configuration \"\(name)\"",
                path: path)
        }
        if configurationName == name || isWholeVersion(atConfiguration: name) { return self }
        guard let configuration = configurations.first(where: { $0.name == name }) else {
            throw RemodelError(.invalidModel, unknownConfiguration(name), path: path)
        }
        if let problem = ConfigurationClosure.problems(of: configuration, in: self).first {
            throw RemodelError(.invalidModel, problem.message, location: problem.location, path: path)
        }
        let members = Set(configuration.memberEntities)
        var version = ModelVersion(
            name: self.name, path: path, entities: entities.filter { members.contains($0.name) },
            composites: composites, configurations: [configuration], source: source)
        version.entityTexts = entityTexts.filter { members.contains($0.key) }
        version.otherElements = otherElements
        version.configurationName = name
        return version
    }

    /// The version restricted to `name`, or the version itself when `name` is `nil` (a store of every entity).
    package func restricted(toConfiguration name: String?) throws(RemodelError) -> ModelVersion {
        guard let name else { return self }
        return try restricted(toConfiguration: name)
    }

    /// Whether a store of configuration `name` is a store of every entity of this whole version: Xcode's `Default`
    /// when the version declares no configuration of that name.
    package func isWholeVersion(atConfiguration name: String) -> Bool {
        configurationName == nil && name == Configuration.defaultName && !configurations.contains { $0.name == name }
    }

    /// What to say of a configuration name the version does not have: the names it has.
    package func unknownConfiguration(_ name: String) -> String {
        let names = configurations.map { "\"\($0.name)\"" }
        let known =
            names.isEmpty
            ? "it has no configurations" : "its configurations are \(names.joined(separator: ", "))"
        return "version \"\(self.name)\" has no configuration \"\(name)\"; \(known)"
    }
}

/// Why a configuration cannot be a store of its own (``ModelVersion/restricted(toConfiguration:)``), each with
/// where the model says it; `remodel validate` reports the same findings.
package enum ConfigurationClosure {
    /// One reason, with the `<memberEntity>` or `<relationship>` it is about.
    package struct Problem: Sendable {
        package enum Kind: Sendable { case unknownMember, parentOutside, relationshipOutside }
        package var kind: Kind
        package var message: String
        package var location: SourceLocation
    }

    /// Every reason `configuration` of `version` cannot be a store of its own, in file order.
    package static func problems(of configuration: Configuration, in version: ModelVersion) -> [Problem] {
        let members = Set(configuration.memberEntities)
        let named = "configuration \"\(configuration.name)\""
        var problems: [Problem] = []
        for (offset, member) in configuration.memberEntities.enumerated() {
            let location =
                configuration.memberSources.indices.contains(offset)
                ? configuration.memberSources[offset].location : configuration.source.location
            guard let entity = version.entity(named: member) else {
                problems.append(
                    Problem(
                        kind: .unknownMember,
                        message: "\(named) names entity '\(member)', which the version does not have",
                        location: location))
                continue
            }
            if let parent = entity.parentName, !members.contains(parent) {
                problems.append(
                    Problem(
                        kind: .parentOutside,
                        message:
                            "\(named) holds entity '\(member)' but not its parent '\(parent)': Core Data keeps a sub-entity's objects in its root entity's table, so a store of the configuration needs the parent too",
                        location: location))
            }
            for relationship in entity.relationships {
                guard let destination = relationship.destinationEntity, !members.contains(destination),
                    version.entity(named: destination) != nil
                else { continue }
                problems.append(
                    Problem(
                        kind: .relationshipOutside,
                        message:
                            "\(named) holds entity '\(member)', whose relationship '\(relationship.name)' leads to '\(destination)', which is not in the configuration: Core Data cannot relate objects in different stores (link them with a fetched property instead)",
                        location: relationship.source.location))
            }
        }
        return problems
    }
}
