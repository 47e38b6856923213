internal import Foundation

extension Store {
    /// Creates a store at a version of the bundle (the current one by default), optionally filled from
    /// a JSON seed file. All or nothing: the store is built in a temporary file in the same folder and
    /// moved into place only when complete, so on any error no file is left behind.
    ///
    /// For example:
    /// ```swift
    /// let store = try Store.create(at: "library.sqlite", bundle: bundle, seed: "seed.json")
    /// ```
    /// - Parameters:
    ///   - path: Where the store goes; there must be no file there (a symbolic link to nothing yet is
    ///     kept, and the store made where it leads).
    ///   - bundle: The model.
    ///   - versionName: The version to create, or `nil` for the bundle's current version.
    ///   - seed: A JSON file in the export shape to import, or `nil` for an empty store.
    /// - Returns: The new store, open.
    /// - Throws: ``/RemodelModel/RemodelError``: ``/RemodelModel/RemodelError/Code/incompatibleStore`` when a file
    ///   exists at `path`, ``/RemodelModel/RemodelError/Code/invalidValue`` naming the entity, `_pk` and property of a
    ///   bad seed value, ``/RemodelModel/RemodelError/Code/io`` or ``/RemodelModel/RemodelError/Code/sqlite`` when the
    ///   file cannot be written.
    public static func create(
        at path: String, bundle: ModelBundle, version versionName: String? = nil, seed: String? = nil
    ) throws(RemodelError) -> Store {
        try create(at: path, bundle: bundle, version: versionName, seed: seed, progress: nil).store
    }

    /// ``create(at:bundle:version:seed:)-(String,_,_,_)``, telling `progress` how much of the seed is read.
    /// - Returns: The store, and how many objects the seed put in it.
    package static func create(
        at path: String, bundle: ModelBundle, version versionName: String?, seed: String?,
        progress: ((OperationProgress) -> Void)?
    ) throws(RemodelError) -> (store: Store, seeded: Int) {
        let version: ModelVersion
        if let versionName {
            version = try bundle.requireVersion(named: versionName, code: .invalidModel)
        } else {
            version = bundle.currentVersion
        }
        try bundle.requireNoErrors(inVersions: [version.name])
        guard !FileManager.default.fileExists(atPath: path) else {
            throw RemodelError(
                .incompatibleStore,
                "a file already exists here; creating a store never replaces a file: remove it, or import into it",
                path: path)
        }
        // A symbolic link to nothing yet: the store is made where it leads, and the link kept.
        let target = try FileSystem.resolvingLinks(path)
        let temporary = temporaryPath(beside: target, purpose: "create")
        let seeded: Int
        do {
            seeded = try build(at: temporary, bundle: bundle, version: version, seed: seed, progress: progress)
            try StoreFiles.synchronize(file: temporary)
            try FileSystem.moveNew(from: temporary, to: target)
        } catch {
            FileSystem.removeQuietly(temporary)
            FileSystem.removeQuietly(temporary + "-journal")
            // The store being built beside the new one has a name the user never sees: name the store asked for.
            var error = error
            if error.path == temporary { error.path = path }
            throw error
        }
        let store = Store(
            path: path, bundle: bundle, version: version, connection: try SQLiteConnection(path: path, mode: .readWrite)
        )
        return (store, seeded)
    }

    /// Builds the store at `path`. - Returns: How many objects the seed put in it.
    private static func build(
        at path: String, bundle: ModelBundle, version: ModelVersion, seed: String?,
        progress: ((OperationProgress) -> Void)?
    ) throws(RemodelError) -> Int {
        let connection = try SQLiteConnection(path: path, mode: .create)
        // The temporary file is deleted on any failure, so it needs no journal while it is built.
        try connection.execute("PRAGMA journal_mode = OFF; PRAGMA synchronous = OFF")
        let layout = StoreLayout(version: version)
        try connection.execute("BEGIN")
        for sql in layout.createTablesSQL { try connection.execute(sql) }
        let history = [StoreMetadata.entry(from: nil, to: version.name, mapping: "created")]
        try StoreMetadata(modelName: bundle.name, version: version, history: history).write(to: connection)
        var seeded = 0
        if let seed {
            let importer = JSONImporter(layout: layout, connection: connection, path: seed)
            importer.progress = OperationProgressReporter(progress)
            try importer.load()
            try importer.reconcileRelationships()
            try StoreIndexes.build(layout, on: connection, path: seed)
            try DerivedMaintenance.install(layout, on: connection)
            try importer.checkDerivedValues()
            try importer.finish()
            try importer.validateRelationshipCounts()
            seeded = importer.objectCount
        } else {
            try StoreIndexes.build(layout, on: connection, path: path)
            try DerivedMaintenance.install(layout, on: connection)
        }
        try connection.execute("COMMIT")
        try connection.execute("PRAGMA journal_mode = DELETE")
        return seeded
    }

    /// A fresh hidden file name in the same folder as `path` (so a rename stays on one file system).
    package static func temporaryPath(beside path: String, purpose: String) -> String {
        let url = URL(fileURLWithPath: path)
        let name = ".\(url.lastPathComponent).remodel-\(purpose)-\(UUID().uuidString)"
        return url.deletingLastPathComponent().appendingPathComponent(name).path
    }
}
