/// The entities of a model and the names of their own properties: what
/// Remodel compares to find which version of a bundle an Xcode mapping model
/// was made for.
///
/// Xcode stores, in `sourcemodeldata` and `destinationmodeldata`, a keyed
/// archive of its own editor's model (`XDPMModel`): each entity is an
/// `XDPMEntity` whose `_name` is the entity's name and whose
/// `XDBucketForOwnedAttributesstorage` dictionary is keyed by the names of the
/// properties it declares (attributes, relationships, fetched properties).
/// The archive holds no version hashes, so names are what can be compared.
struct ModelSnapshot: Sendable, Hashable {
    /// Property names by entity name.
    var entities: [String: Set<String>]

    init(entities: [String: Set<String>]) {
        self.entities = entities
    }

    /// The same names taken from a model version.
    init(version: ModelVersion) {
        var entities: [String: Set<String>] = [:]
        for entity in version.entities {
            let names =
                entity.attributes.map(\.name) + entity.relationships.map(\.name) + entity.fetchedProperties.map(\.name)
            entities[entity.name, default: []].formUnion(names)
        }
        self.entities = entities
    }

    /// Reads the entities of an archived Xcode model.
    init(archive bytes: [UInt8]) throws(KeyedArchive.Failure) {
        let archive = try KeyedArchive(bytes: bytes)
        var entities: [String: Set<String>] = [:]
        for index in archive.objects.indices {
            guard case .object(let object) = try archive.resolve(.uid(index)), object.className == "XDPMEntity" else {
                continue
            }
            guard let name = try object.value("_name")?.string else {
                throw KeyedArchive.Failure(message: "entity object \(index) of the model snapshot has no name")
            }
            var names: Set<String> = []
            if case .object(let storage)? = try object.value("XDBucketForOwnedAttributesstorage") {
                for entry in try storage.entries() {
                    if let property = entry.key.string { names.insert(property) }
                }
            }
            entities[name, default: []].formUnion(names)
        }
        guard !entities.isEmpty else {
            throw KeyedArchive.Failure(message: "the model snapshot holds no entity (XDPMEntity)")
        }
        self.entities = entities
    }

    /// How much two snapshots share: entities and (entity, property) pairs in both, over those in either (1 when equal).
    func similarity(to other: ModelSnapshot) -> Double {
        let mine = pairs, theirs = other.pairs
        let union = mine.union(theirs).count
        return union == 0 ? 1 : Double(mine.intersection(theirs).count) / Double(union)
    }

    private var pairs: Set<String> {
        var result: Set<String> = []
        for (entity, properties) in entities {
            result.insert(entity)
            for property in properties { result.insert(entity + "." + property) }
        }
        return result
    }

    /// What `other` (a version) has that this snapshot has not, and the reverse, in a few words each.
    func differences(from other: ModelSnapshot, limit: Int = 4) -> String {
        var lines: [String] = []
        for entity in entities.keys.sorted() where other.entities[entity] == nil {
            lines.append("has no entity \(entity)")
        }
        for entity in other.entities.keys.sorted() where entities[entity] == nil {
            lines.append("has an entity \(entity) the mapping does not know")
        }
        for entity in entities.keys.sorted() {
            guard let theirs = other.entities[entity], let mine = entities[entity] else { continue }
            for property in mine.subtracting(theirs).sorted() { lines.append("has no \(entity).\(property)") }
            for property in theirs.subtracting(mine).sorted() {
                lines.append("has \(entity).\(property), which the mapping does not know")
            }
        }
        let shown = lines.prefix(limit).joined(separator: "; ")
        return lines.count > limit ? shown + "; and \(lines.count - limit) more" : shown
    }
}
