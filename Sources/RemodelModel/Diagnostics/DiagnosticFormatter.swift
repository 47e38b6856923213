import Foundation

/// Turns diagnostics into text, JSON or SARIF, always the same way for the same input.
///
/// For example:
/// ```swift
/// let text = DiagnosticFormatter.text(diagnostics, summary: "Checked 1 model (1 version): 1 error.")
/// ```
package enum DiagnosticFormatter {
    /// Where SARIF output says the tool is documented.
    package static let informationURI = "https://github.com/remodel-swift/remodel/blob/main/docs/VALIDATE.md"

    /// One compiler-style line per diagnostic, sorted by file, line and column, then `summary`.
    ///
    /// - Parameters:
    ///   - diagnostics: The diagnostics, in any order.
    ///   - summary: The closing line, such as `Checked 2 models (5 versions): no problems.`
    /// - Returns: The lines, each ending with a newline.
    package static func text(_ diagnostics: [Diagnostic], summary: String) -> String {
        (diagnostics.sorted().map(\.description) + [summary]).map { $0 + "\n" }.joined()
    }

    /// A JSON array with one object per diagnostic, keys in the order
    /// `file`, `line`, `column`, `severity`, `rule`, `message` (`null` where there is no location).
    ///
    /// - Parameter diagnostics: The diagnostics, in any order; they are sorted.
    /// - Returns: Indented JSON ending with a newline.
    package static func json(_ diagnostics: [Diagnostic]) -> String {
        let items = diagnostics.sorted().map { diagnostic -> JSONDocument in
            let position: SourceLocation? = diagnostic.location.flatMap { $0.hasPosition ? $0 : nil }
            let file: JSONDocument = diagnostic.location.map { JSONDocument.string($0.file) } ?? JSONDocument.null
            let line: JSONDocument = position.map { JSONDocument.int($0.line) } ?? JSONDocument.null
            let column: JSONDocument = position.map { JSONDocument.int($0.column) } ?? JSONDocument.null
            return .object([
                ("file", file), ("line", line), ("column", column),
                ("severity", .string(diagnostic.severity.rawValue)),
                ("rule", .string(diagnostic.rule)),
                ("message", .string(diagnostic.message)),
            ])
        }
        return JSONDocument.array(items).rendered() + "\n"
    }

    /// A SARIF 2.1.0 log with one run of the `remodel` tool, listing each rule used.
    ///
    /// File paths become URIs relative to `baseDirectory` when they lie under it
    /// (relative paths stay as they are), percent-encoded, as code scanning expects.
    ///
    /// - Parameters:
    ///   - diagnostics: The diagnostics, in any order; they are sorted.
    ///   - ruleSummaries: A one-sentence description of each rule id (the id itself when missing).
    ///   - baseDirectory: The folder paths are made relative to; the current directory when `nil`.
    /// - Returns: Indented JSON ending with a newline.
    package static func sarif(
        _ diagnostics: [Diagnostic], ruleSummaries: [String: String], baseDirectory: String? = nil
    ) -> String {
        let baseDirectory = baseDirectory ?? FileManager.default.currentDirectoryPath
        let sorted = diagnostics.sorted()
        var ruleIDs: [String] = []
        var ruleSeverity: [String: Severity] = [:]
        for diagnostic in sorted where ruleSeverity[diagnostic.rule] == nil {
            ruleIDs.append(diagnostic.rule)
            ruleSeverity[diagnostic.rule] = diagnostic.severity
        }
        ruleIDs.sort()
        let rules = ruleIDs.map { id -> JSONDocument in
            .object([
                ("id", .string(id)),
                ("shortDescription", .object([("text", .string(ruleSummaries[id] ?? id))])),
                ("defaultConfiguration", .object([("level", .string(ruleSeverity[id]?.rawValue ?? "error"))])),
                ("helpUri", .string(informationURI)),
            ])
        }
        let results = sorted.map { diagnostic -> JSONDocument in
            var members: [(String, JSONDocument)] = [
                ("ruleId", .string(diagnostic.rule)),
                ("ruleIndex", .int(ruleIDs.firstIndex(of: diagnostic.rule) ?? 0)),
                ("level", .string(diagnostic.severity.rawValue)),
                ("message", .object([("text", .string(diagnostic.message))])),
            ]
            if let location = diagnostic.location {
                var physical: [(String, JSONDocument)] = [
                    (
                        "artifactLocation",
                        .object([("uri", .string(uri(for: location.file, relativeTo: baseDirectory)))])
                    )
                ]
                if location.hasPosition {
                    physical.append(
                        (
                            "region",
                            .object([("startLine", .int(location.line)), ("startColumn", .int(location.column))])
                        ))
                }
                members.append(("locations", .array([.object([("physicalLocation", .object(physical))])])))
            }
            return .object(members)
        }
        let run: JSONDocument = .object([
            (
                "tool",
                .object([
                    (
                        "driver",
                        .object([
                            ("name", .string("remodel")),
                            ("informationUri", .string(informationURI)),
                            ("rules", .array(rules)),
                        ])
                    )
                ])
            ),
            ("columnKind", .string("unicodeCodePoints")),
            ("results", .array(results)),
        ])
        let log: JSONDocument = .object([
            ("$schema", .string("https://json.schemastore.org/sarif-2.1.0.json")),
            ("version", .string("2.1.0")),
            ("runs", .array([run])),
        ])
        return log.rendered() + "\n"
    }

    /// A relative, percent-encoded URI for a path, or a `file://` URI for one outside `base`.
    static func uri(for path: String, relativeTo base: String) -> String {
        var relative = path
        if path.hasPrefix("/") {
            let prefix = base.hasSuffix("/") ? base : base + "/"
            if path.hasPrefix(prefix) {
                relative = String(path.dropFirst(prefix.count))
            } else {
                return "file://" + encoded(path)
            }
        }
        if relative.hasPrefix("./") { relative.removeFirst(2) }
        return encoded(relative)
    }

    private static func encoded(_ path: String) -> String {
        var allowed = CharacterSet.urlPathAllowed
        allowed.remove(charactersIn: ";")
        return path.addingPercentEncoding(withAllowedCharacters: allowed) ?? path
    }
}
