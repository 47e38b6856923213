public import Foundation

/// The store API with file URLs where it takes paths.
extension Store {
    /// Creates a store at a file URL; see ``create(at:bundle:version:seed:)-(String,_,_,_)``.
    ///
    /// For example:
    /// ```swift
    /// let store = try Store.create(at: folder.appendingPathComponent("library.sqlite"), bundle: bundle, seed: seedURL)
    /// ```
    /// - Throws: ``/RemodelModel/RemodelError`` as the path-taking method does, or
    ///   ``/RemodelModel/RemodelError/Code/io`` for a URL that is not a file URL.
    public static func create(at url: URL, bundle: ModelBundle, version: String? = nil, seed: URL? = nil)
        throws(RemodelError) -> Store
    {
        try create(at: try url.filePath(), bundle: bundle, version: version, seed: try seed?.filePath())
    }

    /// Opens the store at a file URL; see ``open(at:bundle:)-(String,_)``.
    ///
    /// For example:
    /// ```swift
    /// let store = try Store.open(at: storeURL, bundle: bundle)
    /// ```
    /// - Throws: ``/RemodelModel/RemodelError`` as the path-taking method does.
    public static func open(at url: URL, bundle: ModelBundle) throws(RemodelError) -> Store {
        try open(at: try url.filePath(), bundle: bundle)
    }

    /// Imports objects from a JSON file at a file URL; see ``importJSON(from:)-(String)``.
    ///
    /// For example:
    /// ```swift
    /// try store.importJSON(from: moreBooksURL)
    /// ```
    /// - Returns: How many objects were imported.
    /// - Throws: ``/RemodelModel/RemodelError`` as the path-taking method does.
    @discardableResult
    public func importJSON(from url: URL) throws(RemodelError) -> Int {
        try importJSON(from: try url.filePath())
    }

    /// Exports every object as JSON to a file URL; see ``exportJSON(to:)-(String)``.
    ///
    /// For example:
    /// ```swift
    /// try store.exportJSON(to: folder.appendingPathComponent("library.json"))
    /// ```
    /// - Throws: ``/RemodelModel/RemodelError`` as the path-taking method does.
    public func exportJSON(to url: URL) throws(RemodelError) {
        try exportJSON(to: try url.filePath())
    }
}

extension StoreInspector {
    /// Inspects the file at a file URL against a model bundle; see ``inspect(path:bundle:thorough:)``.
    ///
    /// For example:
    /// ```swift
    /// print(try StoreInspector.inspect(url: storeURL, bundle: bundle).message)
    /// ```
    /// - Throws: ``/RemodelModel/RemodelError`` as the path-taking method does.
    public static func inspect(url: URL, bundle: ModelBundle, thorough: Bool = false) throws(RemodelError)
        -> StoreInspection
    {
        try inspect(path: try url.filePath(), bundle: bundle, thorough: thorough)
    }
}
