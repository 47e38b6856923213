internal import Foundation
import Remodel

/// Writes a new Remodel store from a Core Data store: the model resolved (the app's, the store's own or
/// several merged), the version found (or given), then every hierarchy table copied in SQL from the
/// attached source with each value checked in the same scan or, ahead of it on another thread, by
/// ``CoreDataValueScan`` (streamed in key ranges, so memory stays flat), order columns ranked from Core
/// Data's ordering keys, join tables copied in key order, external binary data read in file by file,
/// indexes built last, all in a file that gets the target's name only when complete
/// (docs/CORE-DATA-STORES.md).
final class CoreDataImporter {
    let source: String
    let models: CoreDataModels
    let target: String
    let requestedVersion: String?
    let requestedConfiguration: String?
    let missingExternalData: CoreDataImport.MissingExternalData
    let danglingLinks: CoreDataImport.DanglingLinks
    let progress: OperationProgressReporter
    /// How the value checks made ahead of the copy (``CoreDataValueScan``) go with it; `nil`: the copy
    /// makes them all itself (tests compare the three).
    var valueScanPace: CoreDataValueScan.Pace? = .whereAhead
    /// How many key values one `INSERT … SELECT` covers: progress is said after each (the statement
    /// streams its rows, whatever the span; each more run of it costs a little), and the value checks
    /// made ahead of the copy vouch for one at a time (so they get ahead after the first few).
    static let batchSpan: Int64 = 50_000

    init(
        source: String, models: CoreDataModels, target: String, requestedVersion: String?,
        requestedConfiguration: String? = nil, missingExternalData: CoreDataImport.MissingExternalData,
        danglingLinks: CoreDataImport.DanglingLinks,
        progress: OperationProgressReporter
    ) {
        self.source = source
        self.models = models
        self.target = target
        self.requestedVersion = requestedVersion
        self.requestedConfiguration = requestedConfiguration
        self.missingExternalData = missingExternalData
        self.danglingLinks = danglingLinks
        self.progress = progress
    }

    func run() throws(RemodelError) -> CoreDataImport {
        do {
            return try importing()
        } catch {
            throw explained(error)
        }
    }

    /// An error told in the user's files: SQLite finding a page of the Core Data store damaged (read through the
    /// store being written, attached) names that store and what to do; any other error on the store being
    /// written names the new store's path, never its temporary name beside it.
    private func explained(_ error: RemodelError) -> RemodelError {
        let primary = (error.sqliteCode ?? 0) & 0xFF
        if error.code == .sqlite, primary == 11 || primary == 26 {  // SQLITE_CORRUPT, SQLITE_NOTADB
            var reason = error.message.components(separatedBy: " - while").first ?? error.message
            if reason.hasPrefix("SQLite error"), let colon = reason.range(of: ": ") {
                reason = String(reason[colon.upperBound...])
            }
            var damaged = RemodelError(
                .notAStore,
                "the Core Data store is damaged (SQLite: \(reason)), so nothing was imported: recover what it holds (the sqlite3 shell's `.recover`) or import a backup of it",
                path: source, cause: error)
            damaged.sqliteCode = error.sqliteCode
            return damaged
        }
        var error = error
        if let named = error.path, URL(fileURLWithPath: named).lastPathComponent.contains(".remodel-core-data-") {
            error.path = target
        }
        return error
    }

    private func importing() throws(RemodelError) -> CoreDataImport {
        guard !FileManager.default.fileExists(atPath: target) else {
            throw RemodelError(
                .incompatibleStore,
                "a file already exists here; an import of a Core Data store never replaces a file: remove it, or choose another path for the new store",
                path: target)
        }
        let reader = try Self.open(source)
        let connection = try reader.connection()
        let schema = try CoreDataSchema.read(from: connection, path: source)
        let metadata = try CoreDataMetadata.read(from: connection, path: source)
        let model = try ResolvedCoreDataModel.resolve(models, connection: connection, schema: schema, path: source)
        let candidate = try CoreDataVersionMatcher.match(
            bundle: model.bundle, facts: model.facts, requested: requestedVersion,
            configuration: requestedConfiguration, schema: schema, metadata: metadata, path: source)
        let file = CoreDataNewStoreFile(destination: try FileSystem.resolvingLinks(target), reportedAs: target)
        var result = CoreDataImport(
            sourcePath: source, storePath: target, modelName: model.bundle.name, versionName: candidate.version.name,
            versionWasGiven: requestedVersion != nil, modelOrigin: model.origin, objectCounts: [:], linkCounts: [:],
            externalFiles: 0, skippedTables: [:])
        result.configuration = candidate.version.configurationName
        do {
            try write(candidate, of: model, from: reader, into: file, result: &result)
            try file.publish()
        } catch {
            file.discard()
            throw CoreDataTableCopier.sourceDamage(error, source: source) ?? error
        }
        withExtendedLifetime(connection) {}
        return result
    }

    /// Opens the Core Data store for reading, refusing what is not one.
    static func open(_ source: String) throws(RemodelError) -> CoreDataSource {
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
        let schema = try CoreDataSchema.read(from: try reader.connection(), path: source)
        guard schema.isCoreDataStore else {
            throw RemodelError(
                .notAStore,
                "this SQLite database is not a Core Data store (it has no \(CoreDataName.metadataTable) and \(CoreDataName.primaryKeyTable) tables); `remodel import-core-data` reads only stores that Core Data wrote",
                path: source)
        }
        return reader
    }

    private func write(
        _ candidate: CoreDataVersionMatcher.Candidate, of model: ResolvedCoreDataModel, from reader: CoreDataSource,
        into file: CoreDataNewStoreFile,
        result: inout CoreDataImport
    ) throws(RemodelError) {
        let layout = candidate.layout
        let mapping = candidate.mapping
        let output = try file.connection()
        // The new file is thrown away on any failure, so it needs no journal while it is built.
        try output.execute("PRAGMA journal_mode = OFF; PRAGMA synchronous = OFF")
        try output.run("ATTACH DATABASE ? AS source", [.text(reader.attachURI)])
        try output.execute("BEGIN")
        for sql in layout.createTablesSQL { try output.execute(sql) }
        let history = [StoreMetadata.entry(from: nil, to: candidate.version.name, mapping: "core-data")]
        var metadata = StoreMetadata(modelName: result.modelName, version: candidate.version, history: history)
        // A model read from memory has no file to carry: the store carries the text it was read from.
        if let contents = model.contents[candidate.version.name] { metadata.carriedContents = contents }
        if model.origin == .store { metadata.modelOrigin = StoreMetadata.coreDataStoreOrigin }
        try metadata.write(to: output)

        let copier = try CoreDataTableCopier(connection: output, source: source, target: target, progress: progress)
        try CoreDataComposites(version: layout.version).register(on: output)
        try copier.countKeys(mapping.tables)
        if let valueScanPace {
            copier.valueScan = CoreDataValueScan(
                store: reader.opening, tables: mapping.tables, ranges: try copier.ranges(mapping.tables),
                pace: valueScanPace)
        }
        // The scan reads the store through its own connection: it ends before this function does.
        defer { copier.valueScan?.finish() }
        let external = CoreDataExternalData(copier: copier, policy: missingExternalData, storeFile: reader.path)
        var rowsByTable: [String: Int] = [:]
        for table in mapping.tables {
            rowsByTable[table.target] = try copier.copy(table)
            try copier.rankOrders(table)
            let (files, emptied) = try external.readIn(table)
            result.externalFiles += files
            result.emptiedValues += emptied
            CoreDataFaultPoint.afterTable.reach()
        }
        copier.valueScan?.finish()
        for join in mapping.joins {
            result.linkCounts[join.target] = try copier.copy(join)
        }
        try StoreIndexes.build(layout, on: output, path: target)
        try DerivedMaintenance.install(layout, on: output)
        try CoreDataDerivedCheck.check(mapping, layout: layout, on: output, source: source)
        var rows = rowsByTable
        for join in mapping.joins { rows[join.target] = result.linkCounts[join.target] }
        result.droppedLinks = try CoreDataReferenceCheck.check(
            layout, on: output, source: source, rowsByTable: rows, policy: danglingLinks)
        if !result.droppedLinks.isEmpty {
            for join in mapping.joins {
                result.linkCounts[join.target] = Int(
                    try output.scalar("SELECT count(*) FROM main.\(quoteIdentifier(join.target))")?.coreDataInteger ?? 0
                )
            }
        }
        try Self.requireRules(of: candidate.version, layout: layout, on: output, source: source)
        for table in mapping.skippedTables {
            result.skippedTables[table] = Int(
                try output.scalar("SELECT count(*) FROM source.\(quoteIdentifier(table))")?.coreDataInteger ?? 0)
        }
        result.objectCounts = try Self.objectCounts(layout, rowsByTable: rowsByTable, on: output)
        try output.execute("COMMIT")
        try output.detach("source")
        try output.execute("PRAGMA journal_mode = DELETE")
    }

    /// Refuses objects that break the version's rules the copy does not check itself: bounds, regular expressions
    /// and the counts of to-many relationships. Core Data checks them only when it saves an object, so a batch
    /// update or another program can leave them in its store, and a Remodel store holding them would fail its own
    /// checks and its export would not import back. (The copy refuses a value of another type and a NULL where the
    /// model requires one, the reference check a link to nothing, the unique indexes a duplicate.) The rules are
    /// checked on the new store, one more read of it, and only when the version has any of them. Nothing is kept
    /// then: the caller throws the new file away.
    static func requireRules(
        of version: ModelVersion, layout: StoreLayout, on output: SQLiteConnection, source: String
    ) throws(RemodelError) {
        guard hasRulesBeyondTheCopy(version) else { return }
        let failures = try Store.ruleFailures(on: output, version: version, layout: layout)
        guard let first = failures.first else { return }
        let found = failures.map(\.description).joined(separator: "; ")
        throw RemodelError(
            .validationFailed,
            "the Core Data store holds objects that break the rules of version \"\(version.name)\" (Core Data checks them only when it saves an object, so a batch update or another program can leave them), so nothing was imported; correct them in the store, or import with the version they were written for (--version). Each _pk is the object's Z_PK: \(found)",
            path: source, entity: first.entity, property: first.property, primaryKey: first.primaryKey)
    }

    /// Whether the version has a bound, a regular expression or a to-many count: rules only a check of the new
    /// store finds broken.
    static func hasRulesBeyondTheCopy(_ version: ModelVersion) -> Bool {
        // A composite's members may carry bounds and expressions of their own.
        !version.composites.isEmpty
            || version.entities.contains { entity in
                entity.attributes.contains {
                    $0.isStored && ($0.minValue != nil || $0.maxValue != nil || $0.regularExpression != nil)
                }
                    || entity.relationships.contains {
                        $0.isToMany && (($0.minCount ?? 0) > 0 || ($0.maxCount ?? 0) > 0)
                    }
            }
    }

    /// The objects of each concrete entity: a table of one entity holds as many as were copied into it;
    /// a hierarchy's table is counted by entity.
    static func objectCounts(_ layout: StoreLayout, rowsByTable: [String: Int], on output: SQLiteConnection)
        throws(RemodelError) -> [String: Int]
    {
        var counts: [String: Int] = [:]
        for table in layout.tables {
            let concrete = table.entities.filter { layout.version.entity(named: $0)?.isAbstract == false }
            for entity in concrete { counts[entity] = 0 }
            if concrete.count == 1, let only = concrete.first {
                counts[only] = rowsByTable[table.name] ?? 0
                continue
            }
            let rows = try output.rows(
                "SELECT \(StoreColumn.entity), count(*) FROM \(quoteIdentifier(table.name)) GROUP BY \(StoreColumn.entity)"
            )
            for row in rows {
                if case .text(let entity) = row[0], let count = row[1].coreDataInteger { counts[entity] = Int(count) }
            }
        }
        return counts
    }
}
