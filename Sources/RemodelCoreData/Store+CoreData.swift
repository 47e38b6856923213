public import Remodel

extension Store {
    /// Imports a store that Apple's Core Data wrote into a new Remodel store, at the version of the
    /// bundle that wrote it, with every object, value and link (external binary data included).
    ///
    /// The Core Data store is never written, nor anything beside it: it is read in place with SQLite's
    /// `immutable=1`, or, when its `-wal` (or `-journal`) holds data, from a private copy in the
    /// temporary folder. A store another process has open is refused. The version is found from the
    /// store's metadata and its tables and columns; when two versions fit equally, both are named and
    /// `version` decides. The new store is written to a temporary file beside `path` and renamed into
    /// place when complete: a failure or a kill leaves no file at `path`. Migrate it to the current
    /// version afterwards as any store (``/Remodel/Store/launch(at:bundle:seed:options:progress:)-(String,_,_,_,_)``),
    /// or use ``launch(at:bundle:importingCoreDataFrom:coreDataVersion:options:progress:)`` for both.
    ///
    /// For example:
    /// ```swift
    /// let bundle = try ModelBundle(contentsOf: "Models/Notes.xcdatamodeld")
    /// let result = try Store.importCoreData(from: "Backup/Notes.sqlite", bundle: bundle, into: "notes.sqlite")
    /// print(result.objectCounts)   // ["Note": 120, "Folder": 4]
    /// ```
    /// - Parameters:
    ///   - source: The Core Data store (`.sqlite`); its `-wal` and `.<Name>_SUPPORT` folder are read too.
    ///   - bundle: The model the app used, with the version that last wrote the store.
    ///   - path: Where the new Remodel store goes; there must be no file there.
    ///   - version: The version that wrote the store, or `nil` to find it.
    /// - Returns: What was imported: the version, the counts per entity, what was skipped.
    /// - Throws: ``/RemodelModel/RemodelError``: ``/RemodelModel/RemodelError/Code/incompatibleStore`` when no version
    ///   fits (naming the closest and what differs), two fit equally (naming both) or a file exists at `path`;
    ///   ``/RemodelModel/RemodelError/Code/invalidValue`` naming the entity, `Z_PK`, attribute and value Remodel cannot
    ///   hold; ``/RemodelModel/RemodelError/Code/locked`` when another process has the store open;
    ///   ``/RemodelModel/RemodelError/Code/notAStore`` or ``/RemodelModel/RemodelError/Code/storeMissing`` for a file
    ///   that is not a Core Data store.
    public static func importCoreData(
        from source: String, bundle: ModelBundle, into path: String, version: String? = nil
    ) throws(RemodelError) -> CoreDataImport {
        try importCoreData(from: source, models: .bundle(bundle), into: path, version: version, progress: nil)
    }

    /// Imports a Core Data store as ``importCoreData(from:bundle:into:version:)`` does, with `options` for
    /// what a real store may hold: missing external data files, links to objects it does not have.
    ///
    /// For example:
    /// ```swift
    /// let result = try Store.importCoreData(
    ///     from: "Backup/Notes.sqlite", bundle: bundle, into: "notes.sqlite",
    ///     options: CoreDataImportOptions(danglingLinks: .drop))
    /// print(result.droppedLinks)   // [Note Z_PK 12 "folder" → Folder Z_PK 3]
    /// ```
    /// - Parameters:
    ///   - source: The Core Data store (`.sqlite`).
    ///   - bundle: The model the app used, with the version that last wrote the store.
    ///   - path: Where the new Remodel store goes; there must be no file there.
    ///   - options: The version, when Remodel cannot tell, and what to do with missing files and dangling links.
    /// - Returns: What was imported, with what was left out.
    /// - Throws: ``/RemodelModel/RemodelError``, as ``importCoreData(from:bundle:into:version:)``; a dangling link with
    ///   ``CoreDataImport/DanglingLinks/refuse`` (every one listed), or of a required to-one.
    public static func importCoreData(
        from source: String, bundle: ModelBundle, into path: String, options: CoreDataImportOptions
    ) throws(RemodelError) -> CoreDataImport {
        try importCoreData(
            from: source, models: .bundle(bundle), into: path, version: options.version,
            configuration: options.configuration, missingExternalData: options.missingExternalData,
            danglingLinks: options.danglingLinks, progress: nil)
    }

    /// Imports a Core Data store as ``importCoreData(from:bundle:into:version:)`` does, with the model
    /// `models` says (the app's, the store's own, or several merged), telling `progress` how many objects
    /// are copied.
    package static func importCoreData(
        from source: String, models: CoreDataModels, into path: String, version: String?,
        configuration: String? = nil, missingExternalData: CoreDataImport.MissingExternalData = .refuse,
        danglingLinks: CoreDataImport.DanglingLinks = .refuse,
        progress: ((OperationProgress) -> Void)?
    ) throws(RemodelError) -> CoreDataImport {
        // A model with errors is never used: refused before either store is opened, on every version the
        // store may match.
        switch models {
        case .bundle(let bundle): try bundle.requireNoErrors(inVersions: bundle.versionNames)
        case .merged(let bundles): for bundle in bundles { try bundle.requireNoErrors(inVersions: bundle.versionNames) }
        case .store: break
        }
        return try CoreDataImporter(
            source: source, models: models, target: path, requestedVersion: version,
            requestedConfiguration: configuration, missingExternalData: missingExternalData,
            danglingLinks: danglingLinks,
            progress: OperationProgressReporter(progress)
        ).run()
    }
}
