import Foundation

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

/// A model ready to import with: a bundle Remodel reads as any other, and the private folder its files
/// were written to (the store's model, a merged model), removed with ``remove()``.
struct ResolvedCoreDataModel {
    var bundle: ModelBundle
    /// Where the model came from, in the words of the import's report.
    var origin: CoreDataImport.ModelOrigin
    private var folder: String?

    /// The combinations of versions a merge may make before it is refused (each is one version to test).
    static let maximumMergedVersions = 256

    /// Resolves `models` for the store at `path` (read through `connection`).
    /// - Throws: ``RemodelError``: the store's missing or damaged model cache, an entity two merged
    ///   models define, a model that does not validate.
    static func resolve(
        _ models: CoreDataModels, connection: SQLiteConnection, schema: CoreDataSchema, path: String
    ) throws(RemodelError) -> ResolvedCoreDataModel {
        switch models {
        case .bundle(let bundle):
            try refuseErrors(in: bundle)
            return ResolvedCoreDataModel(bundle: bundle, origin: .modelFile, folder: nil)
        case .store:
            let model = try CoreDataModelCache.read(from: connection, schema: schema, path: path)
            let name = URL(fileURLWithPath: path).deletingPathExtension().lastPathComponent
            let contents = try CoreDataModelCache.contents(of: model, name: name, path: path)
            return try written(name: name, versions: [(name, contents)], current: name, origin: .store, path: path)
        case .merged(let bundles):
            for bundle in bundles { try refuseErrors(in: bundle) }
            let (name, versions, current) = try MergedModelFiles.versions(of: bundles, path: path)
            return try written(name: name, versions: versions, current: current, origin: .merged, path: path)
        }
    }

    /// Writes model files into a private folder and reads them back as a bundle.
    private static func written(
        name: String, versions: [(name: String, contents: String)], current: String,
        origin: CoreDataImport.ModelOrigin, path: String
    ) throws(RemodelError) -> ResolvedCoreDataModel {
        let (folder, failure) = FileSystem.makePrivateFolder(prefix: "remodel-core-data-model")
        if let failure {
            throw RemodelError(
                .io,
                "the model could not be written to a private folder of the temporary folder (\(failure.localizedDescription)); free some space in the temporary folder (TMPDIR)",
                path: path)
        }
        do {
            let bundlePath = folder + "/" + name + ".xcdatamodeld"
            try BundleFileWriter.write(versions: versions, current: current, to: bundlePath)
            let bundle = try ModelBundle(contentsOf: bundlePath)
            return ResolvedCoreDataModel(bundle: bundle, origin: origin, folder: folder)
        } catch {
            try? FileManager.default.removeItem(atPath: folder)
            throw RemodelError(error.code, error.message, path: path)
        }
    }

    /// A model with validation errors is never used: the one gate every operation passes
    /// (``ModelBundle/requireNoErrors(inVersions:)``), on each version the import may match.
    static func refuseErrors(in bundle: ModelBundle) throws(RemodelError) {
        try bundle.requireNoErrors(inVersions: bundle.versionNames)
    }

    /// Removes the private folder the model was written to, if any.
    func remove() {
        if let folder { try? FileManager.default.removeItem(atPath: folder) }
    }
}
