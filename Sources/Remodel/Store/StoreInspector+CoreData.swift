extension StoreInspector {
    /// For a database that is not a Remodel store: when Core Data wrote it, the version of the bundle that
    /// wrote it (`""` when none fits or two fit equally), else `nil`. Reads the schema and `Z_METADATA` only.
    static func coreDataVersion(_ connection: SQLiteConnection, bundle: ModelBundle, path: String) -> String? {
        do throws(RemodelError) {
            let schema = try CoreDataSchema.read(from: connection, path: path)
            guard schema.isCoreDataStore else { return nil }
            let metadata = try CoreDataMetadata.read(from: connection, path: path)
            do throws(RemodelError) {
                return try CoreDataVersionMatcher.match(
                    bundle: bundle, requested: nil, schema: schema, metadata: metadata, path: path
                ).version.name
            } catch {
                return ""
            }
        } catch {
            return nil
        }
    }
}
