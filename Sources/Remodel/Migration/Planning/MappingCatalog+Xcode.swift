extension MappingCatalog {
    /// Adds an Xcode mapping model made for the bundle, unless a Remodel mapping file maps the
    /// same step (it wins) or it maps backwards (never used): then only a warning says so, and
    /// the file's own problems do not stop migrations that never use it.
    mutating func addXcodeMapping(_ path: String, bundle: ModelBundle) {
        guard let loaded = XcodeMappingLoader.load(path: path, bundle: bundle) else { return }
        files.append(path)
        guard let mapping = loaded.mapping, let translation = loaded.translation else {
            diagnostics += loaded.diagnostics
            return
        }
        let at = translation.model.location
        if loaded.isBackwards(in: bundle) {
            diagnostics.append(
                XcodeMappingNotes.backwards(from: mapping.sourceVersion, to: mapping.destinationVersion, at: at))
            return
        }
        let pair = VersionPair(source: mapping.sourceVersion, destination: mapping.destinationVersion)
        if let other = mappings[pair]?.files.first {
            if XcodeMappingLoader.isXcodeMapping(other) {
                diagnostics.append(
                    MappingFile.duplicateStep(from: pair.source, to: pair.destination, first: other, at: at))
            } else {
                diagnostics.append(
                    XcodeMappingNotes.superseded(by: other, from: pair.source, to: pair.destination, at: at))
            }
            return
        }
        diagnostics += loaded.diagnostics
        mappings[pair] = mapping
    }
}
