internal import Foundation

/// Writes a new Remodel store from a Core Data store: the version found (or given), then every
/// hierarchy table copied in SQL from the attached source (streamed in key ranges, so memory stays
/// flat), order columns ranked from Core Data's ordering keys, join tables copied, external binary
/// data read in file by file, indexes built, all in a temporary file beside the target that is renamed
/// into place only when complete.
final class CoreDataImporter {
    let source: String
    let bundle: ModelBundle
    let target: String
    let requestedVersion: String?
    let progress: OperationProgressReporter
    /// How many key values one `INSERT … SELECT` covers.
    static let batchSpan: Int64 = 50_000

    init(
        source: String, bundle: ModelBundle, target: String, requestedVersion: String?,
        progress: OperationProgressReporter
    ) {
        self.source = source
        self.bundle = bundle
        self.target = target
        self.requestedVersion = requestedVersion
        self.progress = progress
    }

    func run() throws(RemodelError) -> CoreDataImport {
        guard !FileManager.default.fileExists(atPath: target) else {
            throw RemodelError(
                .incompatibleStore,
                "a file already exists here; an import of a Core Data store never replaces a file: remove it, or choose another path for the new store",
                path: target)
        }
        switch try StoreFileHeader.check(path: try FileSystem.resolvingLinks(source)) {
        case .missing?:
            throw RemodelError(
                .storeMissing, "there is no Core Data store here; give the path of the app's .sqlite file", path: source
            )
        case .notSQLite(let reason)?:
            throw RemodelError(
                .notAStore, "this is not an SQLite database (\(reason)), so not a Core Data store", path: source)
        default:
            break
        }
        let reader = try CoreDataSource(path: source)
        let connection = try reader.connection()
        let schema = try CoreDataSchema.read(from: connection, path: source)
        guard schema.isCoreDataStore else {
            throw RemodelError(
                .notAStore,
                "this SQLite database is not a Core Data store (it has no \(CoreDataName.metadataTable) and \(CoreDataName.primaryKeyTable) tables); `remodel import-core-data` reads only stores that Core Data wrote",
                path: source)
        }
        let metadata = try CoreDataMetadata.read(from: connection, path: source)
        let candidate = try CoreDataVersionMatcher.match(
            bundle: bundle, requested: requestedVersion, schema: schema, metadata: metadata, path: source)
        let destination = try FileSystem.resolvingLinks(target)
        let temporary = Store.temporaryPath(beside: destination, purpose: "core-data")
        var result = CoreDataImport(
            sourcePath: source, storePath: target, modelName: bundle.name, versionName: candidate.version.name,
            versionWasGiven: requestedVersion != nil, objectCounts: [:], linkCounts: [:], externalFiles: 0,
            skippedTables: [:])
        do {
            try write(candidate, from: reader, into: temporary, result: &result)
            try StoreFiles.synchronize(file: temporary)
            CoreDataFaultPoint.beforeRename.reach()
            try FileSystem.moveNew(from: temporary, to: destination)
            CoreDataFaultPoint.afterRename.reach()
            try StoreFiles.synchronize(directoryOf: destination)
        } catch {
            FileSystem.removeQuietly(temporary)
            FileSystem.removeQuietly(temporary + "-journal")
            throw error
        }
        withExtendedLifetime(connection) {}
        return result
    }

    private func write(
        _ candidate: CoreDataVersionMatcher.Candidate, from reader: CoreDataSource, into temporary: String,
        result: inout CoreDataImport
    ) throws(RemodelError) {
        let layout = candidate.layout
        let mapping = candidate.mapping
        let output = try SQLiteConnection(path: temporary, mode: .create)
        // The temporary file is deleted on any failure, so it needs no journal while it is built.
        try output.execute("PRAGMA journal_mode = OFF; PRAGMA synchronous = OFF; PRAGMA cache_size = -16384")
        try output.run("ATTACH DATABASE ? AS source", [.text(reader.attachURI)])
        try output.execute("BEGIN")
        for sql in layout.createTablesSQL { try output.execute(sql) }
        let history = [StoreMetadata.entry(from: nil, to: candidate.version.name, mapping: "core-data")]
        try StoreMetadata(modelName: bundle.name, version: candidate.version, history: history).write(to: output)

        let copier = CoreDataTableCopier(connection: output, source: source, progress: progress)
        for table in mapping.tables {
            copier.total += Int(
                try output.scalar("SELECT count(*) FROM source.\(quoteIdentifier(table.source))")?.coreDataInteger ?? 0)
        }
        for table in mapping.tables {
            try copier.check(table)
            try copier.copy(table)
            try copier.rankOrders(table)
            result.externalFiles += try copier.readExternalData(table, storeFile: reader.path)
            CoreDataFaultPoint.afterTable.reach()
        }
        for join in mapping.joins {
            result.linkCounts[join.target] = try copier.copy(join)
        }
        try StoreIndexes.build(layout, on: output, path: source)
        try CoreDataReferenceCheck.check(layout, on: output, source: source)
        for table in mapping.skippedTables {
            result.skippedTables[table] = Int(
                try output.scalar("SELECT count(*) FROM source.\(quoteIdentifier(table))")?.coreDataInteger ?? 0)
        }
        for entity in layout.version.entities where !entity.isAbstract {
            guard let table = layout.table(forEntity: entity.name) else { continue }
            let count = try output.scalar(
                "SELECT count(*) FROM \(quoteIdentifier(table.name)) WHERE \(StoreColumn.entity) = ?",
                [.text(entity.name)])
            result.objectCounts[entity.name] = Int(count?.coreDataInteger ?? 0)
        }
        try output.execute("COMMIT")
        try output.detach("source")
        try output.execute("PRAGMA journal_mode = DELETE")
    }
}
