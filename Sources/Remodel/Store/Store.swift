/// A Remodel store: one SQLite file laid out from one version of a model.
///
/// Each store is its own file with its own version, so per-user stores are
/// simply separate paths; nothing is shared between `Store` values. A store
/// owns its SQLite connection: keep it on one task.
///
/// For example:
/// ```swift
/// let bundle = try ModelBundle(contentsOf: "Models/Library.xcdatamodeld")
/// let (store, outcome) = try Store.openOrCreate(at: "users/ada.sqlite", bundle: bundle)
/// if let store { try store.exportJSON(to: "ada.json") }
/// if case .needsMigration(let inspection) = outcome { print(inspection.message) }
/// ```
public final class Store {
    /// The store file.
    public let path: String
    /// The model bundle the store was opened with.
    public let bundle: ModelBundle
    /// The version the store is at.
    public let version: ModelVersion

    let layout: StoreLayout
    let connection: SQLiteConnection
    /// What a store opened for reading reads (kept alive with its private copy, if any).
    private let snapshot: StoreSnapshot?

    init(
        path: String, bundle: ModelBundle, version: ModelVersion, connection: SQLiteConnection,
        snapshot: StoreSnapshot? = nil
    ) {
        self.path = path
        self.bundle = bundle
        self.version = version
        self.layout = StoreLayout(version: version)
        self.connection = connection
        self.snapshot = snapshot
        connection.setBusyTimeout(milliseconds: 5000)
    }

    /// Opens an existing store at any version of the bundle, including one after the bundle's current
    /// version (check ``version`` against `bundle.currentVersion`; at app launch use
    /// ``openOrCreate(at:bundle:)``, which refuses a store after the current version).
    ///
    /// For example:
    /// ```swift
    /// let store = try Store.open(at: "library.sqlite", bundle: bundle)
    /// print(store.version.name)
    /// ```
    /// - Parameters:
    ///   - path: The store file.
    ///   - bundle: The model the store belongs to.
    /// - Throws: ``/RemodelModel/RemodelError`` with ``/RemodelModel/RemodelError/Code/storeMissing`` when there is no
    ///   store, or ``StoreInspection/refusal``'s code when the file is not a store of a version of this bundle;
    ///   the file is left untouched.
    public static func open(at path: String, bundle: ModelBundle) throws(RemodelError) -> Store {
        try open(at: path, inspected: try StoreInspector.inspect(path: path, bundle: bundle), bundle: bundle)
    }

    /// Opens the store at `path` that `inspection` has just looked at (a launch), without reading it again.
    static func open(at path: String, inspected inspection: StoreInspection, bundle: ModelBundle) throws(RemodelError)
        -> Store
    {
        let bundle = try bundle.restricted(toConfiguration: inspection.configuration)
        let store = try open(at: path, version: try openableVersion(inspection, bundle: bundle), bundle: bundle)
        // A store the bundle adopted by its entity hashes takes the bundle's model name now.
        if inspection.adoptedModelName != nil {
            try StoreMetadata.recordAdoption(bundleName: bundle.name, version: store.version, on: store.connection)
        }
        return store
    }

    /// Opens the store at `path`, known to be at `version` (a launch that has just migrated it there), as the
    /// configuration it records sees the bundle and the version.
    static func open(at path: String, version: ModelVersion, bundle: ModelBundle) throws(RemodelError) -> Store {
        let connection = try SQLiteConnection(path: path, mode: .readWrite)
        let configuration = try StoreConfiguration.configuration(on: connection)
        return Store(
            path: path, bundle: try bundle.restricted(toConfiguration: configuration),
            version: try version.restricted(toConfiguration: configuration), connection: connection)
    }

    /// The version of an inspected store that can be opened, or why it cannot.
    private static func openableVersion(_ inspection: StoreInspection, bundle: ModelBundle) throws(RemodelError)
        -> ModelVersion
    {
        let versionName: String
        switch inspection.state {
        case .current(let name), .older(let name, _):
            versionName = name
        case .newer(let name) where inspection.isAfterCurrentVersion:
            versionName = name
        case .missing:
            throw RemodelError(.storeMissing, "there is no store at this path; create it first", path: inspection.path)
        default:
            throw inspection.refusal(or: .incompatibleStore)
        }
        return try bundle.loadVersion(named: versionName)
    }

    /// Opens a store to read it (`remodel export`) without changing a byte in it or beside it, as
    /// ``StoreInspector`` reads: a store in WAL mode that nothing has open creates no `-wal`/`-shm`,
    /// and a store with an unfinished transaction is read as it is once rolled back, from a private
    /// copy. Call ``checkUnchanged()`` after reading.
    package static func openForReading(at path: String, bundle: ModelBundle) throws(RemodelError) -> Store {
        let snapshot = try StoreSnapshot(path: path)
        let inspection = try StoreInspector.inspect(snapshot, bundle: bundle)
        let bundle = try bundle.restricted(toConfiguration: inspection.configuration)
        let version = try openableVersion(inspection, bundle: bundle)
        return Store(
            path: path, bundle: bundle, version: version, connection: try snapshot.connection(), snapshot: snapshot)
    }

    /// For a store opened with ``openForReading(at:bundle:)``: throws when it was read without a lock
    /// (a WAL store nothing had open) and another program changed it meanwhile, so that what was read
    /// may mix two states.
    package func checkUnchanged() throws(RemodelError) {
        try snapshot?.checkUnchanged()
    }

    /// The store's metadata, read afresh.
    func metadata() throws(RemodelError) -> StoreMetadata {
        switch try StoreMetadata.read(from: connection) {
        case .success(let metadata): return metadata
        case .failure: throw RemodelError(.incompatibleStore, "the store's metadata is missing or damaged", path: path)
        }
    }
}
