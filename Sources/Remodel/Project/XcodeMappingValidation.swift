/// `remodel validate` for an Xcode mapping model: finds its bundle, matches
/// its versions, translates it and checks it like a Remodel mapping file
/// (unknown entities, attributes and versions, untranslatable expressions,
/// expression types), says which policy classes need Swift code, and says
/// when a Remodel mapping file for the same step is used instead.
enum XcodeMappingValidation {
    /// The steps Remodel mapping files map, to tell which file a step uses.
    struct RemodelSteps {
        private var paths: [String: String] = [:]

        /// Records the step of a Remodel mapping file (unreadable files are skipped): the first file of a step is
        /// the one kept. - Returns: `mapping-duplicate-step` when a file recorded before maps the same step.
        mutating func add(_ path: String) -> Diagnostic? {
            guard let file = MappingFileReader.read(path: path).0 else { return nil }
            let key = Self.key(file.modelName, file.sourceVersion, file.destinationVersion)
            if let first = paths[key] {
                return MappingFile.duplicateStep(
                    from: file.sourceVersion, to: file.destinationVersion, first: first, at: file.source.location)
            }
            paths[key] = path
            return nil
        }

        /// The Remodel mapping file for a step, if there is one.
        func path(model: String, source: String, destination: String) -> String? {
            paths[Self.key(model, source, destination)]
        }

        private static func key(_ parts: String...) -> String { parts.joined(separator: "\u{0}") }
    }

    /// The diagnostics of one `xcmapping.xml`.
    static func check(
        path: String, bundles: [String: ModelBundle], searched: [String], remodelSteps: RemodelSteps,
        registeredPolicyClasses: Set<String>
    ) -> [Diagnostic] {
        let (read, readDiagnostics) = XcodeMappingReader.read(path: path)
        guard let model = read else { return readDiagnostics }
        let named = [model.source.bundleName, model.destination.bundleName].compactMap { $0 }
        let candidates = named.compactMap { bundles[$0] } + bundles.keys.sorted().compactMap { bundles[$0] }
        guard let bundle = candidates.first(where: { XcodeVersionMatcher.belongs(model, to: $0) }) else {
            let paths = [model.source.path, model.destination.path].compactMap { $0?.value }.map { "'\($0)'" }.joined(
                separator: " and ")
            return readDiagnostics + [
                Diagnostic(
                    .error, rule: .mappingUnknownModel,
                    message:
                        "no model was found for this mapping model (its model paths are \(paths.isEmpty ? "missing" : paths), and its model snapshots match no version; looked in \(ProjectValidation.searchedPlaces(searched))); give its .xcdatamodeld bundle as a path too",
                    at: model.source.path?.start ?? model.location)
            ]
        }
        let loaded = XcodeMappingLoader.load(
            model, bundle: bundle, readDiagnostics: readDiagnostics, checkingSnapshots: true)
        var diagnostics = loaded.diagnostics
        guard let translation = loaded.translation else { return diagnostics }
        let registered = Set(
            translation.rules.compactMap { rule in
                rule.policy.flatMap { registeredPolicyClasses.contains($0.className) ? $0.location : nil }
            })
        diagnostics.removeAll {
            $0.rule == DiagnosticRule.xcodeMappingPolicy.rawValue && $0.location.map(registered.contains) == true
        }
        let match = translation.match
        if loaded.isBackwards(in: bundle) {
            diagnostics.append(
                XcodeMappingNotes.backwards(from: match.source.name, to: match.destination.name, at: model.location))
        }
        if let other = remodelSteps.path(
            model: bundle.name, source: match.source.name, destination: match.destination.name)
        {
            diagnostics.append(
                XcodeMappingNotes.superseded(
                    by: other, from: match.source.name, to: match.destination.name, at: model.location))
        }
        if let mapping = loaded.mapping {
            diagnostics += MappingChecker.diagnostics(
                for: mapping, source: match.source, destination: match.destination)
        }
        return diagnostics
    }
}
