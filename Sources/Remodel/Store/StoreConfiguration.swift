/// The configuration a store holds the entities of, and the bundle restricted to it: every command that reads
/// or writes a store reads it against the bundle as the store's configuration sees it
/// (``/RemodelModel/ModelBundle/restricted(toConfiguration:)``).
enum StoreConfiguration {
    /// `bundle` restricted to the configuration `metadata` records (the bundle itself for a store of every
    /// entity, and for another model's store, which its classification names).
    /// - Throws: ``/RemodelModel/RemodelError`` when `bundle` is already restricted to another configuration than the
    ///   store's (or the store holds every entity), or when the bundle's current version cannot hold the store's
    ///   configuration (it has none of that name: those it has are named).
    static func bundle(_ bundle: ModelBundle, for metadata: StoreMetadata, path: String) throws(RemodelError)
        -> ModelBundle
    {
        if let asked = bundle.configurationName, asked != metadata.configuration,
            metadata.modelName == bundle.name || metadata.modelName.isEmpty
        {
            let holds =
                metadata.configuration.map { "the entities of configuration \"\($0)\"" }
                ?? "every entity of its model"
            throw RemodelError(
                .incompatibleStore,
                "the store holds \(holds), not those of configuration \"\(asked)\": open it with the model as it holds it",
                path: path)
        }
        guard let configuration = metadata.configuration, bundle.configurationName == nil else { return bundle }
        do {
            return try bundle.restricted(toConfiguration: configuration)
        } catch {
            // Another model's store is named as such by its classification, whatever configurations it has.
            guard metadata.modelName == bundle.name || metadata.modelName.isEmpty else { return bundle }
            throw RemodelError(
                error.code,
                "the store holds the entities of configuration \"\(configuration)\" only, but \(error.message)",
                location: error.location, path: path)
        }
    }

    /// The configuration recorded in the metadata of the store on `connection`, `nil` when it records none.
    static func configuration(on connection: SQLiteConnection) throws(RemodelError) -> String? {
        guard try connection.tableExists(StoreMetadata.tableName) else { return nil }
        let value = try connection.scalar(
            "SELECT value FROM \(quoteIdentifier(StoreMetadata.tableName)) WHERE key = ?",
            [.text(StoreMetadata.configurationKey)])
        if case .text(let name)? = value { return name }
        return nil
    }
}
