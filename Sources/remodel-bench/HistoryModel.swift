/// One version of the `longHistory` scenario's generated model, as values that ``HistoryChanges`` edits
/// from one version to the next and that are written as Xcode's XML (`contents`).
///
/// Renames follow Xcode: the renamed element keeps its former name as `elementID`, so a later rename
/// chains (each version's `elementID` is the name the element had in the version before it changed).
struct HistoryModel {
    struct Attribute {
        var name: String
        var type: String
        var optional = true
        /// `defaultValueString`.
        var defaultValue: String?
        var elementID: String?
    }

    struct Relationship {
        var name: String
        var destination: String
        var inverse: String
        var toMany = false
        var ordered = false
        var elementID: String?
    }

    struct Entity {
        var name: String
        var parent: String?
        var isAbstract = false
        var elementID: String?
        var attributes: [Attribute] = []
        var relationships: [Relationship] = []
        /// Attributes each with a uniqueness constraint of its own.
        var unique: [String] = []
    }

    /// Entities in the order they were added.
    var entities: [Entity] = []

    var entityNames: [String] { entities.map(\.name) }

    private func index(of entity: String) -> Int {
        guard let index = entities.firstIndex(where: { $0.name == entity }) else {
            preconditionFailure("no entity \(entity)")
        }
        return index
    }

    mutating func addEntity(_ entity: Entity) {
        precondition(!entityNames.contains(entity.name), "entity \(entity.name) twice")
        entities.append(entity)
    }

    /// Removes an entity and the relationships of other entities that lead to it.
    mutating func removeEntity(_ name: String) {
        entities.remove(at: index(of: name))
        for entity in entities.indices {
            entities[entity].relationships.removeAll { $0.destination == name }
        }
    }

    /// Renames an entity (`elementID` the former name) and every reference to it.
    mutating func renameEntity(_ name: String, to newName: String) {
        let renamed = index(of: name)
        entities[renamed].name = newName
        entities[renamed].elementID = name
        for entity in entities.indices {
            if entities[entity].parent == name { entities[entity].parent = newName }
            for relationship in entities[entity].relationships.indices
            where entities[entity].relationships[relationship].destination == name {
                entities[entity].relationships[relationship].destination = newName
            }
        }
    }

    mutating func addAttribute(_ attribute: Attribute, to entity: String) {
        let target = index(of: entity)
        precondition(
            !entities[target].attributes.contains { $0.name == attribute.name }, "\(entity).\(attribute.name) twice")
        entities[target].attributes.append(attribute)
    }

    mutating func removeAttribute(_ name: String, of entity: String) {
        let target = index(of: entity)
        let before = entities[target].attributes.count
        entities[target].attributes.removeAll { $0.name == name }
        precondition(entities[target].attributes.count == before - 1, "no attribute \(entity).\(name)")
    }

    /// Changes one attribute of an entity in place.
    mutating func changeAttribute(_ name: String, of entity: String, _ change: (inout Attribute) -> Void) {
        let target = index(of: entity)
        guard let attribute = entities[target].attributes.firstIndex(where: { $0.name == name }) else {
            preconditionFailure("no attribute \(entity).\(name)")
        }
        change(&entities[target].attributes[attribute])
    }

    /// Gives an attribute a uniqueness constraint of its own.
    mutating func makeUnique(_ attribute: String, of entity: String) {
        entities[index(of: entity)].unique.append(attribute)
    }

    /// Renames an attribute, its former name kept as `elementID`.
    mutating func renameAttribute(_ name: String, of entity: String, to newName: String) {
        changeAttribute(name, of: entity) { attribute in
            attribute.elementID = attribute.name
            attribute.name = newName
        }
    }

    /// Adds a relationship and its inverse: `name` on `entity` leads to `destination`, whose `inverse` leads back.
    mutating func link(
        _ entity: String, _ name: String, toMany: Bool = false, ordered: Bool = false, to destination: String,
        _ inverse: String,
        inverseToMany: Bool, inverseOrdered: Bool = false
    ) {
        entities[index(of: entity)].relationships.append(
            Relationship(name: name, destination: destination, inverse: inverse, toMany: toMany, ordered: ordered))
        entities[index(of: destination)].relationships.append(
            Relationship(
                name: inverse, destination: entity, inverse: name, toMany: inverseToMany, ordered: inverseOrdered))
    }

    /// Changes one relationship of an entity in place.
    mutating func changeRelationship(_ name: String, of entity: String, _ change: (inout Relationship) -> Void) {
        let target = index(of: entity)
        guard let relationship = entities[target].relationships.firstIndex(where: { $0.name == name }) else {
            preconditionFailure("no relationship \(entity).\(name)")
        }
        change(&entities[target].relationships[relationship])
    }

    /// Renames a relationship (`elementID` the former name) and points its inverse at the new name.
    mutating func renameRelationship(_ name: String, of entity: String, to newName: String) {
        var destination = ""
        var inverse = ""
        changeRelationship(name, of: entity) { relationship in
            relationship.elementID = relationship.name
            relationship.name = newName
            destination = relationship.destination
            inverse = relationship.inverse
        }
        changeRelationship(inverse, of: destination) { $0.inverse = newName }
    }

    /// The concrete entities: those the seeder gives objects.
    var concreteEntityCount: Int { entities.filter { !$0.isAbstract }.count }

    /// Xcode's `contents` file of this version.
    var xml: String {
        var text = """
            <?xml version="1.0" encoding="UTF-8" standalone="yes"?>
            <model type="com.apple.IDECoreDataModeler.DataModel" documentVersion="1.0" lastSavedToolsVersion="22758" systemVersion="23E224" minimumToolsVersion="Automatic" sourceLanguage="Swift" userDefinedModelVersionIdentifier="">

            """
        for entity in entities.sorted(by: { $0.name < $1.name }) {
            text += "    <entity name=\"\(entity.name)\" representedClassName=\"\(entity.name)\""
            if let parent = entity.parent { text += " parentEntity=\"\(parent)\"" }
            if entity.isAbstract { text += " isAbstract=\"YES\"" }
            if let elementID = entity.elementID { text += " elementID=\"\(elementID)\"" }
            text += " syncable=\"YES\">\n"
            for attribute in entity.attributes { text += Self.line(attribute) }
            for relationship in entity.relationships { text += Self.line(relationship) }
            if !entity.unique.isEmpty {
                text += "        <uniquenessConstraints>\n"
                for name in entity.unique {
                    text +=
                        "            <uniquenessConstraint>\n                <constraint value=\"\(name)\"/>\n            </uniquenessConstraint>\n"
                }
                text += "        </uniquenessConstraints>\n"
            }
            text += "    </entity>\n"
        }
        return text + "</model>\n"
    }

    private static let scalarTypes: Set<String> = [
        "Integer 16", "Integer 32", "Integer 64", "Double", "Float", "Boolean",
    ]

    private static func line(_ attribute: Attribute) -> String {
        var text = "        <attribute name=\"\(attribute.name)\""
        if attribute.optional { text += " optional=\"YES\"" }
        text += " attributeType=\"\(attribute.type)\""
        if let value = attribute.defaultValue { text += " defaultValueString=\"\(value)\"" }
        if scalarTypes.contains(attribute.type) { text += " usesScalarValueType=\"YES\"" }
        if let elementID = attribute.elementID { text += " elementID=\"\(elementID)\"" }
        return text + "/>\n"
    }

    private static func line(_ relationship: Relationship) -> String {
        var text = "        <relationship name=\"\(relationship.name)\" optional=\"YES\""
        text += relationship.toMany ? " toMany=\"YES\"" : " maxCount=\"1\""
        if relationship.ordered { text += " ordered=\"YES\"" }
        text += " deletionRule=\"Nullify\" destinationEntity=\"\(relationship.destination)\""
        text += " inverseName=\"\(relationship.inverse)\" inverseEntity=\"\(relationship.destination)\""
        if let elementID = relationship.elementID { text += " elementID=\"\(elementID)\"" }
        return text + "/>\n"
    }
}
