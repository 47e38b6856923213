/// What a Core Data store says about the model that wrote it, in `Z_METADATA.Z_PLIST` (a binary
/// property list): the entity names it has version hashes for, the model's version identifiers and
/// the framework's version. Core Data's hash algorithm is not published, so the hashes themselves are
/// not compared; the names and identifiers are.
package struct CoreDataMetadata: Sendable, Hashable {
    /// The entity names of `NSStoreModelVersionHashes`.
    var hashedEntityNames: Set<String> = []
    /// `NSStoreModelVersionIdentifiers` (Xcode's "Model Version Identifier", usually `[""]`).
    var versionIdentifiers: [String] = []
    /// `NSPersistenceFrameworkVersion`, when present.
    var frameworkVersion: Int64?
    /// `NSStoreModelVersionHashesVersion`, when present (3 in every store seen).
    var hashesVersion: Int64?

    /// The store's metadata; a store without a readable plist has none (and is matched by its schema).
    package static func read(from connection: SQLiteConnection, path: String) throws(RemodelError) -> CoreDataMetadata {
        guard
            case .blob(let bytes)? = try connection.scalar(
                "SELECT \(CoreDataName.metadataPlist) FROM \(CoreDataName.metadataTable) ORDER BY \(CoreDataName.metadataVersion) LIMIT 1"
            )
        else {
            return CoreDataMetadata()
        }
        do {
            return try parse(Array(bytes))
        } catch {
            throw RemodelError(
                .notAStore,
                "\(CoreDataName.metadataTable).\(CoreDataName.metadataPlist) is not a binary property list Remodel can read (\(error.message)); the store may be damaged",
                path: path)
        }
    }

    /// The metadata a `Z_PLIST` holds; a plist that is not a dictionary holds none.
    static func parse(_ bytes: [UInt8]) throws(BinaryPropertyList.Failure) -> CoreDataMetadata {
        guard case .dictionary(let entries) = try BinaryPropertyList.decode(bytes) else { return CoreDataMetadata() }
        var metadata = CoreDataMetadata()
        if case .dictionary(let hashes)? = entries["NSStoreModelVersionHashes"] {
            metadata.hashedEntityNames = Set(hashes.keys)
        }
        if case .array(let identifiers)? = entries["NSStoreModelVersionIdentifiers"] {
            metadata.versionIdentifiers = identifiers.compactMap {
                if case .string(let text) = $0 { return text } else { return nil }
            }
        }
        if case .integer(let version)? = entries["NSPersistenceFrameworkVersion"] {
            metadata.frameworkVersion = version
        }
        if case .integer(let version)? = entries["NSStoreModelVersionHashesVersion"] {
            metadata.hashesVersion = version
        }
        return metadata
    }
}
