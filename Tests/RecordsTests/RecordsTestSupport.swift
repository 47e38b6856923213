import Foundation
import GRDB
import Remodel
import RemodelTesting
import Testing

/// Stores made from seed data, exports, and the generic walk over a schema's record types.
enum RecordsTestSupport {
    static let root = GeneratedCodeTests.root

    static func model(_ relativePath: String) throws -> ModelBundle {
        try ModelBundle(contentsOf: root.appendingPathComponent(relativePath).path)
    }

    /// A fresh temporary folder, removed by the caller's `defer`.
    static func folder() throws -> URL {
        let url = FileManager.default.temporaryDirectory.appendingPathComponent("remodel-records-\(UUID().uuidString)")
        try FileManager.default.createDirectory(at: url, withIntermediateDirectories: true)
        return url
    }

    /// A store at `version` (default: current) filled with the seed generator's data.
    static func seededStore(
        _ bundle: ModelBundle, version: String? = nil, objects: Int, seedNumber: UInt64 = 7, in folder: URL,
        name: String = "seeded"
    ) throws -> String {
        let versionName = version ?? bundle.currentVersionName
        let json = folder.appendingPathComponent("\(name).json").path
        _ = try SeedGenerator(bundle: bundle, version: versionName).write(
            objects: objects, seedNumber: seedNumber, to: json)
        let path = folder.appendingPathComponent("\(name).sqlite").path
        _ = try Store.create(at: path, bundle: bundle, version: versionName, seed: json)
        return path
    }

    /// `remodel export` of a store, as text.
    static func export(_ path: String, _ bundle: ModelBundle) throws -> String {
        try Store.open(at: path, bundle: bundle).exportJSONString()
    }

    /// Reads every object of every table through the records and writes each back with `update`.
    static func rewriteEveryObject(
        _ types: [any (FetchableRecord & MutablePersistableRecord & TableRecord).Type], at path: String
    ) throws -> Int {
        let queue = try DatabaseQueue(path: path)
        return try queue.write { db in
            var count = 0
            for type in types { count += try rewrite(type, db) }
            return count
        }
    }

    private static func rewrite<Record: FetchableRecord & MutablePersistableRecord & TableRecord>(
        _ type: Record.Type, _ db: Database
    ) throws -> Int {
        let records = try Record.fetchAll(db)
        for record in records { try record.update(db) }
        return records.count
    }

    /// How many objects the store has, counted in SQL.
    static func objectCount(_ path: String, tables: [String]) throws -> Int {
        let queue = try DatabaseQueue(path: path)
        return try queue.read { db in
            try tables.reduce(0) { $0 + (try Int.fetchOne(db, sql: "SELECT count(*) FROM \"\($1)\"") ?? 0) }
        }
    }
}

/// Two texts are equal; when not, the first lines that differ are shown.
func expectSameText(_ actual: String, _ expected: String, sourceLocation: Testing.SourceLocation = #_sourceLocation) {
    guard actual != expected else { return }
    let left = actual.split(separator: "\n", omittingEmptySubsequences: false)
    let right = expected.split(separator: "\n", omittingEmptySubsequences: false)
    let differing = zip(left, right).enumerated().filter { $0.element.0 != $0.element.1 }.prefix(3)
    let shown = differing.map { "line \($0.offset + 1):\n  got      \($0.element.0)\n  expected \($0.element.1)" }
    Issue.record(
        "texts differ (\(left.count) and \(right.count) lines)\n\(shown.joined(separator: "\n"))",
        sourceLocation: sourceLocation)
}
