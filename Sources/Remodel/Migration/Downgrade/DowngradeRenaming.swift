/// Renaming identifiers read backwards, for a downgrade.
///
/// A renaming identifier (`elementID`) is written on the newer element and names the older one
/// (`Person.age` with `elementID="yearsSinceBirth"`). Inference matches a destination element whose
/// identifier names a source element, so in a downgrade, from the newer version to the older, the
/// identifiers sit on the wrong side. This gives the older version's elements the identifiers that
/// point at their newer names, so that the same engine — inference, mapping files merged over it,
/// Xcode mapping models — matches them. Renaming identifiers are no part of the version hashes or the
/// store layout: the older version's store is the same.
enum DowngradeRenaming {
    /// `older`, each element renamed in `newer` given an identifier naming its newer name.
    static func older(_ older: ModelVersion, readFrom newer: ModelVersion) -> ModelVersion {
        var newerNames: [String: String] = [:]
        var entities = older.entities
        for index in entities.indices {
            let entity = entities[index]
            let renamed = renamedElement(
                entity.name, entity.elementID, among: newer.entities, name: \.name, elementID: \.elementID)
            if let renamed { entities[index].elementID = renamed }
            newerNames[entity.name] = renamed ?? entity.name
        }
        for index in entities.indices {
            guard let newerName = newerNames[entities[index].name], let newerEntity = newer.entity(named: newerName)
            else { continue }
            let attributes = newer.attributes(of: newerEntity)
            let relationships = newer.relationships(of: newerEntity)
            for offset in entities[index].attributes.indices {
                let attribute = entities[index].attributes[offset]
                if let renamed = renamedElement(
                    attribute.name, attribute.elementID, among: attributes, name: \.name, elementID: \.elementID)
                {
                    entities[index].attributes[offset].elementID = renamed
                }
            }
            for offset in entities[index].relationships.indices {
                let relationship = entities[index].relationships[offset]
                if let renamed = renamedElement(
                    relationship.name, relationship.elementID, among: relationships, name: \.name,
                    elementID: \.elementID)
                {
                    entities[index].relationships[offset].elementID = renamed
                }
            }
        }
        return ModelVersion(
            name: older.name, path: older.path, entities: entities, composites: older.composites,
            configurations: older.configurations,
            source: older.source)
    }

    /// The name of the newer element that names this older one by its renaming identifier (the older
    /// element's name or its own identifier), when it has another name.
    private static func renamedElement<Element>(
        _ name: String, _ elementID: String?, among newer: [Element], name newerName: (Element) -> String,
        elementID newerElementID: (Element) -> String?
    ) -> String? {
        let match = newer.first { element in
            guard let identifier = newerElementID(element), !identifier.isEmpty, newerName(element) != name else {
                return false
            }
            return identifier == name || identifier == elementID
        }
        return match.map(newerName)
    }
}
