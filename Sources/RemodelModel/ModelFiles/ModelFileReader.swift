import Foundation

/// Turns the XML of one `contents` file into a ``ModelVersion``, keeping every
/// element's position. Structural problems (wrong root) become diagnostics;
/// semantic checks belong to validation.
///
/// A file is read on one of two roads to one answer. Most files (UTF-8, no document type, no CDATA, no
/// namespaces, no line breaks inside attribute values: what Xcode writes) take the tag reader
/// (`ModelTagTree`): `PlainXML` (or, for a text it does not take, libxml2) checks the file without building a
/// tree, and one pass over the bytes gives each
/// element, its attributes and their positions, each distinct tag decoded once per bundle. Any other file
/// takes libxml2's tree (`XMLNode`). The mapping below is the same for both (`ModelElementTree`).
package enum ModelFileReader {
    static func read(path: String, displayPath: String, versionName: String, pool: TagRecordPool? = nil)
        -> (ModelVersion?, [Diagnostic])
    {
        guard let bytes = FileSystem.bytes(atPath: path) else {
            let failure = XMLDocumentReader.Failure(
                location: SourceLocation(file: displayPath), message: "cannot read the file")
            return (nil, [Diagnostic(.error, rule: .malformedXML, message: failure.message, at: failure.location)])
        }
        return read(bytes: bytes, path: displayPath, versionName: versionName, pool: pool)
    }

    /// Reads a file's bytes; `path` is what locations call it. With a `pool`, the element records are shared
    /// with every other version read with it.
    static func read(bytes: [UInt8], path: String, versionName: String, pool: TagRecordPool? = nil)
        -> (ModelVersion?, [Diagnostic])
    {
        do {
            if let tree = try ModelTagTree.read(bytes, file: path, pool: pool ?? TagRecordPool()) {
                return version(from: tree, path: path, versionName: versionName)
            }
        } catch {
            return (nil, [Diagnostic(.error, rule: .malformedXML, message: error.message, at: error.location)])
        }
        var (version, diagnostics) = readThroughTree(bytes: bytes, path: path, versionName: versionName)
        if let pool { version?.shareSources(in: pool.sources) }
        return (version, diagnostics)
    }

    /// Reads a file's bytes through libxml2's tree, whatever the text: the road every file took before the tag
    /// reader, and the one it is held to.
    static func readThroughTree(bytes: [UInt8], path: String, versionName: String) -> (ModelVersion?, [Diagnostic]) {
        do {
            let root = try XMLDocumentReader.parseWithLibXML2(bytes, file: path)
            return version(from: root, path: path, versionName: versionName)
        } catch {
            return (nil, [Diagnostic(.error, rule: .malformedXML, message: error.message, at: error.location)])
        }
    }

    package static func version(from root: XMLNode, path: String, versionName: String)
        -> (ModelVersion?, [Diagnostic])
    {
        version(from: XMLNodeTree(root: root), path: path, versionName: versionName)
    }

    static func version<Tree: ModelElementTree>(from tree: Tree, path: String, versionName: String)
        -> (ModelVersion?, [Diagnostic])
    {
        let root = tree.root
        guard tree.isElement(root, .model) else {
            let name = tree.name(of: root)
            let message =
                "the root element is <\(name)>, but a Core Data model file starts with <model>; is this the right file?"
            return (nil, [Diagnostic(.error, rule: .wrongRoot, message: message, at: tree.location(of: root))])
        }
        let reader = Mapping(tree: tree)
        let entities = tree.children(of: root, .entity).map(reader.entity)
        let composites = tree.children(of: root, .composite).map { node in
            Composite(
                name: tree.value(.name, of: node) ?? "",
                attributes: tree.children(of: node, .attribute).map(reader.attribute),
                source: tree.source(of: node))
        }
        let configurations = tree.children(of: root, .configuration).map { node in
            Configuration(
                name: tree.value(.name, of: node) ?? "",
                memberEntities: tree.children(of: node, .memberEntity).compactMap { tree.value(.name, of: $0) },
                source: tree.source(of: node),
                memberSources: tree.children(of: node, .memberEntity).compactMap { member in
                    tree.value(.name, of: member).map { _ in tree.source(of: member) }
                })
        }
        var version = ModelVersion(
            name: versionName, path: path, entities: entities, composites: composites,
            configurations: configurations, source: tree.source(of: root))
        version.entityTexts = entityTexts(of: tree)
        version.otherElements = otherElements(of: tree)
        return (version, [])
    }

    /// The elements the mapping below does not read: under the model (but Xcode's layout), under an entity, and
    /// under an attribute or a relationship (but `<userInfo>`).
    private static func otherElements<Tree: ModelElementTree>(of tree: Tree) -> [ModelVersion.OtherElement] {
        var result: [ModelVersion.OtherElement] = []
        func add(_ node: Tree.Node, in parent: String) {
            result.append(
                ModelVersion.OtherElement(name: tree.name(of: node), parent: parent, source: tree.source(of: node)))
        }
        let entityParts: [ModelElementKind] = [
            .attribute, .relationship, .fetchedProperty, .userInfo, .uniquenessConstraints, .fetchIndex,
            .compoundIndexes,
        ]
        for child in tree.children(of: tree.root) {
            if tree.isElement(child, .entity) {
                let entity = tree.value(.name, of: child) ?? ""
                for part in tree.children(of: child) {
                    guard !entityParts.contains(where: { tree.isElement(part, $0) }) else {
                        if tree.isElement(part, .attribute) || tree.isElement(part, .relationship) {
                            let kind = tree.isElement(part, .attribute) ? "attribute" : "relationship"
                            for inner in tree.children(of: part) where !tree.isElement(inner, .userInfo) {
                                add(inner, in: "\(kind) \(entity).\(tree.value(.name, of: part) ?? "")")
                            }
                        }
                        continue
                    }
                    add(part, in: "entity \(entity)")
                }
            } else if !tree.isElement(child, .composite) && !tree.isElement(child, .configuration)
                && tree.name(of: child) != "elements"
            {
                add(child, in: "model")
            }
        }
        return result
    }

    /// What stands for each entity's text in the file, by name: from its `<` to the next element of the model's
    /// (or the end); the text itself is not kept.
    /// Two versions whose entity has the same text define it the same (``ModelVersion/hasSameDefinition(of:as:in:)``).
    private static func entityTexts<Tree: ModelElementTree>(of tree: Tree) -> [String: EntityTextDigest] {
        guard let bytes = tree.documentBytes else { return [:] }
        var texts: [String: EntityTextDigest] = [:]
        let children = tree.children(of: tree.root)
        for (index, node) in children.enumerated() where tree.isElement(node, .entity) {
            let offset = tree.offset(of: node)
            let end = index + 1 < children.count ? tree.offset(of: children[index + 1]) : bytes.count
            guard let name = tree.value(.name, of: node), offset > 0, offset < end, end <= bytes.count,
                texts[name] == nil
            else { return [:] }
            texts[name] = bytes[offset..<end].withUnsafeBytes(EntityTextDigest.init)
        }
        return texts
    }

    /// The mapping of a tree's elements into the model's values.
    private struct Mapping<Tree: ModelElementTree> {
        let tree: Tree
        typealias Node = Tree.Node

        private func value(_ name: ModelXMLName, _ node: Node) -> String? { tree.value(name, of: node) }

        private func flag(_ node: Node, _ name: ModelXMLName) -> Bool {
            tree.value(name, of: node) == "YES"
        }

        private func userInfo(_ node: Node) -> [String: String] {
            var entries: [String: String] = [:]
            for info in tree.children(of: node, .userInfo) {
                for entry in tree.children(of: info, .entry) {
                    if let key = value(.key, entry) { entries[key] = value(.value, entry) ?? "" }
                }
            }
            return entries
        }

        func entity(_ node: Node) -> Entity {
            var constraints: [UniquenessConstraint] = []
            for group in tree.children(of: node, .uniquenessConstraints) {
                for constraint in tree.children(of: group, .uniquenessConstraint) {
                    let parts = tree.children(of: constraint, .constraint)
                    constraints.append(
                        UniquenessConstraint(
                            properties: parts.map { value(.value, $0) ?? "" }, sources: parts.map(tree.source(of:)),
                            source: tree.source(of: constraint)))
                }
            }
            var indexes: [FetchIndex] = tree.children(of: node, .fetchIndex).map { index in
                FetchIndex(
                    name: value(.name, index) ?? "",
                    elements: tree.children(of: index, .fetchIndexElement).map { element in
                        FetchIndex.Element(
                            property: value(.property, element) ?? "",
                            ascending: value(.order, element) != "descending", source: tree.source(of: element))
                    },
                    source: tree.source(of: index))
            }
            let entityName = value(.name, node) ?? ""
            for group in tree.children(of: node, .compoundIndexes) {
                for (position, index) in tree.children(of: group, .compoundIndex).enumerated() {
                    let elements = tree.children(of: index, .index).map { element in
                        FetchIndex.Element(property: value(.value, element) ?? "", source: tree.source(of: element))
                    }
                    indexes.append(
                        FetchIndex(
                            name: "\(entityName)_compound_\(position + 1)", elements: elements,
                            source: tree.source(of: index)))
                }
            }
            return Entity(
                name: entityName,
                className: value(.representedClassName, node),
                parentName: value(.parentEntity, node),
                isAbstract: flag(node, .isAbstract),
                elementID: value(.elementID, node),
                versionHashModifier: value(.versionHashModifier, node),
                attributes: tree.children(of: node, .attribute).map(attribute),
                relationships: tree.children(of: node, .relationship).map(relationship),
                fetchedProperties: tree.children(of: node, .fetchedProperty).map {
                    FetchedProperty(name: value(.name, $0) ?? "", source: tree.source(of: $0))
                },
                uniquenessConstraints: constraints,
                fetchIndexes: indexes,
                userInfo: userInfo(node),
                source: tree.source(of: node))
        }

        func attribute(_ node: Node) -> Attribute {
            let typeName = value(.attributeType, node)
            let type = typeName.flatMap(AttributeType.init(rawValue:)) ?? .undefined
            let isDate = type == .date
            return Attribute(
                name: value(.name, node) ?? "",
                type: type,
                typeName: typeName ?? "",
                isOptional: flag(node, .optional),
                isTransient: flag(node, .transient),
                defaultValue: isDate
                    ? value(.defaultDateTimeInterval, node) ?? value(.defaultValueString, node)
                    : value(.defaultValueString, node),
                minValue: isDate
                    ? value(.minDateTimeInterval, node) ?? value(.minValueString, node)
                    : value(.minValueString, node),
                maxValue: isDate
                    ? value(.maxDateTimeInterval, node) ?? value(.maxValueString, node)
                    : value(.maxValueString, node),
                regularExpression: value(.regularExpressionString, node),
                elementID: value(.elementID, node),
                versionHashModifier: value(.versionHashModifier, node),
                valueTransformerName: value(.valueTransformerName, node),
                compositeName: value(.composite, node),
                isIndexed: flag(node, .indexed),
                userInfo: userInfo(node),
                isDerived: flag(node, .derived),
                derivationExpression: value(.derivationExpression, node),
                source: tree.source(of: node))
        }

        func relationship(_ node: Node) -> Relationship {
            let toMany = flag(node, .toMany)
            return Relationship(
                name: value(.name, node) ?? "",
                destinationEntity: value(.destinationEntity, node),
                inverseName: value(.inverseName, node),
                inverseEntity: value(.inverseEntity, node),
                isOptional: flag(node, .optional),
                isToMany: toMany,
                isOrdered: flag(node, .ordered),
                deletionRuleName: value(.deletionRule, node),
                minCount: value(.minCount, node).flatMap { Int($0) },
                maxCount: value(.maxCount, node).flatMap { Int($0) },
                isTransient: flag(node, .transient),
                elementID: value(.elementID, node),
                versionHashModifier: value(.versionHashModifier, node),
                userInfo: userInfo(node),
                source: tree.source(of: node))
        }
    }
}
