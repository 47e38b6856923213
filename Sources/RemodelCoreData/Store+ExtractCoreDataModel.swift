import Foundation
package import Remodel

extension Store {
    /// Writes the model a Core Data store was written with (its `Z_MODELCACHE`) as a one-version
    /// `.xcdatamodeld` bundle that validates: the bundle's name (`Notes` for `Notes.xcdatamodeld`) names
    /// its one version too. The store is read as an import reads it, never written.
    ///
    /// For example:
    /// ```swift
    /// let model = try Store.extractCoreDataModel(from: "Backup/Notes.sqlite", to: "Notes.xcdatamodeld")
    /// print(model.entities.count)
    /// ```
    /// - Returns: The model written, as Remodel reads it.
    /// - Throws: ``RemodelError``: a store without a model cache (saying to pass the model file), a
    ///   damaged one, a model that does not validate, or something already at `path`.
    package static func extractCoreDataModel(from source: String, to path: String) throws(RemodelError)
        -> ModelVersion
    {
        try extractCoreDataModelSayingWhatIsNotRead(from: source, to: path).version
    }

    /// Writes the model as ``extractCoreDataModel(from:to:)`` does, and says what the archive holds that
    /// Remodel does not read, one phrase each (`NSSubqueryExpression in Author.recent`).
    package static func extractCoreDataModelSayingWhatIsNotRead(from source: String, to path: String)
        throws(RemodelError) -> (version: ModelVersion, unread: [String])
    {
        let url = URL(fileURLWithPath: path)
        guard url.pathExtension == "xcdatamodeld" else {
            throw RemodelError(
                .io,
                "the model is written as a bundle: give a path ending in .xcdatamodeld (such as Notes.xcdatamodeld)",
                path: path)
        }
        let name = url.deletingPathExtension().lastPathComponent
        let reader = try CoreDataImporter.open(source)
        let connection = try reader.connection()
        let schema = try CoreDataSchema.read(from: connection, path: source)
        let model = try CoreDataModelCache.read(from: connection, schema: schema, path: source)
        let contents = try CoreDataModelCache.contents(of: model, name: name, path: source)
        try BundleFileWriter.write(versions: [(name, contents)], current: name, to: path)
        return (try ModelBundle(contentsOf: path).currentVersion, model.unread)
    }
}
