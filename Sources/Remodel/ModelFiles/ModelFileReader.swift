import Foundation

/// Turns the XML of one `contents` file into a ``ModelVersion``, keeping every
/// element's position. Structural problems (wrong root) become diagnostics;
/// semantic checks belong to validation.
package enum ModelFileReader {
    static func read(path: String, displayPath: String, versionName: String) -> (ModelVersion?, [Diagnostic]) {
        let root: XMLNode
        do {
            root = try XMLDocumentReader.read(path: path, displayPath: displayPath)
        } catch {
            return (nil, [Diagnostic(.error, rule: .malformedXML, message: error.message, at: error.location)])
        }
        return version(from: root, path: displayPath, versionName: versionName)
    }

    package static func version(from root: XMLNode, path: String, versionName: String) -> (ModelVersion?, [Diagnostic])
    {
        guard root.name == "model" else {
            let message =
                "the root element is <\(root.name)>, but a Core Data model file starts with <model>; is this the right file?"
            return (nil, [Diagnostic(.error, rule: .wrongRoot, message: message, at: root.location)])
        }
        let entities = root.children(named: "entity").map(entity)
        let composites = root.children(named: "composite").map { node in
            Composite(
                name: node.attribute("name") ?? "", attributes: node.children(named: "attribute").map(attribute),
                source: node.source)
        }
        let configurations = root.children(named: "configuration").map { node in
            Configuration(
                name: node.attribute("name") ?? "",
                memberEntities: node.children(named: "memberEntity").compactMap { $0.attribute("name") },
                source: node.source)
        }
        var version = ModelVersion(
            name: versionName, path: path, entities: entities, composites: composites,
            configurations: configurations, source: root.source)
        version.entityTexts = entityTexts(of: root)
        return (version, [])
    }

    /// What stands for each entity's text in the file, by name: from its `<` to the next element of the model's
    /// (or the end); the text itself is not kept.
    /// Two versions whose entity has the same text define it the same (``ModelVersion/hasSameDefinition(of:as:in:)``).
    private static func entityTexts(of root: XMLNode) -> [String: EntityTextDigest] {
        guard let bytes = root.document else { return [:] }
        var texts: [String: EntityTextDigest] = [:]
        for (index, node) in root.children.enumerated() where node.name == "entity" {
            let end = index + 1 < root.children.count ? root.children[index + 1].offset : bytes.count
            guard let name = node.attribute("name"), node.offset > 0, node.offset < end, end <= bytes.count,
                texts[name] == nil
            else { return [:] }
            texts[name] = bytes[node.offset..<end].withUnsafeBytes(EntityTextDigest.init)
        }
        return texts
    }

    private static func flag(_ node: XMLNode, _ name: String) -> Bool {
        node.attribute(name) == "YES"
    }

    private static func userInfo(_ node: XMLNode) -> [String: String] {
        var entries: [String: String] = [:]
        for info in node.children(named: "userInfo") {
            for entry in info.children(named: "entry") {
                if let key = entry.attribute("key") { entries[key] = entry.attribute("value") ?? "" }
            }
        }
        return entries
    }

    private static func entity(_ node: XMLNode) -> Entity {
        var constraints: [UniquenessConstraint] = []
        for group in node.children(named: "uniquenessConstraints") {
            for constraint in group.children(named: "uniquenessConstraint") {
                let parts = constraint.children(named: "constraint")
                constraints.append(
                    UniquenessConstraint(
                        properties: parts.map { $0.attribute("value") ?? "" }, sources: parts.map(\.source),
                        source: constraint.source))
            }
        }
        var indexes: [FetchIndex] = node.children(named: "fetchIndex").map { index in
            FetchIndex(
                name: index.attribute("name") ?? "",
                elements: index.children(named: "fetchIndexElement").map { element in
                    FetchIndex.Element(
                        property: element.attribute("property") ?? "",
                        ascending: element.attribute("order") != "descending", source: element.source)
                },
                source: index.source)
        }
        let entityName = node.attribute("name") ?? ""
        for group in node.children(named: "compoundIndexes") {
            for (position, index) in group.children(named: "compoundIndex").enumerated() {
                let elements = index.children(named: "index").map { element in
                    FetchIndex.Element(property: element.attribute("value") ?? "", source: element.source)
                }
                indexes.append(
                    FetchIndex(name: "\(entityName)_compound_\(position + 1)", elements: elements, source: index.source)
                )
            }
        }
        return Entity(
            name: entityName,
            className: node.attribute("representedClassName"),
            parentName: node.attribute("parentEntity"),
            isAbstract: flag(node, "isAbstract"),
            elementID: node.attribute("elementID"),
            versionHashModifier: node.attribute("versionHashModifier"),
            attributes: node.children(named: "attribute").map(attribute),
            relationships: node.children(named: "relationship").map(relationship),
            fetchedProperties: node.children(named: "fetchedProperty").map {
                FetchedProperty(name: $0.attribute("name") ?? "", source: $0.source)
            },
            uniquenessConstraints: constraints,
            fetchIndexes: indexes,
            userInfo: userInfo(node),
            source: node.source)
    }

    private static func attribute(_ node: XMLNode) -> Attribute {
        let typeName = node.attribute("attributeType")
        let type = typeName.flatMap(AttributeType.init(rawValue:)) ?? .undefined
        let isDate = type == .date
        return Attribute(
            name: node.attribute("name") ?? "",
            type: type,
            typeName: typeName ?? "",
            isOptional: flag(node, "optional"),
            isTransient: flag(node, "transient"),
            defaultValue: isDate
                ? node.attribute("defaultDateTimeInterval") ?? node.attribute("defaultValueString")
                : node.attribute("defaultValueString"),
            minValue: isDate
                ? node.attribute("minDateTimeInterval") ?? node.attribute("minValueString")
                : node.attribute("minValueString"),
            maxValue: isDate
                ? node.attribute("maxDateTimeInterval") ?? node.attribute("maxValueString")
                : node.attribute("maxValueString"),
            regularExpression: node.attribute("regularExpressionString"),
            elementID: node.attribute("elementID"),
            versionHashModifier: node.attribute("versionHashModifier"),
            valueTransformerName: node.attribute("valueTransformerName"),
            compositeName: node.attribute("composite"),
            isIndexed: flag(node, "indexed"),
            userInfo: userInfo(node),
            source: node.source)
    }

    private static func relationship(_ node: XMLNode) -> Relationship {
        let toMany = flag(node, "toMany")
        return Relationship(
            name: node.attribute("name") ?? "",
            destinationEntity: node.attribute("destinationEntity"),
            inverseName: node.attribute("inverseName"),
            inverseEntity: node.attribute("inverseEntity"),
            isOptional: flag(node, "optional"),
            isToMany: toMany,
            isOrdered: flag(node, "ordered"),
            deletionRuleName: node.attribute("deletionRule"),
            minCount: node.attribute("minCount").flatMap { Int($0) },
            maxCount: node.attribute("maxCount").flatMap { Int($0) },
            isTransient: flag(node, "transient"),
            elementID: node.attribute("elementID"),
            versionHashModifier: node.attribute("versionHashModifier"),
            userInfo: userInfo(node),
            source: node.source)
    }
}
