import Foundation
import Testing

@testable import Remodel
@testable import RemodelModel

/// A step drops an index only where it changes it: over every step of random histories (hierarchies, renames
/// in and out of case, attributes added and dropped, constraints), an index the step dropped either reads
/// otherwise in the store after the step, or is gone, or belongs to a table the step built again. What the
/// step did is read from SQLite alone, the statements it ran and the schema before and after, not from its
/// plan (issue 29: every step rebuilt each hierarchy table's `_entity` index).
@Suite struct KeptIndexPropertyTests {
    static let seeds: [UInt64] = Array(
        1...UInt64(ProcessInfo.processInfo.environment["REMODEL_PROPERTY_SEEDS"].flatMap { Int($0) } ?? 12))

    /// Each index's text and table, by name.
    private static func indexes(of path: String) throws -> [String: (sql: String, table: String)] {
        var result: [String: (sql: String, table: String)] = [:]
        let rows = try SQLiteConnection(path: path, mode: .readOnly).rows(
            "SELECT name, sql, tbl_name FROM sqlite_master WHERE type = 'index' AND sql IS NOT NULL")
        for row in rows {
            guard case .text(let name) = row[0], case .text(let sql) = row[1], case .text(let table) = row[2] else {
                continue
            }
            result[name] = (sql, table)
        }
        return result
    }

    @Test func aStepDropsOnlyTheIndexesItChanges() async throws {
        var kept = 0
        var dropped = 0
        for seed in Self.seeds {
            var history = RandomHistory(seed: seed)
            var versions = [try history.version(number: 1)]
            for number in 2...history.versionCount {
                history.mutate()
                versions.append(try history.version(number: number))
            }
            let bundle = ModelBundle(name: "History", versions: versions)
            for (source, destination) in zip(versions, versions.dropFirst()) {
                let folder = try TemporaryFolder()
                let path = folder.file("store.sqlite")
                _ = try Store.create(at: path, bundle: bundle, version: source.name)
                let before = try Self.indexes(of: path)
                let pass = path + StoreFiles.temporarySuffix
                StatementCounter.shared.start(watching: pass)
                var options = MigrationOptions()
                options.targetVersion = destination.name
                try await Migrator(bundle: bundle, options: options).migrate(storeAt: path)
                let after = try Self.indexes(of: path)
                func ran(_ prefix: String) -> Bool { StatementCounter.shared.count(on: pass, startingWith: prefix) > 0 }
                for (name, index) in before {
                    guard
                        ran("DROP INDEX IF EXISTS main.\(quoteIdentifier(name))")
                            || ran("DROP INDEX main.\(quoteIdentifier(name))")
                    else {
                        kept += 1
                        continue
                    }
                    dropped += 1
                    let tables = [index.table] + (after[name].map { [$0.table] } ?? [])
                    let rebuilt = tables.contains { ran("CREATE TABLE \(quoteIdentifier($0)) (") }
                    #expect(
                        after[name]?.sql != index.sql || rebuilt,
                        "seed \(seed), \(source.name) → \(destination.name): \(name) was dropped and built again as it was"
                    )
                }
            }
        }
        // The histories exercise both: indexes a step keeps, and indexes it drops.
        #expect(kept > 20 * Self.seeds.count, "\(kept) kept")
        #expect(dropped > Self.seeds.count, "\(dropped) dropped")
    }
}
