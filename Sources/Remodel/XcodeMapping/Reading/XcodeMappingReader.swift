import Foundation

/// Reads `xcmapping.xml`, the Core Data XML store Xcode writes for a mapping
/// model: a `<database>` of `<object type="XDDEVMAPPINGMODEL|XDDEVENTITYMAPPING|XDDEVATTRIBUTEMAPPING|XDDEVRELATIONSHIPMAPPING">`
/// elements holding `<attribute name="…">value</attribute>` and
/// `<relationship name="…" idrefs="z102 z103">` links. The mapping model
/// object lists its entity mappings, each entity mapping its attribute and
/// relationship mappings; objects nothing links to are left over by Xcode and
/// ignored. The file's `<!DOCTYPE database SYSTEM "file:///System/Library/DTDs/CoreData.dtd">`
/// is never loaded.
///
/// For example:
/// ```swift
/// let (model, diagnostics) = XcodeMappingReader.read(path: "V2toV3.xcmappingmodel/xcmapping.xml")
/// ```
package enum XcodeMappingReader {
    /// One `<object>`: its attributes by name and its links by name.
    private struct Object {
        var type: String
        var location: SourceLocation
        var attributes: [String: XMLNode]
        var links: [String: [String]]

        func text(_ name: String) -> XcodeMappingModel.Text? {
            guard let node = attributes[name] else { return nil }
            return XcodeMappingModel.Text(value: node.text, location: node.location, written: node.writtenText)
        }
    }

    /// Reads the file; problems become diagnostics, and the model is nil when it cannot be read at all.
    package static func read(path: String) -> (XcodeMappingModel?, [Diagnostic]) {
        let root: XMLNode
        do {
            root = try XMLDocumentReader.read(path: path)
        } catch {
            return (nil, [Diagnostic(.error, rule: .malformedXML, message: error.message, at: error.location)])
        }
        return model(from: root, path: path)
    }

    static func model(from root: XMLNode, path: String) -> (XcodeMappingModel?, [Diagnostic]) {
        guard root.name == "database" else {
            return (
                nil,
                [
                    structure(
                        "the root element is <\(root.name)>, but an Xcode mapping model's xcmapping.xml starts with <database>",
                        at: root.location)
                ]
            )
        }
        var objects: [String: Object] = [:]
        var order: [String] = []
        for node in root.children(named: "object") {
            guard let id = node.attribute("id"), let type = node.attribute("type") else { continue }
            var object = Object(type: type, location: node.location, attributes: [:], links: [:])
            for child in node.children {
                guard let name = child.attribute("name") else { continue }
                if child.name == "attribute" {
                    object.attributes[name] = child
                } else if child.name == "relationship" {
                    object.links[name] = (child.attribute("idrefs") ?? "").split(whereSeparator: \.isWhitespace).map(
                        String.init)
                }
            }
            objects[id] = object
            order.append(id)
        }
        guard let modelID = order.first(where: { objects[$0]?.type == "XDDEVMAPPINGMODEL" }),
            let mappingModel = objects[modelID]
        else {
            return (
                nil,
                [
                    structure(
                        "the file holds no mapping model (no <object type=\"XDDEVMAPPINGMODEL\">)", at: root.location)
                ]
            )
        }
        var diagnostics: [Diagnostic] = []
        func linked(_ ids: [String], type: String, from object: Object) -> [Object] {
            ids.compactMap { id in
                guard let target = objects[id], target.type == type else {
                    diagnostics.append(
                        structure(
                            "the link to \(id) does not lead to an \(type) object; it is ignored", at: object.location))
                    return nil
                }
                return target
            }
        }
        var entities: [XcodeMappingModel.EntityMapping] = []
        for object in linked(mappingModel.links["entitymappings"] ?? [], type: "XDDEVENTITYMAPPING", from: mappingModel)
        {
            let attributes = linked(
                object.links["attributemappings"] ?? [], type: "XDDEVATTRIBUTEMAPPING", from: object)
            let relationships = linked(
                object.links["relationshipmappings"] ?? [], type: "XDDEVRELATIONSHIPMAPPING", from: object)
            let source = nonEmpty(object.text("sourcename")), destination = nonEmpty(object.text("destinationname"))
            entities.append(
                XcodeMappingModel.EntityMapping(
                    source: source, destination: destination,
                    filter: nonEmpty(object.text("sourcefilterpredicatestring")),
                    policyClass: nonEmpty(object.text("migrationpolicyclassname")),
                    number: Int(object.text("mappingnumber")?.value ?? "") ?? 0,
                    attributes: attributes.compactMap { property($0, diagnostics: &diagnostics) },
                    relationships: relationships.compactMap { property($0, diagnostics: &diagnostics) },
                    location: object.location,
                    name: nonEmpty(object.text("name"))?.value
                        ?? defaultName(source: source?.value, destination: destination?.value)))
        }
        // Xcode lists entity mappings in `mappingnumber` order.
        entities = entities.enumerated().sorted { ($0.element.number, $0.offset) < ($1.element.number, $1.offset) }.map(
            \.element)
        let model = XcodeMappingModel(
            path: path, location: mappingModel.location,
            source: XcodeMappingModel.Model(
                path: nonEmpty(mappingModel.text("sourcemodelpath")), snapshot: mappingModel.text("sourcemodeldata")),
            destination: XcodeMappingModel.Model(
                path: nonEmpty(mappingModel.text("destinationmodelpath")),
                snapshot: mappingModel.text("destinationmodeldata")),
            entities: entities)
        return (model, diagnostics)
    }

    private static func property(_ object: Object, diagnostics: inout [Diagnostic]) -> XcodeMappingModel
        .PropertyMapping?
    {
        guard let name = nonEmpty(object.text("name")) else {
            diagnostics.append(
                structure("an attribute or relationship mapping has no name; it is ignored", at: object.location))
            return nil
        }
        var mapping = XcodeMappingModel.PropertyMapping(
            name: name, expression: nil, expressionProblem: nil, expressionLocation: object.location,
            location: object.location)
        guard let data = object.text("valueexpressiondata") else { return mapping }
        mapping.expressionLocation = data.location
        do {
            mapping.expression = try XcodeExpressionDecoder.expression(fromArchive: try bytes(ofBase64: data.value))
        } catch {
            mapping.expressionProblem = error.message
            diagnostics.append(
                Diagnostic(
                    .error, rule: .xcodeMappingData,
                    message: "the value expression of \(name.value) cannot be read: \(error.message)", at: data.location
                ))
        }
        return mapping
    }

    /// The name Xcode gives an entity mapping: `SourceToDestination`, or the one entity's name for an added or removed one.
    static func defaultName(source: String?, destination: String?) -> String {
        guard let source, let destination else { return source ?? destination ?? "?" }
        return source + "To" + destination
    }

    /// The bytes of base64 text as Xcode writes it (wrapped over lines).
    static func bytes(ofBase64 text: String) throws(KeyedArchive.Failure) -> [UInt8] {
        guard let data = Data(base64Encoded: text, options: .ignoreUnknownCharacters) else {
            throw KeyedArchive.Failure(message: "the data is not valid base64")
        }
        return Array(data)
    }

    private static func nonEmpty(_ text: XcodeMappingModel.Text?) -> XcodeMappingModel.Text? {
        guard let text, !text.value.trimmingCharacters(in: .whitespacesAndNewlines).isEmpty else { return nil }
        return text
    }

    private static func structure(_ message: String, at location: SourceLocation) -> Diagnostic {
        Diagnostic(.error, rule: .xcodeMappingStructure, message: message, at: location)
    }
}
