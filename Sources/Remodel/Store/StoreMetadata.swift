internal import Foundation

/// The `_RemodelMetadata` table: which model and version a store holds, each
/// entity's version hash, and the history of migrations applied to it.
package struct StoreMetadata: Sendable, Equatable {
    /// One applied step: creation (`from` is `nil`) or a migration.
    package struct HistoryEntry: Sendable, Equatable {
        /// The version migrated from, `nil` when the store was created.
        var from: String?
        /// The version migrated to (or created at).
        var to: String
        /// When, ISO 8601 UTC.
        var date: String
        /// `"created"`, `"inferred"`, `"core-data"` (imported from a Core Data store) or the mapping file's path.
        var mapping: String
    }

    static let tableName = "_RemodelMetadata"
    /// The key recording where a store's model came from, when that matters (``modelOrigin``).
    static let modelOriginKey = "modelOrigin"
    /// ``modelOrigin`` of a store imported from a Core Data store without its model file: its model (and
    /// version) name is the Core Data store's file name, and a bundle whose version has its entity hashes
    /// adopts it (``StoreInspector/adoptedVersion(_:in:)``).
    package static let coreDataStoreOrigin = "core-data-store"
    /// The key naming the configuration a store holds the entities of (``configuration``).
    static let configurationKey = "configuration"
    static let currentFormatVersion = 1
    static let entityHashPrefix = "entityHash."

    var formatVersion: Int
    var modelName: String
    var versionName: String
    var modelHash: String
    var entityHashes: [String: String]
    var history: [HistoryEntry]
    /// The model the store carries (``CarriedModel``): the version's `contents` XML, written with the
    /// rest; `nil` when read (``read(from:)`` leaves it unread: launch does not need it) and for a version
    /// made in memory, whose store then carries none.
    package var carriedContents: String?
    /// Where the model came from: ``coreDataStoreOrigin`` for a store imported from a Core Data store
    /// without its model file, `nil` for every other store (the key is then absent).
    package var modelOrigin: String?
    /// The configuration whose entities the store holds (``/RemodelModel/ModelVersion/configurationName``), `nil` for a
    /// store of every entity (the key is then absent). Every command restricts the bundle to it.
    package var configuration: String?

    /// The metadata of a store newly created at a version.
    package init(modelName: String, version: ModelVersion, history: [HistoryEntry]) {
        self.formatVersion = Self.currentFormatVersion
        self.modelName = modelName
        self.versionName = version.name
        self.modelHash = version.modelHash
        self.entityHashes = version.entityHashes
        self.history = history
        self.carriedContents = CarriedModel.contents(of: version)
        self.configuration = version.configurationName
    }

    private init(
        formatVersion: Int, modelName: String, versionName: String, modelHash: String, entityHashes: [String: String],
        history: [HistoryEntry]
    ) {
        self.formatVersion = formatVersion
        self.modelName = modelName
        self.versionName = versionName
        self.modelHash = modelHash
        self.entityHashes = entityHashes
        self.history = history
    }

    /// A history entry dated now.
    package static func entry(
        from: String?, to: String, mapping: String, secondsSince1970: Double = WallClock.secondsSince1970()
    ) -> HistoryEntry {
        HistoryEntry(from: from, to: to, date: ISODate.format(secondsSince1970) ?? "", mapping: mapping)
    }

    /// Why metadata could not be read: no table, or a table that is not Remodel's.
    enum ReadFailure: Error {
        case noTable
        case malformed(String)
    }

    /// Reads the metadata of the database on `connection`.
    static func read(from connection: SQLiteConnection) throws(RemodelError) -> Result<StoreMetadata, ReadFailure> {
        guard try connection.tableExists(tableName) else { return .failure(.noTable) }
        var values: [String: String] = [:]
        let statement: SQLiteStatement
        do {
            // The carried model is left unread: SQLite skips its overflow pages, so it costs a launch nothing.
            statement = try connection.prepare("SELECT key, value FROM \(quoteIdentifier(tableName)) WHERE key <> ?")
        } catch {
            return .failure(.malformed("its \(tableName) table has no key and value columns"))
        }
        try statement.bind([.text(CarriedModel.key)])
        try statement.forEachRow { row throws(RemodelError) in
            if case .text(let key) = row.value(at: 0), case .text(let value) = row.value(at: 1) { values[key] = value }
        }
        let formatVersion = values["formatVersion"].flatMap { Int($0) } ?? 0
        var hashes: [String: String] = [:]
        for (key, value) in values where key.hasPrefix(entityHashPrefix) {
            hashes[String(key.dropFirst(entityHashPrefix.count))] = value
        }
        // A store that records no version name is found by its hashes; one with neither is not Remodel's.
        let versionName = values["versionName"] ?? ""
        let modelName = values["modelName"] ?? ""
        guard !versionName.isEmpty || !hashes.isEmpty else {
            return .failure(.malformed("its \(tableName) table names no version and holds no entity hashes"))
        }
        let history: [HistoryEntry]
        do {
            history = try parseHistory(values["history"] ?? "[]")
        } catch {
            return .failure(.malformed("its history is not readable: \(error.message)"))
        }
        var metadata = StoreMetadata(
            formatVersion: formatVersion, modelName: modelName, versionName: versionName,
            modelHash: values["modelHash"] ?? "", entityHashes: hashes, history: history)
        metadata.modelOrigin = values[modelOriginKey]
        metadata.configuration = values[configurationKey]
        return .success(metadata)
    }

    /// Creates the table if needed and writes every key, replacing what was there.
    package func write(to connection: SQLiteConnection) throws(RemodelError) {
        let table = quoteIdentifier(Self.tableName)
        try connection.execute("CREATE TABLE IF NOT EXISTS \(table) (key TEXT PRIMARY KEY, value TEXT)")
        try connection.run("DELETE FROM \(table) WHERE key LIKE ? ESCAPE '\\'", [.text("entityHash\\.%")])
        let insert = try connection.prepare("INSERT OR REPLACE INTO \(table) (key, value) VALUES (?, ?)")
        var rows: [(String, String)] = [
            ("formatVersion", String(formatVersion)), ("modelName", modelName), ("versionName", versionName),
            ("modelHash", modelHash), ("history", Self.historyJSON(history)),
        ]
        rows += entityHashes.sorted { $0.key < $1.key }.map { (Self.entityHashPrefix + $0.key, $0.value) }
        if let carriedContents { rows.append((CarriedModel.key, carriedContents)) }
        if let modelOrigin { rows.append((Self.modelOriginKey, modelOrigin)) }
        if let configuration { rows.append((Self.configurationKey, configuration)) }
        for (key, value) in rows {
            try insert.bind([.text(key), .text(value)])
            try insert.step()
        }
        // A migrated store is a copy of its source: the source version's model must not stay behind.
        if carriedContents == nil {
            try connection.run("DELETE FROM \(table) WHERE key = ?", [.text(CarriedModel.key)])
        }
        // Nor the origin of a model the store no longer has under that name.
        if modelOrigin == nil {
            try connection.run("DELETE FROM \(table) WHERE key = ?", [.text(Self.modelOriginKey)])
        }
        if configuration == nil {
            try connection.run("DELETE FROM \(table) WHERE key = ?", [.text(Self.configurationKey)])
        }
    }

    /// Records that the store is now a store of `bundleName` at `version`, adopted by its entity hashes
    /// (``StoreInspector/adoptedVersion(_:in:)``): its model's name, version name and model hash, and the
    /// version's own `contents` XML as the model it carries (the text it was imported with when the
    /// version was made in memory); the origin dropped.
    static func recordAdoption(bundleName: String, version: ModelVersion, on connection: SQLiteConnection)
        throws(RemodelError)
    {
        let table = quoteIdentifier(tableName)
        try connection.execute("BEGIN IMMEDIATE")
        do {
            try connection.run(
                "INSERT OR REPLACE INTO \(table) (key, value) VALUES ('modelName', ?), ('versionName', ?), ('modelHash', ?)",
                [.text(bundleName), .text(version.name), .text(version.modelHash)])
            if let contents = CarriedModel.contents(of: version) {
                try connection.run(
                    "INSERT OR REPLACE INTO \(table) (key, value) VALUES (?, ?)",
                    [.text(CarriedModel.key), .text(contents)])
            }
            try connection.run("DELETE FROM \(table) WHERE key = ?", [.text(modelOriginKey)])
            try connection.execute("COMMIT")
        } catch {
            try? connection.execute("ROLLBACK")
            throw error
        }
    }

    /// Appends a history entry to the store's metadata (the migrator calls this after each step).
    static func appendHistory(_ entry: HistoryEntry, to connection: SQLiteConnection) throws(RemodelError) {
        let table = quoteIdentifier(tableName)
        var history: [HistoryEntry] = []
        if case .text(let text) = try connection.scalar("SELECT value FROM \(table) WHERE key = 'history'") {
            do {
                history = try parseHistory(text)
            } catch {
                throw RemodelError(
                    .incompatibleStore, "the store's migration history is not readable: \(error.message)",
                    path: connection.path)
            }
        }
        history.append(entry)
        try connection.run(
            "INSERT OR REPLACE INTO \(table) (key, value) VALUES ('history', ?)", [.text(historyJSON(history))])
    }

    static func historyJSON(_ history: [HistoryEntry]) -> String {
        var output = JSONOutput()
        output.write("[")
        for (offset, entry) in history.enumerated() {
            if offset > 0 { output.write(", ") }
            output.write("{\"from\": ")
            if let from = entry.from { output.writeString(from) } else { output.write("null") }
            output.write(", \"to\": ")
            output.writeString(entry.to)
            output.write(", \"date\": ")
            output.writeString(entry.date)
            output.write(", \"mapping\": ")
            output.writeString(entry.mapping)
            output.write("}")
        }
        output.write("]")
        return output.text
    }

    static func parseHistory(_ text: String) throws(RemodelError) -> [HistoryEntry] {
        var parser = JSONPullParser(bytes: Array(text.utf8), path: tableName)
        guard case .array(let items) = try parser.readValue() else { throw parser.failure("expected an array") }
        var history: [HistoryEntry] = []
        for item in items {
            guard case .object(let members) = item else { throw parser.failure("expected an object in the history") }
            func text(_ key: String) -> String? {
                if case .string(let value) = members.first(where: { $0.key == key })?.value { return value }
                return nil
            }
            guard let to = text("to") else { throw parser.failure("a history entry has no \"to\"") }
            history.append(
                HistoryEntry(from: text("from"), to: to, date: text("date") ?? "", mapping: text("mapping") ?? ""))
        }
        return history
    }
}
