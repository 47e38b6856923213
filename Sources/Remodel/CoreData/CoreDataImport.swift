/// What an import of a Core Data store made: the Remodel store, the version it is at, how many objects
/// of each entity it holds, and what was not imported.
///
/// For example:
/// ```swift
/// let result = try Store.importCoreData(from: "Backup/App.sqlite", bundle: bundle, into: "app.sqlite")
/// print(result)   // Imported … at version "App 3": 120 Note, 4 Folder; skipped Z_MODELCACHE (1 row).
/// ```
public struct CoreDataImport: Sendable, Hashable, CustomStringConvertible {
    /// The Core Data store read (never written).
    public var sourcePath: String
    /// The Remodel store written.
    public var storePath: String
    /// The model's name.
    public var modelName: String
    /// The version that wrote the Core Data store, and the new store's version.
    public var versionName: String
    /// Whether the version was given (`--version`) rather than found.
    public var versionWasGiven: Bool
    /// The number of objects of each concrete entity (every entity of the version, zero included).
    public var objectCounts: [String: Int]
    /// The number of links of each many-to-many relationship, by its Remodel join table.
    public var linkCounts: [String: Int]
    /// The files of external binary data read in.
    public var externalFiles: Int
    /// Tables Core Data keeps for itself (its model cache, persistent history, CloudKit mirroring),
    /// not imported, with their row counts.
    public var skippedTables: [String: Int]

    /// Every object imported.
    public var totalObjects: Int { objectCounts.values.reduce(0, +) }

    /// One paragraph: what was imported where, the counts per entity and what was skipped.
    public var description: String {
        let how =
            versionWasGiven
            ? "version \"\(versionName)\" (as given)"
            : "version \"\(versionName)\" (found from the store's metadata and tables)"
        let counts = objectCounts.sorted { $0.key < $1.key }.map { "\($0.value) \($0.key)" }.joined(separator: ", ")
        var text =
            "Imported the Core Data store \(sourcePath) into \(storePath) at \(how) of model \"\(modelName)\": \(counts.isEmpty ? "no entity" : counts)"
        let links = linkCounts.sorted { $0.key < $1.key }.map { "\($0.value) in \($0.key)" }
        if !links.isEmpty { text += "; links: " + links.joined(separator: ", ") }
        if externalFiles > 0 { text += "; \(externalFiles) external data file\(externalFiles == 1 ? "" : "s") read in" }
        text += "."
        if !skippedTables.isEmpty {
            let skipped = skippedTables.sorted { $0.key < $1.key }.map {
                "\($0.key) (\($0.value) row\($0.value == 1 ? "" : "s"))"
            }
            text += " Not imported (Core Data's own bookkeeping): " + skipped.joined(separator: ", ") + "."
        }
        return text
    }
}
