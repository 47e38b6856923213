/// Writes an Xcode mapping model as the equivalent Remodel mapping file, for
/// `remodel convert-mapping`: one `<entity>` per Xcode entity mapping that
/// says more than inference, each translated value with the Xcode expression
/// it came from in a comment, and a `TO DO` comment where a policy class or an
/// expression without translation stands. Read back, it maps as the Xcode
/// mapping model does (less what the `TO DO` comments name).
package enum XcodeMappingWriter {
    /// Converts the mapping model at `path` (the `.xcmappingmodel` folder or its `xcmapping.xml`) for `bundle`.
    ///
    /// For example:
    /// ```swift
    /// let bundle = try ModelBundle(contentsOf: "Models/SampleModel.xcdatamodeld")
    /// let (text, diagnostics) = XcodeMappingWriter.convert(path: "V2toV3.xcmappingmodel", bundle: bundle)
    /// ```
    /// - Returns: The mapping file's text (nil when the mapping model cannot be read or matched to two
    ///   versions of the bundle) and every problem found, with positions in `xcmapping.xml`.
    package static func convert(path: String, bundle: ModelBundle) -> (text: String?, diagnostics: [Diagnostic]) {
        let file =
            path.hasSuffix(".xcmappingmodel") || path.hasSuffix(".xcmappingmodel/")
            ? (path.hasSuffix("/") ? path : path + "/") + "xcmapping.xml" : path
        let (read, readDiagnostics) = XcodeMappingReader.read(path: file)
        guard let model = read else { return (nil, readDiagnostics) }
        let loaded = XcodeMappingLoader.load(
            model, bundle: bundle, readDiagnostics: readDiagnostics, checkingSnapshots: true)
        guard let translation = loaded.translation else { return (nil, loaded.diagnostics) }
        return (text(for: translation), loaded.diagnostics)
    }

    static func text(for translation: XcodeMappingTranslation) -> String {
        let file = translation.file
        let match = translation.match
        var lines = [
            #"<?xml version="1.0" encoding="UTF-8"?>"#,
            "<!-- Converted by `remodel convert-mapping` from \(comment(translation.model.path)):",
            "     \(comment(match.source.name)) (found \(match.sourceMethod.rawValue)) to \(comment(match.destination.name)) (found \(match.destinationMethod.rawValue)).",
            "     Only what the Xcode mapping model says beyond inference is written; everything else is inferred. -->",
            "<mapping model=\"\(escape(file.modelName))\" sourceVersion=\"\(escape(file.sourceVersion))\" destinationVersion=\"\(escape(file.destinationVersion))\">",
        ]
        for rule in translation.rules {
            lines.append("    <!-- Xcode entity mapping \(comment(rule.name)) -->")
            for todo in rule.todos { lines.append("    <!-- TO DO: \(comment(todo)) -->") }
            lines += entity(rule)
        }
        lines.append("</mapping>")
        return lines.joined(separator: "\n") + "\n"
    }

    private static func entity(_ translated: XcodeMappingTranslation.Rule) -> [String] {
        let rule = translated.rule
        var open = "    <entity"
        if let source = rule.sourceEntity { open += " source=\"\(escape(source))\"" }
        if let destination = rule.destinationEntity { open += " destination=\"\(escape(destination))\"" }
        if let filter = rule.filter {
            open += " filter=\"\(escape(filter.text))\""
            if let original = translated.originals[""] {
                open = "    <!-- Xcode filter: \(comment(original)) -->\n" + open
            }
        }
        guard !rule.attributes.isEmpty || !rule.relationships.isEmpty else { return [open + "/>"] }
        var lines = [open + ">"]
        for attribute in rule.attributes {
            if let original = translated.originals[attribute.name] {
                lines.append("        <!-- Xcode: \(comment(original)) -->")
            }
            lines.append(
                "        <attribute name=\"\(escape(attribute.name))\" value=\"\(escape(attribute.value.text))\"/>")
        }
        for relationship in rule.relationships {
            if let original = translated.originals[relationship.name] {
                lines.append("        <!-- Xcode: \(comment(original)) -->")
            }
            let source = relationship.sourceRelationship.map { " source=\"\(escape($0))\"" } ?? ""
            lines.append("        <relationship name=\"\(escape(relationship.name))\"\(source)/>")
        }
        lines.append("    </entity>")
        return lines
    }

    private static func escape(_ text: String) -> String { MappingFileWriter.escape(text) }
    private static func comment(_ text: String) -> String { MappingFileWriter.comment(text) }
}
