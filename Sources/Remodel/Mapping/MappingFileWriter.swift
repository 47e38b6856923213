/// Writes a mapping as a mapping file, each line commented with the rule
/// that produced it, ready to edit. Read back unchanged, it maps exactly as
/// the mapping it was written from.
package enum MappingFileWriter {
    /// The mapping file text.
    ///
    /// For example:
    /// ```swift
    /// let mapping = try MappingInference.infer(bundle: bundle, from: "Library", to: "Library 2")
    /// print(MappingFileWriter.text(for: mapping))
    /// ```
    package static func text(for mapping: MappingModel) -> String {
        var lines: [String] = []
        lines.append(#"<?xml version="1.0" encoding="UTF-8"?>"#)
        lines.append(
            "<!-- Inferred by `remodel infer` from \(comment(mapping.sourceVersion)) to \(comment(mapping.destinationVersion))."
        )
        lines.append("     Every line is what inference decided; change what it cannot know. -->")
        lines.append(
            "<mapping model=\"\(escape(mapping.modelName))\" sourceVersion=\"\(escape(mapping.sourceVersion))\" destinationVersion=\"\(escape(mapping.destinationVersion))\">"
        )
        for entity in mapping.entities {
            lines.append("    <!-- \(comment(entity.kind.rawValue)): \(comment(entity.provenance.description)) -->")
            switch (entity.source, entity.destination) {
            case (let source?, nil):
                lines.append("    <entity source=\"\(escape(source))\"/>")
            case (nil, let destination?):
                lines.append("    <entity destination=\"\(escape(destination))\"/>")
            case (let source?, let destination?):
                var open = "    <entity source=\"\(escape(source))\" destination=\"\(escape(destination))\""
                if let filter = entity.filter { open += " filter=\"\(escape(filter.text))\"" }
                lines.append(open + ">")
                lines += body(of: entity)
                lines.append("    </entity>")
            case (nil, nil):
                continue
            }
        }
        lines.append("</mapping>")
        return lines.joined(separator: "\n") + "\n"
    }

    private static func body(of entity: EntityMapping) -> [String] {
        var lines: [String] = []
        for attribute in entity.attributes {
            if let problem = entity.problems.first(where: { $0.property == attribute.destination }) {
                lines.append(
                    "        <!-- TO DO: \(comment(problem.message)); write \(comment(problem.suggestion ?? "a value")) -->"
                )
                continue
            }
            lines.append("        <!-- \(comment(attribute.provenance.description)) -->")
            if let value = attribute.value {
                lines.append(
                    "        <attribute name=\"\(escape(attribute.destination))\" value=\"\(escape(value.text))\"/>")
            } else {
                lines.append(
                    "        <!-- \(comment(attribute.destination)) is left to inference: no value to copy -->")
            }
        }
        for relationship in entity.relationships {
            if let problem = entity.problems.first(where: { $0.property == relationship.destination }) {
                lines.append("        <!-- TO DO: \(comment(relationship.destination)) \(comment(problem.message)) -->")
                continue
            }
            lines.append("        <!-- \(comment(relationship.provenance.description)) -->")
            if let source = relationship.source {
                lines.append(
                    "        <relationship name=\"\(escape(relationship.destination))\" source=\"\(escape(source))\"/>")
            } else {
                lines.append("        <!-- \(comment(relationship.destination)) starts empty -->")
            }
        }
        for problem in entity.problems where problem.property == nil {
            lines.append("        <!-- TO DO: \(comment(problem.message)) -->")
        }
        return lines
    }

    /// Escapes text for a double-quoted XML attribute value, as every XML file Remodel writes does.
    static func escape(_ text: String) -> String { WrittenElement.escape(text) }

    /// Makes text safe inside an XML comment: no `--`, no `-` at the end. By bytes: a hyphen that a combining mark
    /// follows is another character to Swift's and Foundation's string search, and still a hyphen to XML.
    static func comment(_ text: String) -> String {
        let hyphen = UInt8(ascii: "-")
        var bytes: [UInt8] = []
        bytes.reserveCapacity(text.utf8.count + 2)
        for byte in text.utf8 {
            if byte == hyphen, bytes.last == hyphen { bytes.append(UInt8(ascii: " ")) }
            bytes.append(byte)
        }
        if bytes.last == hyphen { bytes.append(UInt8(ascii: " ")) }
        return String(decoding: bytes, as: UTF8.self)
    }
}
