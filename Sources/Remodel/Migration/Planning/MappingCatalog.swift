import Foundation

/// Every mapping file of a folder (searched recursively) that belongs to one
/// model, read, checked and merged over inference.
///
/// For example:
/// ```swift
/// let catalog = MappingCatalog(directory: "Mappings", bundle: bundle)
/// for diagnostic in catalog.diagnostics { print(diagnostic) }
/// ```
package struct MappingCatalog: Sendable {
    /// The merged mappings, keyed by source and destination version.
    package internal(set) var mappings: [VersionPair: MappingModel] = [:]
    /// Problems in the files that belong to this model.
    package internal(set) var diagnostics: [Diagnostic] = []
    /// The files read that belong to this model.
    package internal(set) var files: [String] = []

    /// A step between two versions.
    package struct VersionPair: Sendable, Hashable {
        /// The version migrated from.
        package var source: String
        /// The version migrated to.
        package var destination: String

        /// Creates a pair.
        package init(source: String, destination: String) {
            self.source = source
            self.destination = destination
        }
    }

    /// Reads every `*.xml` file under `directory` whose `model` is the bundle's name, and every
    /// Xcode mapping model (`*.xcmappingmodel`) made for the bundle. A Remodel mapping file wins
    /// over an Xcode mapping model for the same step. A missing or `nil` directory gives an empty catalog.
    package init(directory: String?, bundle: ModelBundle) {
        guard let directory else { return }
        let paths = Self.xmlFiles(under: directory)
        for path in paths where !XcodeMappingLoader.isXcodeMapping(path) {
            let (file, readDiagnostics) = MappingFileReader.read(path: path)
            guard let file else {
                diagnostics += readDiagnostics
                continue
            }
            guard file.modelName == bundle.name else { continue }
            files.append(path)
            diagnostics += readDiagnostics
            let (mapping, resolveDiagnostics) = MappingResolver.resolve(file: file, bundle: bundle)
            diagnostics += resolveDiagnostics
            guard let mapping else { continue }
            let pair = VersionPair(source: file.sourceVersion, destination: file.destinationVersion)
            if let existing = mappings[pair] {
                diagnostics.append(
                    MappingFile.duplicateStep(
                        from: pair.source, to: pair.destination, first: existing.files.first ?? "?",
                        at: file.source.location))
                continue
            }
            mappings[pair] = mapping
        }
        for path in paths where XcodeMappingLoader.isXcodeMapping(path) {
            addXcodeMapping(path, bundle: bundle)
        }
    }

    /// The `*.xml` files under a folder, sorted, or the path itself when it is a file.
    static func xmlFiles(under directory: String) -> [String] {
        var info = stat()
        guard stat(directory, &info) == 0 else { return [] }
        guard info.st_mode & S_IFMT == S_IFDIR else { return [directory] }
        return FileSystem.entries(under: directory, endingWith: ".xml").map { directory + "/" + $0 }.sorted()
    }
}
