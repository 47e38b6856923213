internal import Foundation

/// The model a store carries: its version's `contents` XML exactly as the model file had it, recorded
/// in `_RemodelMetadata` (key `versionContents`) beside the version name at create and after every
/// migration. A build that lacks the store's version (an older app, a rolled-back server) reads it to
/// know what the store is and, where nothing is lost, to migrate it down
/// (``MigrationOptions/downgrade``).
///
/// Stores made before Remodel recorded it carry none until their next migration. A normal launch
/// never reads it: only a store whose version the bundle lacks, `remodel status` and
/// `remodel export --carried-model` do.
///
/// For example:
/// ```swift
/// if let carried = try StoreInspector.carriedModel(path: "library.sqlite") {
///     print(carried.versionName, carried.contents.count)
/// }
/// ```
public struct CarriedModel: Sendable, Hashable {
    /// The model's name recorded in the store.
    public var modelName: String
    /// The store's version name, the version this model is.
    public var versionName: String
    /// The store's layout format version (`formatVersion`).
    public var formatVersion: Int
    /// The version's `contents` XML, as written.
    public var contents: String

    /// The metadata key the XML is recorded under.
    static let key = "versionContents"

    /// The XML of a version as its `contents` file has it now, or `nil` for a version made in memory
    /// (or whose file is gone): the store then carries no model.
    static func contents(of version: ModelVersion) -> String? {
        FileSystem.text(atPath: version.path)
    }

    /// The XML recorded in the store on `connection`, or `nil` when it carries none.
    static func contents(in connection: SQLiteConnection) throws(RemodelError) -> String? {
        guard try connection.tableExists(StoreMetadata.tableName) else { return nil }
        let sql = "SELECT value FROM \(quoteIdentifier(StoreMetadata.tableName)) WHERE key = ?"
        guard case .text(let text)? = try connection.scalar(sql, [.text(key)]), !text.isEmpty else { return nil }
        return text
    }

    /// The carried model read into a version, named as the store names its version.
    /// - Parameter storePath: The store, named in errors.
    /// - Throws: ``/RemodelModel/RemodelError`` with ``/RemodelModel/RemodelError/Code/invalidModel`` when the XML
    ///   cannot be read as a model.
    func version(storePath: String) throws(RemodelError) -> ModelVersion {
        let file = "\(storePath) (the model it carries, version \"\(versionName)\")"
        let root: XMLNode
        do {
            root = try XMLDocumentReader.parse(Array(contents.utf8), file: file)
        } catch {
            throw RemodelError(
                .invalidModel, "the model the store carries cannot be read: \(error.message)", path: storePath)
        }
        let (version, diagnostics) = ModelFileReader.version(from: root, path: file, versionName: versionName)
        guard let version else {
            let reason = diagnostics.first?.message ?? "it is not a model"
            throw RemodelError(.invalidModel, "the model the store carries cannot be read: \(reason)", path: storePath)
        }
        return version
    }
}

extension StoreInspector {
    /// The model a store carries (see ``CarriedModel``), read without changing the store; `nil` when the
    /// store was made before Remodel recorded it and has not been migrated since.
    ///
    /// It needs no model bundle: an older build reads what a newer store is.
    ///
    /// For example:
    /// ```swift
    /// if let carried = try StoreInspector.carriedModel(path: "library.sqlite") {
    ///     try carried.contents.write(toFile: "Library 3/contents", atomically: true, encoding: .utf8)
    /// }
    /// ```
    /// - Parameter path: The store file.
    /// - Returns: The carried model, or `nil`.
    /// - Throws: ``/RemodelModel/RemodelError`` with ``/RemodelModel/RemodelError/Code/notAStore`` when the file is not
    ///   a Remodel store, ``/RemodelModel/RemodelError/Code/io`` or ``/RemodelModel/RemodelError/Code/locked`` when it
    ///   cannot be read.
    public static func carriedModel(path: String) throws(RemodelError) -> CarriedModel? {
        try StoreSnapshot.reading(path) { (snapshot) throws(RemodelError) -> CarriedModel? in
            switch try StoreFileHeader.check(path: snapshot.readPath) {
            case nil: break
            case .missing?:
                throw RemodelError(.storeMissing, "there is no store here, so no model it carries", path: path)
            case .notSQLite(let reason)?:
                throw RemodelError(
                    .notAStore, "the file is not an SQLite database (\(reason)), so it carries no model", path: path)
            case let other?:
                throw RemodelError(
                    .notAStore, "the file is not a Remodel store (\(other)), so it carries no model", path: path)
            }
            let connection = try snapshot.connection()
            guard case .success(let metadata) = try StoreMetadata.read(from: connection) else {
                throw RemodelError(
                    .notAStore,
                    "the file is not a Remodel store (it has no readable \(StoreMetadata.tableName) table), so it carries no model",
                    path: path)
            }
            return try carriedModel(metadata, on: connection)
        }
    }

    /// The model carried by the store on `connection`, whose metadata was read.
    static func carriedModel(_ metadata: StoreMetadata, on connection: SQLiteConnection) throws(RemodelError)
        -> CarriedModel?
    {
        guard let contents = try CarriedModel.contents(in: connection) else { return nil }
        return CarriedModel(
            modelName: metadata.modelName, versionName: metadata.versionName, formatVersion: metadata.formatVersion,
            contents: contents)
    }
}
