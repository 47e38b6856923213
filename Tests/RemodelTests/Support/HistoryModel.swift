@testable import Remodel
@testable import RemodelModel

/// One version of a generated model history: entities, attributes and relationships with identities that
/// stay the same through renames (so a mutation can follow an element), written as Xcode writes a
/// `contents` file (entities, attributes and relationships by name), each element with a renaming
/// identifier of its own from the start (`element-7`), so that a rename in any version is matched.
struct HistoryModel {
    struct Attribute {
        var id: Int
        var name: String
        var elementID: String?
        var type: AttributeType
        var isOptional: Bool
        var defaultValue: String?
        /// Every name it had before, for renames back.
        var pastNames: [String] = []
    }

    struct Entity {
        var id: Int
        var name: String
        var elementID: String?
        var parent: Int?
        var isAbstract = false
        var attributes: [Attribute] = []
        var pastNames: [String] = []
    }

    /// The inverse side of a relationship, declared by the relationship's target.
    struct Inverse {
        var name: String
        var elementID: String?
        var isToMany: Bool
        var isOrdered: Bool
    }

    /// A relationship declared by `owner`, with its inverse (declared by `target`) when it has one.
    struct Link {
        var id: Int
        var owner: Int
        var name: String
        var elementID: String?
        var target: Int
        var isToMany: Bool
        var isOrdered: Bool
        var inverse: Inverse?
    }

    var entities: [Entity] = []
    var links: [Link] = []

    func entity(_ id: Int) -> Entity? { entities.first { $0.id == id } }
    func index(ofEntity id: Int) -> Int? { entities.firstIndex { $0.id == id } }

    /// The entity and its ancestors, nearest first.
    func lineage(_ id: Int) -> [Entity] {
        var result: [Entity] = []
        var next: Int? = id
        while let current = next, let entity = entity(current), !result.contains(where: { $0.id == current }) {
            result.append(entity)
            next = entity.parent
        }
        return result
    }

    /// The entity and every entity below it.
    func descendants(_ id: Int) -> [Entity] {
        entities.filter { entity in lineage(entity.id).contains { $0.id == id } }
    }

    /// The property names an entity declares (attributes, relationships and inverses it holds).
    func declaredNames(_ id: Int) -> [String] {
        var names = entity(id)?.attributes.map(\.name) ?? []
        for link in links {
            if link.owner == id { names.append(link.name) }
            if link.target == id, let inverse = link.inverse { names.append(inverse.name) }
        }
        return names
    }

    /// Names a new property of the entity may not take: those of its ancestors, itself and its descendants.
    func namesInUse(around id: Int) -> Set<String> {
        Set((lineage(id) + descendants(id)).flatMap { declaredNames($0.id) })
    }

    /// The `contents` elements of this version, in the order Xcode writes them.
    var xml: String {
        entities.sorted { Array($0.name.utf8).lexicographicallyPrecedes(Array($1.name.utf8)) }.map(entityXML)
            .joined(separator: "\n")
    }

    private func entityXML(_ entity: Entity) -> String {
        var head = #"<entity name="\#(entity.name)" representedClassName="\#(entity.name)""#
        if let parent = entity.parent.flatMap(self.entity) { head += #" parentEntity="\#(parent.name)""# }
        if entity.isAbstract { head += #" isAbstract="YES""# }
        let identifier = entity.elementID ?? "element-\(entity.id)"
        head += #" elementID="\#(identifier)""#
        var properties: [(String, String)] = entity.attributes.map { ($0.name, attributeXML($0)) }
        for link in links {
            guard let target = self.entity(link.target), let owner = self.entity(link.owner) else { continue }
            if link.owner == entity.id {
                properties.append(
                    (
                        link.name,
                        relationshipXML(
                            link.name, elementID: link.elementID ?? "element-\(link.id)", toMany: link.isToMany,
                            ordered: link.isOrdered,
                            destination: target.name, inverse: link.inverse.map { ($0.name, target.name) })
                    ))
            }
            if link.target == entity.id, let inverse = link.inverse {
                properties.append(
                    (
                        inverse.name,
                        relationshipXML(
                            inverse.name, elementID: inverse.elementID ?? "element-\(link.id)-inverse",
                            toMany: inverse.isToMany,
                            ordered: inverse.isOrdered, destination: owner.name, inverse: (link.name, owner.name))
                    ))
            }
        }
        let body = properties.sorted { Array($0.0.utf8).lexicographicallyPrecedes(Array($1.0.utf8)) }.map {
            "    " + $0.1
        }
        return ([head + ">"] + body + ["</entity>"]).joined(separator: "\n")
    }

    private func attributeXML(_ attribute: Attribute) -> String {
        var text = #"<attribute name="\#(attribute.name)""#
        if attribute.isOptional { text += #" optional="YES""# }
        text += #" attributeType="\#(attribute.type.rawValue)""#
        if let value = attribute.defaultValue {
            text +=
                attribute.type == .date
                ? #" defaultDateTimeInterval="\#(value)""# : #" defaultValueString="\#(value)""#
        }
        let identifier = attribute.elementID ?? "element-\(attribute.id)"
        text += #" elementID="\#(identifier)""#
        return text + #" usesScalarValueType="YES"/>"#
    }

    private func relationshipXML(
        _ name: String, elementID: String?, toMany: Bool, ordered: Bool, destination: String,
        inverse: (name: String, entity: String)?
    ) -> String {
        var text = #"<relationship name="\#(name)" optional="YES""#
        text += toMany ? #" toMany="YES""# : #" maxCount="1""#
        if toMany && ordered { text += #" ordered="YES""# }
        text += #" deletionRule="Nullify" destinationEntity="\#(destination)""#
        if let inverse { text += #" inverseName="\#(inverse.name)" inverseEntity="\#(inverse.entity)""# }
        if let elementID { text += #" elementID="\#(elementID)""# }
        return text + "/>"
    }
}
