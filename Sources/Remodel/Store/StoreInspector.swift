internal import Foundation

/// Finds out what is at a store path without changing it: missing, current,
/// older, newer, another model's store, another program's database, or not a
/// database at all.
///
/// Inspection never writes: it checks the 16-byte SQLite header (and the
/// database size the header records) before SQLite sees the file, then opens it
/// read-only, so no byte changes and no `-journal`, `-wal` or `-shm` file is left.
/// A store in WAL mode that nothing has open is read with SQLite's `immutable=1`
/// (so no `-wal` or `-shm` is created); a store with a hot journal (a program
/// stopped in the middle of a write) is read from a private copy rolled back in the
/// temporary folder, and the inspection says so (``StoreInspection/hasUnfinishedTransaction``).
///
/// For example:
/// ```swift
/// let bundle = try ModelBundle(contentsOf: "Models/Library.xcdatamodeld")
/// let inspection = try StoreInspector.inspect(path: "library.sqlite", bundle: bundle)
/// print(inspection.message)
/// ```
public enum StoreInspector {
    /// Inspects the file at `path` against a model bundle.
    ///
    /// - Parameters:
    ///   - path: The store file.
    ///   - bundle: The model the store should belong to.
    ///   - thorough: Also run SQLite's `quick_check`, which reads the whole file.
    /// - Returns: What the file is, with a message to show.
    /// - Throws: ``/RemodelModel/RemodelError`` with ``/RemodelModel/RemodelError/Code/io`` when the file cannot be
    ///   read, or ``/RemodelModel/RemodelError/Code/locked`` when another process holds it.
    public static func inspect(path: String, bundle: ModelBundle, thorough: Bool = false) throws(RemodelError)
        -> StoreInspection
    {
        try StoreSnapshot.reading(path) { (snapshot) throws(RemodelError) in
            try inspect(snapshot, bundle: bundle, thorough: thorough)
        }
    }

    /// Inspects what a snapshot of a store reads (see ``StoreSnapshot``).
    static func inspect(_ snapshot: StoreSnapshot, bundle: ModelBundle, thorough: Bool = false) throws(RemodelError)
        -> StoreInspection
    {
        let ((state, steps), metadata) = try state(snapshot, bundle: bundle, thorough: thorough)
        var inspection = StoreInspection(
            path: snapshot.path, state: state, modelName: bundle.name, currentVersionName: bundle.currentVersionName,
            migrationSteps: steps)
        if let metadata {
            let configured = try StoreConfiguration.bundle(bundle, for: metadata, path: snapshot.path)
            inspection.adoptedModelName = adoptedVersion(metadata, in: configured) != nil ? metadata.modelName : nil
            inspection.configuration = metadata.configuration
        }
        if case .notRemodelStore = state, let connection = try? snapshot.connection() {
            inspection.coreDataVersion = coreDataVersion(connection, bundle: bundle, path: snapshot.path)
            inspection.bundlePath = bundle.path
        }
        inspection.versionNames = bundle.versionNames
        inspection.hasUnfinishedTransaction = snapshot.rolledBack
        return inspection
    }

    /// The inspection and, when the file is a store, its metadata.
    static func state(_ snapshot: StoreSnapshot, bundle: ModelBundle, thorough: Bool) throws(RemodelError) -> (
        state: (StoreInspection.State, Int?), metadata: StoreMetadata?
    ) {
        let path = snapshot.path
        if let problem = try StoreFileHeader.check(path: snapshot.readPath) {
            return ((problem, nil), nil)
        }
        let metadata: Result<StoreMetadata, StoreMetadata.ReadFailure>
        let connection: SQLiteConnection
        do {
            connection = try snapshot.connection()
            connection.setBusyTimeout(milliseconds: 2000)
            if thorough, let problem = try connection.integrityProblems(quick: true).first {
                return ((.notSQLite(reason: "damaged: \(problem)"), nil), nil)
            }
            metadata = try StoreMetadata.read(from: connection)
        } catch {
            return ((try damaged(error, path: path), nil), nil)
        }
        switch metadata {
        case .failure(.noTable):
            return ((.notRemodelStore(reason: "it has no \(StoreMetadata.tableName) table"), nil), nil)
        case .failure(.malformed(let reason)):
            return ((.notRemodelStore(reason: reason), nil), nil)
        case .success(let metadata):
            let bundle = try StoreConfiguration.bundle(bundle, for: metadata, path: path)
            let (state, steps) = try classify(metadata, in: bundle)
            let checked: StoreInspection.State
            do {
                checked = try SchemaDriftCheck.checked(state, on: connection, bundle: bundle)
            } catch {
                return ((try damaged(error, path: path), nil), nil)
            }
            return ((checked, steps), metadata)
        }
    }

    private static func damaged(_ error: RemodelError, path: String) throws(RemodelError) -> StoreInspection.State {
        let primary = (error.sqliteCode ?? 0) & 0xFF
        switch primary {
        case 26, 11:  // SQLITE_NOTADB, SQLITE_CORRUPT
            return .notSQLite(reason: "damaged: \(error.message)")
        case 5, 6:  // SQLITE_BUSY, SQLITE_LOCKED
            throw RemodelError(
                .locked, "another process holds the store; try again when it has finished", path: path, cause: error)
        default:
            throw error
        }
    }

    /// Which bundle version a store's metadata names. The recorded version name decides: a name this
    /// bundle has (or declares as a former name) is that version when the entity hashes agree, and an
    /// edited version when they do not; a name it does not have is a newer store (or, under another
    /// model's name, another model's store), whatever older version its hashes happen to equal. Only a
    /// store that records no version name is found by its hashes.
    static func classify(_ metadata: StoreMetadata, in bundle: ModelBundle) throws(RemodelError) -> (
        StoreInspection.State, Int?
    ) {
        let currentIndex = bundle.index(ofVersion: bundle.currentVersionName) ?? bundle.versionNames.count - 1
        // A layout this build does not know may keep anything anywhere: nothing below can be trusted.
        guard metadata.formatVersion <= StoreMetadata.currentFormatVersion else {
            return (.newerFormat(formatVersion: metadata.formatVersion), nil)
        }
        if let adopted = adoptedVersion(metadata, in: bundle) {
            return position(of: adopted, .hashes, bundle: bundle, currentIndex: currentIndex)
        }
        guard !metadata.versionName.isEmpty else {
            let candidates = bundle.versions.filter { $0.entityHashes == metadata.entityHashes }
            guard !candidates.isEmpty else {
                return metadata.modelName == bundle.name || metadata.modelName.isEmpty
                    ? (.modifiedVersion(versionName: ""), nil) : (.otherModel(name: metadata.modelName), nil)
            }
            let version = candidates.first { $0.name == bundle.currentVersionName } ?? candidates[candidates.count - 1]
            return position(of: version.name, .hashes, bundle: bundle, currentIndex: currentIndex)
        }
        guard let name = bundle.versionName(recordedAs: metadata.versionName) else {
            guard metadata.modelName == bundle.name else { return (.otherModel(name: metadata.modelName), nil) }
            return (.newer(versionName: metadata.versionName), nil)
        }
        let version = try bundle.loadVersion(named: name)
        guard version.entityHashes == metadata.entityHashes else {
            guard metadata.modelName == bundle.name else { return (.otherModel(name: metadata.modelName), nil) }
            return (.modifiedVersion(versionName: metadata.versionName), nil)
        }
        return position(
            of: name, name == metadata.versionName ? .name : .formerName, bundle: bundle, currentIndex: currentIndex)
    }

    /// The bundle version that adopts a store imported from a Core Data store without its model file
    /// (``StoreMetadata/coreDataStoreOrigin``), recorded under the Core Data store's file name: the one
    /// whose entity hashes are the store's (the current version among several), as Core Data matches a
    /// store to a model by its hashes. `nil` for any other store: a store that records a model name the
    /// bundle lacks by any other road is another model's, or a newer one, and is refused untouched.
    static func adoptedVersion(_ metadata: StoreMetadata, in bundle: ModelBundle) -> String? {
        guard metadata.modelOrigin == StoreMetadata.coreDataStoreOrigin, metadata.modelName != bundle.name,
            !metadata.entityHashes.isEmpty
        else { return nil }
        let names = bundle.versions.filter { $0.entityHashes == metadata.entityHashes }.map(\.name)
        return names.first { $0 == bundle.currentVersionName } ?? names.last
    }

    private static func position(
        of name: String, _ match: StoreInspection.VersionMatch, bundle: ModelBundle, currentIndex: Int
    ) -> (StoreInspection.State, Int?) {
        let index = bundle.index(ofVersion: name) ?? currentIndex
        if index == currentIndex { return (.current(version: name), nil) }
        if index < currentIndex { return (.older(version: name, matchedBy: match), currentIndex - index) }
        return (.newer(versionName: name), nil)
    }
}
