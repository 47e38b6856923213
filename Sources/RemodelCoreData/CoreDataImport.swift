package import Remodel

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
    /// The configuration whose entities the store held (docs/CORE-DATA-STORES.md, "Configurations"), `nil`
    /// for a store of every entity; the new store records it.
    public var configuration: String?
    /// Where the model came from: the app's model file, the store's own compiled model, or several
    /// model files merged.
    public var modelOrigin: ModelOrigin = .modelFile
    /// The number of objects of each concrete entity (every entity of the version, zero included).
    public var objectCounts: [String: Int]
    /// The number of links of each many-to-many relationship, by its Remodel join table.
    public var linkCounts: [String: Int]
    /// The files of external binary data read in.
    public var externalFiles: Int
    /// The values whose external data file was missing, imported empty (``MissingExternalData/empty``).
    public var emptiedValues: [EmptiedValue] = []
    /// The links to objects the store does not have, left out (``DanglingLinks/drop``).
    public var droppedLinks: [DroppedLink] = []
    /// Tables Core Data keeps for itself (its model cache, persistent history, CloudKit mirroring),
    /// not imported, with their row counts.
    public var skippedTables: [String: Int]

    /// Where an import's model came from.
    public enum ModelOrigin: String, Sendable, Hashable {
        /// The app's model file, given.
        case modelFile
        /// The model the store carries (`Z_MODELCACHE`), for a store without a model file.
        case store
        /// Several model files merged into one, as `NSManagedObjectModel.mergedModel(from:)` does.
        case merged
    }

    /// What to do with a value whose bytes Core Data kept in a file beside the store when the file is
    /// not there (a test fixture or a backup copied without its `.<Store>_SUPPORT` folder).
    public enum MissingExternalData: String, Sendable, Hashable, CaseIterable {
        /// Refuse the import, naming the object, the attribute and the file.
        case refuse
        /// Import nil, or empty bytes where the attribute is required, and list each value.
        case empty
    }

    /// What to do with a to-one or a join-table row that names an object the store does not have (a
    /// damaged store: Core Data keeps it working until the fault fires, docs/CORE-DATA-STORES.md).
    public enum DanglingLinks: String, Sendable, Hashable, CaseIterable {
        /// Refuse the import, listing every such link.
        case refuse
        /// Import without them (a to-one is nil, a join row is left out) and list each one, as Core Data
        /// turns an object it cannot find into a deleted one.
        case drop
    }

    /// A link left out because it names an object the store does not have.
    public struct DroppedLink: Sendable, Hashable, CustomStringConvertible {
        /// The concrete entity of the object holding the link (the entity declaring the relationship when
        /// that object is missing too).
        public var entity: String
        /// That object's key (`Z_PK`, which the Remodel store keeps as `_pk`).
        public var primaryKey: Int64
        /// The relationship.
        public var relationship: String
        /// The key it names, which no object of the destination has, as SQL writes it (`3`, `'x'`).
        public var key: String
        /// The destination entity.
        public var destination: String

        /// `Connection Z_PK 4 "to" → User Z_PK 3`.
        public var description: String {
            "\(entity) \(CoreDataName.primaryKey) \(primaryKey) \"\(relationship)\" → \(destination) \(CoreDataName.primaryKey) \(key)"
        }
    }

    /// A value imported empty because its external data file was missing.
    public struct EmptiedValue: Sendable, Hashable {
        /// The object's concrete entity.
        public var entity: String
        /// The object's key (`Z_PK`, which the Remodel store keeps as `_pk`).
        public var primaryKey: Int64
        /// The attribute.
        public var attribute: String
        /// The file Core Data names, which was not there.
        public var file: String
        /// Whether the value is nil (an optional attribute) rather than empty bytes (a required one).
        public var isNil: Bool
    }

    /// Every object imported.
    public var totalObjects: Int { objectCounts.values.reduce(0, +) }

    /// One paragraph: what was imported where, the counts per entity and what was skipped.
    public var description: String {
        let how =
            versionWasGiven
            ? "version \"\(versionName)\" (as given)"
            : "version \"\(versionName)\" (found from the store's metadata and tables)"
        let origin: String
        switch modelOrigin {
        case .modelFile: origin = "model \"\(modelName)\""
        case .store: origin = "model \"\(modelName)\" (the store's own, from its \(CoreDataName.modelCacheTable))"
        case .merged: origin = "the merged model \"\(modelName)\""
        }
        let shape = configuration.map { " at configuration \"\($0)\"" } ?? ""
        let counts = objectCounts.sorted { $0.key < $1.key }.map { "\($0.value) \($0.key)" }.joined(separator: ", ")
        var text =
            "Imported the Core Data store \(sourcePath) into \(storePath) at \(how)\(shape) of \(origin): \(counts.isEmpty ? "no entity" : counts)"
        let links = linkCounts.sorted { $0.key < $1.key }.map { "\($0.value) in \($0.key)" }
        if !links.isEmpty { text += "; links: " + links.joined(separator: ", ") }
        if externalFiles > 0 { text += "; \(externalFiles) external data file\(externalFiles == 1 ? "" : "s") read in" }
        text += "."
        if !emptiedValues.isEmpty {
            let listed = emptiedValues.map {
                "\($0.entity) \(CoreDataName.primaryKey) \($0.primaryKey) \"\($0.attribute)\" (\($0.file)) as \($0.isNil ? "nil" : "empty bytes")"
            }
            text +=
                " Missing external data files, imported empty: " + listed.joined(separator: ", ") + "."
        }
        if !droppedLinks.isEmpty {
            text +=
                " Links to objects the store does not have, left out: "
                + droppedLinks.map(\.description).joined(separator: ", ") + "."
        }
        if !skippedTables.isEmpty {
            let skipped = skippedTables.sorted { $0.key < $1.key }.map {
                "\($0.key) (\($0.value) row\($0.value == 1 ? "" : "s"))"
            }
            text += " Not imported (Core Data's own bookkeeping): " + skipped.joined(separator: ", ") + "."
        }
        return text
    }

    /// The import as one JSON object (`remodel import-core-data --format json`), keys in a fixed order.
    package var json: JSONDocument {
        func counts(_ values: [String: Int]) -> JSONDocument {
            .object(values.sorted { $0.key < $1.key }.map { ($0.key, .int($0.value)) })
        }
        return .object([
            ("source", .string(sourcePath)), ("store", .string(storePath)), ("model", .string(modelName)),
            ("modelOrigin", .string(modelOrigin.rawValue)), ("version", .string(versionName)),
            ("versionWasGiven", .bool(versionWasGiven)),
            ("configuration", configuration.map(JSONDocument.string) ?? .null),
            ("objects", counts(objectCounts)),
            ("links", counts(linkCounts)), ("externalFiles", .int(externalFiles)),
            (
                "emptiedValues",
                .array(
                    emptiedValues.map {
                        .object([
                            ("entity", .string($0.entity)), ("primaryKey", .int(Int($0.primaryKey))),
                            ("attribute", .string($0.attribute)), ("file", .string($0.file)),
                            ("value", $0.isNil ? .null : .string("")),
                        ])
                    })
            ),
            (
                "droppedLinks",
                .array(
                    droppedLinks.map {
                        .object([
                            ("entity", .string($0.entity)), ("primaryKey", .int(Int($0.primaryKey))),
                            ("relationship", .string($0.relationship)), ("destination", .string($0.destination)),
                            ("key", Int($0.key).map(JSONDocument.int) ?? .string($0.key)),
                        ])
                    })
            ),
            ("skippedTables", counts(skippedTables)),
        ])
    }
}
