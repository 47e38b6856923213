import Foundation

@testable import Remodel
@testable import RemodelModel

/// Writes `xcmapping.xml` files the way Xcode lays them out, for tests: the
/// document type that must never be loaded, the database header, one
/// `<object>` per mapping linked by `idrefs`, expressions and model snapshots
/// as base64 keyed archives, and one object nothing links to.
struct XcodeMappingFixture {
    struct Property {
        var name: String
        var expression: XcodeExpression?
        /// Written as `valueexpressiondata` instead of an archive of `expression`.
        var rawData: String?

        init(_ name: String, _ expression: XcodeExpression? = nil, rawData: String? = nil) {
            self.name = name
            self.expression = expression
            self.rawData = rawData
        }
    }

    struct EntityMapping {
        var source: String?
        var destination: String?
        var filter: String?
        var policy: String?
        var attributes: [Property] = []
        var relationships: [Property] = []
    }

    var sourcePath: String
    var destinationPath: String
    var sourceSnapshot: ModelSnapshot?
    var destinationSnapshot: ModelSnapshot?
    var entities: [EntityMapping]

    /// The file's text.
    func xml() -> String {
        var next = 102
        func id() -> String {
            defer { next += 1 }
            return "z\(next)"
        }
        let modelID = id()
        var objects: [String] = []
        var entityIDs: [String] = []
        for (number, entity) in entities.enumerated() {
            let entityID = id()
            entityIDs.append(entityID)
            var propertyIDs: ([String], [String]) = ([], [])
            for (kind, properties) in [
                ("XDDEVATTRIBUTEMAPPING", entity.attributes), ("XDDEVRELATIONSHIPMAPPING", entity.relationships),
            ] {
                for property in properties {
                    let propertyID = id()
                    if kind == "XDDEVATTRIBUTEMAPPING" {
                        propertyIDs.0.append(propertyID)
                    } else {
                        propertyIDs.1.append(propertyID)
                    }
                    var lines = ["    <object type=\"\(kind)\" id=\"\(propertyID)\">"]
                    if let data = property.rawData
                        ?? property.expression.map({ Self.base64(ExpressionArchiver.archive($0)) })
                    {
                        lines.append(
                            "        <attribute name=\"valueexpressiondata\" type=\"binary\">\(data)</attribute>")
                    }
                    lines.append(
                        "        <attribute name=\"name\" type=\"string\">\(Self.escape(property.name))</attribute>")
                    lines.append(
                        "        <relationship name=\"entitymapping\" type=\"1/1\" destination=\"XDDEVENTITYMAPPING\" idrefs=\"\(entityID)\"></relationship>"
                    )
                    lines.append("    </object>")
                    objects.append(lines.joined(separator: "\n"))
                }
            }
            var lines = ["    <object type=\"XDDEVENTITYMAPPING\" id=\"\(entityID)\">"]
            if let policy = entity.policy {
                lines.append(
                    "        <attribute name=\"migrationpolicyclassname\" type=\"string\">\(Self.escape(policy))</attribute>"
                )
            }
            if let source = entity.source {
                lines.append(
                    "        <attribute name=\"sourcename\" type=\"string\">\(Self.escape(source))</attribute>")
            }
            if let filter = entity.filter {
                lines.append(
                    "        <attribute name=\"sourcefilterpredicatestring\" type=\"string\">\(Self.escape(filter))</attribute>"
                )
            }
            lines.append("        <attribute name=\"mappingtypename\" type=\"string\">Undefined</attribute>")
            lines.append("        <attribute name=\"mappingnumber\" type=\"int16\">\(number + 1)</attribute>")
            if let destination = entity.destination {
                lines.append(
                    "        <attribute name=\"destinationname\" type=\"string\">\(Self.escape(destination))</attribute>"
                )
            }
            lines.append("        <attribute name=\"autogenerateexpression\" type=\"bool\">1</attribute>")
            lines.append(
                "        <relationship name=\"mappingmodel\" type=\"1/1\" destination=\"XDDEVMAPPINGMODEL\" idrefs=\"\(modelID)\"></relationship>"
            )
            lines.append(
                "        <relationship name=\"attributemappings\" type=\"0/0\" destination=\"XDDEVATTRIBUTEMAPPING\" idrefs=\"\(propertyIDs.0.joined(separator: " "))\"></relationship>"
            )
            lines.append(
                "        <relationship name=\"relationshipmappings\" type=\"0/0\" destination=\"XDDEVRELATIONSHIPMAPPING\" idrefs=\"\(propertyIDs.1.joined(separator: " "))\"></relationship>"
            )
            lines.append("    </object>")
            objects.insert(lines.joined(separator: "\n"), at: 0)
        }
        var model = ["    <object type=\"XDDEVMAPPINGMODEL\" id=\"\(modelID)\">"]
        model.append(
            "        <attribute name=\"sourcemodelpath\" type=\"string\">\(Self.escape(sourcePath))</attribute>")
        if let sourceSnapshot {
            model.append(
                "        <attribute name=\"sourcemodeldata\" type=\"binary\">\(Self.base64(Self.archive(sourceSnapshot)))</attribute>"
            )
        }
        model.append(
            "        <attribute name=\"destinationmodelpath\" type=\"string\">\(Self.escape(destinationPath))</attribute>"
        )
        if let destinationSnapshot {
            model.append(
                "        <attribute name=\"destinationmodeldata\" type=\"binary\">\(Self.base64(Self.archive(destinationSnapshot)))</attribute>"
            )
        }
        model.append(
            "        <relationship name=\"entitymappings\" type=\"0/0\" destination=\"XDDEVENTITYMAPPING\" idrefs=\"\(entityIDs.joined(separator: " "))\"></relationship>"
        )
        model.append("    </object>")
        let orphan = """
                <object type="XDDEVATTRIBUTEMAPPING" id="\(id())">
                    <attribute name="name" type="string">leftOver</attribute>
                </object>
            """
        return """
            <?xml version="1.0" standalone="yes"?>
            <!DOCTYPE database SYSTEM "file:///System/Library/DTDs/CoreData.dtd">

            <database>
                <databaseInfo>
                    <version>134481920</version>
                    <UUID>3F477D57-4044-4E9E-9845-6B9B63B11BB7</UUID>
                    <nextObjectID>\(next)</nextObjectID>
                </databaseInfo>
            \(([model.joined(separator: "\n")] + objects + [orphan]).joined(separator: "\n"))
            </database>

            """
    }

    /// Writes `<folder>/<name>.xcmappingmodel/xcmapping.xml` and returns its path.
    @discardableResult
    func write(in folder: String, name: String) throws -> String {
        let directory = folder + "/" + name + ".xcmappingmodel"
        try FileManager.default.createDirectory(atPath: directory, withIntermediateDirectories: true)
        let path = directory + "/xcmapping.xml"
        try xml().write(toFile: path, atomically: true, encoding: .utf8)
        return path
    }

    /// The 1-based line of the first line of `text` containing `needle`.
    static func line(of needle: String, in text: String) -> Int? {
        text.components(separatedBy: "\n").firstIndex { $0.contains(needle) }.map { $0 + 1 }
    }

    /// An Xcode editor model archive holding the snapshot's entities and property names.
    static func archive(_ snapshot: ModelSnapshot) -> [UInt8] {
        var builder = KeyedArchiveBuilder()
        var entities: [(String, PropertyListValue)] = []
        for name in snapshot.entities.keys.sorted() {
            var properties: [(String, PropertyListValue)] = []
            for property in (snapshot.entities[name] ?? []).sorted() {
                properties.append(
                    (property, builder.object("XDPMAttribute", ["_name": builder.add(.string(property))])))
            }
            let storage = builder.dictionary(properties)
            entities.append(
                (
                    name,
                    builder.object(
                        "XDPMEntity",
                        ["_name": builder.add(.string(name)), "XDBucketForOwnedAttributesstorage": storage])
                ))
        }
        let package = builder.object("XDModelPackage", ["XDBucketForClassesstorage": builder.dictionary(entities)])
        let root = builder.object("XDPMModel", ["_xd_rootPackage": package])
        return builder.archive(root: root)
    }

    /// Base64 wrapped at 76 characters, as Xcode writes it.
    static func base64(_ bytes: [UInt8]) -> String {
        let text = Data(bytes).base64EncodedString()
        var lines: [String] = []
        var index = text.startIndex
        while index < text.endIndex {
            let end = text.index(index, offsetBy: 76, limitedBy: text.endIndex) ?? text.endIndex
            lines.append(String(text[index..<end]))
            index = end
        }
        return lines.joined(separator: "\n")
    }

    static func escape(_ text: String) -> String {
        text.replacingOccurrences(of: "&", with: "&amp;").replacingOccurrences(of: "<", with: "&lt;")
            .replacingOccurrences(of: ">", with: "&gt;")
    }
}
