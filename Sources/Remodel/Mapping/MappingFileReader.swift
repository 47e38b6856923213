/// Reads mapping files, keeping the position of every element and expression.
package enum MappingFileReader {
    /// Reads a mapping file; problems in its structure become diagnostics.
    ///
    /// For example:
    /// ```swift
    /// let (file, diagnostics) = MappingFileReader.read(path: "Mappings/Library 1 to 2.xml")
    /// ```
    package static func read(path: String) -> (MappingFile?, [Diagnostic]) {
        let root: XMLNode
        do {
            root = try XMLDocumentReader.read(path: path)
        } catch {
            return (nil, [Diagnostic(.error, rule: .malformedXML, message: error.message, at: error.location)])
        }
        return mappingFile(from: root, path: path)
    }

    static func mappingFile(from root: XMLNode, path: String) -> (MappingFile?, [Diagnostic]) {
        guard root.name == "mapping" else {
            let message =
                "the root element is <\(root.name)>, but a mapping file starts with <mapping model=\"…\" sourceVersion=\"…\" destinationVersion=\"…\">"
            return (nil, [Diagnostic(.error, rule: .mappingWrongRoot, message: message, at: root.location)])
        }
        var diagnostics: [Diagnostic] = []
        func required(_ name: String, of node: XMLNode) -> String {
            if let value = node.attribute(name), !value.isEmpty { return value }
            diagnostics.append(
                Diagnostic(
                    .error, rule: .mappingMissingAttribute,
                    message: "<\(node.name)> needs a \(name)=\"…\" attribute", at: node.location))
            return ""
        }
        let model = required("model", of: root)
        let sourceVersion = required("sourceVersion", of: root)
        let destinationVersion = required("destinationVersion", of: root)
        var entities: [MappingFile.EntityRule] = []
        for child in root.children {
            guard child.name == "entity" else {
                diagnostics.append(unknownElement(child, expected: "<entity>"))
                continue
            }
            let sourceEntity = child.attribute("source")
            let destinationEntity = child.attribute("destination")
            if sourceEntity == nil && destinationEntity == nil {
                diagnostics.append(
                    Diagnostic(
                        .error, rule: .mappingMissingAttribute,
                        message: "<entity> needs source=\"…\", destination=\"…\" or both", at: child.location))
            }
            var attributes: [MappingFile.AttributeRule] = []
            var relationships: [MappingFile.RelationshipRule] = []
            for rule in child.children {
                switch rule.name {
                case "attribute":
                    let name = required("name", of: rule)
                    guard let value = rule.attributes.first(where: { $0.name == "value" }) else {
                        _ = required("value", of: rule)
                        continue
                    }
                    attributes.append(
                        MappingFile.AttributeRule(name: name, value: expression(value), source: rule.source))
                case "relationship":
                    let name = required("name", of: rule)
                    relationships.append(
                        MappingFile.RelationshipRule(
                            name: name, sourceRelationship: rule.attribute("source"), source: rule.source))
                default:
                    diagnostics.append(unknownElement(rule, expected: "<attribute> or <relationship>"))
                }
            }
            let filter = child.attributes.first { $0.name == "filter" }.map(expression)
            entities.append(
                MappingFile.EntityRule(
                    sourceEntity: sourceEntity, destinationEntity: destinationEntity, filter: filter,
                    attributes: attributes, relationships: relationships, source: child.source))
        }
        let file = MappingFile(
            path: path, modelName: model, sourceVersion: sourceVersion, destinationVersion: destinationVersion,
            entities: entities, source: root.source)
        return (file, diagnostics)
    }

    private static func expression(_ attribute: XMLNode.Attribute) -> ValueExpression {
        var expression = ValueExpression(attribute.value, location: attribute.valueLocation)
        expression.rawText = attribute.rawValue
        return expression
    }

    private static func unknownElement(_ node: XMLNode, expected: String) -> Diagnostic {
        Diagnostic(
            .error, rule: .mappingUnknownElement,
            message: "unexpected <\(node.name)> here; expected \(expected)", at: node.location)
    }
}

extension ValueExpression {
    /// The file position of a character of the expression (0-based, in Unicode scalars of the decoded text).
    package func location(atOffset offset: Int) -> SourceLocation? {
        if let origin { return origin.location(atOffset: offset) }
        guard let location else { return nil }
        let attribute = XMLNode.Attribute(name: "", value: text, rawValue: rawText ?? text, valueLocation: location)
        return attribute.location(atDecodedOffset: offset)
    }
}
