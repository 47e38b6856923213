/// Reads an Xcode mapping model for one bundle: reads `xcmapping.xml`,
/// matches its two versions, translates it and merges it over inference, as
/// a Remodel mapping file is merged.
///
/// For example:
/// ```swift
/// if let loaded = XcodeMappingLoader.load(path: "V2toV3.xcmappingmodel/xcmapping.xml", bundle: bundle) {
///     print(loaded.diagnostics, loaded.mapping?.entities.count ?? 0)
/// }
/// ```
package enum XcodeMappingLoader {
    /// What loading found.
    package struct Loaded: Sendable {
        /// The translation, when the file was read and both versions were found.
        package var translation: XcodeMappingTranslation?
        /// The merged mapping, when it could be made.
        package var mapping: MappingModel?
        /// Every problem, with positions in `xcmapping.xml`.
        package var diagnostics: [Diagnostic]

        /// Whether the mapping goes from a later version to an earlier one (Remodel never migrates backwards).
        package func isBackwards(in bundle: ModelBundle) -> Bool {
            guard let match = translation?.match, let from = bundle.index(ofVersion: match.source.name),
                let to = bundle.index(ofVersion: match.destination.name)
            else { return false }
            return from >= to
        }
    }

    /// Whether a path is an Xcode mapping model's file (`….xcmappingmodel/xcmapping.xml`).
    package static func isXcodeMapping(_ path: String) -> Bool {
        path.hasSuffix(".xcmappingmodel/xcmapping.xml")
    }

    /// Reads the mapping model at `path` for `bundle`; nil when it was read and is for another model.
    /// `checkingSnapshots` also compares versions found by name with the model snapshots (for `validate`).
    package static func load(path: String, bundle: ModelBundle, checkingSnapshots: Bool = false) -> Loaded? {
        let (read, readDiagnostics) = XcodeMappingReader.read(path: path)
        guard let model = read else { return Loaded(translation: nil, mapping: nil, diagnostics: readDiagnostics) }
        guard XcodeVersionMatcher.belongs(model, to: bundle) else { return nil }
        return load(model, bundle: bundle, readDiagnostics: readDiagnostics, checkingSnapshots: checkingSnapshots)
    }

    /// Loads a mapping model already read, for a bundle it belongs to.
    package static func load(
        _ model: XcodeMappingModel, bundle: ModelBundle, readDiagnostics: [Diagnostic] = [],
        checkingSnapshots: Bool = false
    ) -> Loaded {
        let (match, matchDiagnostics) = XcodeVersionMatcher.match(
            model, in: bundle, checkingSnapshots: checkingSnapshots)
        guard let match else {
            return Loaded(translation: nil, mapping: nil, diagnostics: readDiagnostics + matchDiagnostics)
        }
        var converter = XcodeMappingConverter(model: model, match: match, bundle: bundle)
        let translation = converter.convert()
        let (mapping, resolveDiagnostics) = translation.resolve(bundle: bundle)
        return Loaded(
            translation: translation, mapping: mapping,
            diagnostics: readDiagnostics + matchDiagnostics + translation.diagnostics + resolveDiagnostics)
    }
}
