import Foundation
package import Remodel

/// Which model an import of a Core Data store reads it with.
///
/// For example:
/// ```swift
/// let models: CoreDataModels = paths.isEmpty ? .store : paths.count == 1 ? .bundle(a) : .merged([a, b])
/// ```
package enum CoreDataModels: Sendable {
    /// The model the store carries (`Z_MODELCACHE`): how a store without a model file comes over.
    case store
    /// The app's model file, with the version that wrote the store.
    case bundle(ModelBundle)
    /// Several models merged into one, as `NSManagedObjectModel.mergedModel(from:)` merges them: every
    /// entity of each, an entity name defined twice refused. A merged version per combination of versions.
    case merged([ModelBundle])
}

/// A model ready to import with: a bundle Remodel reads as any other. The store's own model and a merged one
/// are read from their model files' text in memory, so nothing is written for them (a kill leaves nothing).
struct ResolvedCoreDataModel {
    var bundle: ModelBundle
    /// Where the model came from, in the words of the import's report.
    var origin: CoreDataImport.ModelOrigin
    /// What the model files say that only Core Data's store needs, for versions read from memory, by name.
    var facts: [String: CoreDataModelFacts] = [:]
    /// The `contents` XML of the versions read from memory, by name: what the new store carries
    /// (``StoreMetadata/carriedContents``), since no file holds it.
    var contents: [String: String] = [:]

    /// The combinations of versions a merge may make before it is refused (each is one version to test).
    static let maximumMergedVersions = 256

    /// Resolves `models` for the store at `path` (read through `connection`).
    /// - Throws: ``RemodelError``: the store's missing or damaged model cache, an entity two merged
    ///   models define. The app's models were checked for errors before (``Store/importCoreData(from:bundle:into:version:)``).
    static func resolve(
        _ models: CoreDataModels, connection: SQLiteConnection, schema: CoreDataSchema, path: String
    ) throws(RemodelError) -> ResolvedCoreDataModel {
        switch models {
        case .bundle(let bundle):
            return ResolvedCoreDataModel(bundle: bundle, origin: .modelFile)
        case .store:
            let model = try CoreDataModelCache.read(from: connection, schema: schema, path: path)
            let name = URL(fileURLWithPath: path).deletingPathExtension().lastPathComponent
            let checked = try CoreDataModelCache.checked(model, name: name, path: path)
            return ResolvedCoreDataModel(
                bundle: ModelBundle(name: name, versions: [checked.version], currentVersionName: name), origin: .store,
                facts: [name: CoreDataModelFacts.facts(of: checked.root)], contents: [name: checked.contents])
        case .merged(let bundles):
            let (name, versions, current) = try MergedModelFiles.versions(of: bundles, path: path)
            return try merged(name: name, versions: versions, current: current, path: path)
        }
    }

    /// The merged bundle of `versions` (each a model file's text, as `MergedModelFiles` writes it), read as
    /// the files would be; messages name the store at `path`.
    private static func merged(
        name: String, versions: [(name: String, contents: String)], current: String, path: String
    ) throws(RemodelError) -> ResolvedCoreDataModel {
        var read: [ModelVersion] = []
        var facts: [String: CoreDataModelFacts] = [:]
        var texts: [String: String] = [:]
        func refusal(_ version: String, _ problem: String, _ at: SourceLocation?) -> RemodelError {
            let place = at.map { " at line \($0.line), column \($0.column)" } ?? ""
            return RemodelError(
                .invalidModel,
                "version \"\(version)\" of the merged model does not read as a model file\(place): \(problem); report it with the models given to --model",
                path: path)
        }
        for (versionName, contents) in versions {
            let file = "\(name).xcdatamodeld/\(versionName).xcdatamodel/contents"
            let root: XMLNode
            do {
                root = try XMLDocumentReader.parse(Array(contents.utf8), file: file)
            } catch {
                throw refusal(versionName, error.message, error.location)
            }
            let (version, diagnostics) = ModelFileReader.version(from: root, path: file, versionName: versionName)
            guard let version, !diagnostics.contains(where: { $0.severity == .error }) else {
                let first = diagnostics.first { $0.severity == .error }
                throw refusal(versionName, first?.message ?? "it holds no model", first?.location)
            }
            read.append(version)
            facts[versionName] = CoreDataModelFacts.facts(of: root)
            texts[versionName] = contents
        }
        return ResolvedCoreDataModel(
            bundle: ModelBundle(name: name, versions: read, currentVersionName: current), origin: .merged, facts: facts,
            contents: texts)
    }
}
