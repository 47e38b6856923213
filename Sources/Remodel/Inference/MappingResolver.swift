/// Merges a mapping file over the inferred mapping of the same step and
/// checks the file against both model versions.
///
/// The file says only what inference cannot know: everything it does not
/// mention stays as inferred.
package enum MappingResolver {
    /// The mapping for one step: inferred, then the file's rules applied on top.
    ///
    /// For example:
    /// ```swift
    /// let (file, _) = MappingFileReader.read(path: "Mappings/Library 1 to 2.xml")
    /// let (mapping, diagnostics) = MappingResolver.resolve(file: file!, bundle: bundle)
    /// ```
    /// - Returns: The merged mapping (nil when the file's model or versions do not
    ///   exist) and the file's problems as diagnostics with positions.
    package static func resolve(file: MappingFile, bundle: ModelBundle) -> (MappingModel?, [Diagnostic]) {
        var diagnostics: [Diagnostic] = []
        guard file.modelName == bundle.name else {
            diagnostics.append(
                Diagnostic(
                    .error, rule: .mappingUnknownModel,
                    message: "the mapping is for model '\(file.modelName)', but the model given is '\(bundle.name)'",
                    at: file.source.location(of: "model")))
            return (nil, diagnostics)
        }
        let names = bundle.versionNames
        guard let source = bundle.version(named: file.sourceVersion) else {
            diagnostics.append(unknownVersion(file.sourceVersion, attribute: "sourceVersion", file: file, known: names))
            return (nil, diagnostics)
        }
        guard let destination = bundle.version(named: file.destinationVersion) else {
            diagnostics.append(
                unknownVersion(file.destinationVersion, attribute: "destinationVersion", file: file, known: names))
            return (nil, diagnostics)
        }
        var merger = MappingMerger(file: file, source: source, destination: destination, modelName: bundle.name)
        let mapping = merger.merge()
        return (mapping, merger.diagnostics)
    }

    private static func unknownVersion(_ name: String, attribute: String, file: MappingFile, known: [String])
        -> Diagnostic
    {
        let list = known.map { "'\($0)'" }.joined(separator: ", ")
        return Diagnostic(
            .error, rule: .mappingUnknownVersion,
            message: "model '\(file.modelName)' has no version '\(name)'; its versions are \(list)",
            at: file.source.location(of: attribute))
    }
}

/// Spelling suggestions for unknown names.
enum Suggestion {
    /// `; did you mean 'x'?` for the closest known name, or an empty string.
    static func didYouMean(_ name: String, among candidates: [String]) -> String {
        let scored = candidates.map { ($0, distance(name.lowercased(), $0.lowercased())) }
        guard let best = scored.min(by: { $0.1 < $1.1 }), best.1 <= max(2, name.count / 3) else { return "" }
        return "; did you mean '\(best.0)'?"
    }

    /// Levenshtein distance.
    static func distance(_ a: String, _ b: String) -> Int {
        let a = Array(a.unicodeScalars)
        let b = Array(b.unicodeScalars)
        if a.isEmpty { return b.count }
        if b.isEmpty { return a.count }
        var previous = Array(0...b.count)
        for i in 1...a.count {
            var current = [i] + Array(repeating: 0, count: b.count)
            for j in 1...b.count {
                current[j] = min(previous[j] + 1, current[j - 1] + 1, previous[j - 1] + (a[i - 1] == b[j - 1] ? 0 : 1))
            }
            previous = current
        }
        return previous[b.count]
    }
}
