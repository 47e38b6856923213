import Foundation
import Testing

@testable import Remodel
@testable import RemodelModel

/// A step holds few pages in memory however large the tables it rewrites: it reads and writes them in key
/// order, so the cache that would fill with them buys nothing (docs/BENCHMARK.md, issue 29).
@Suite struct StepMemoryTests {
    /// `Item` renamed `Thing` (its table rebuilt under the new name) with 30,000 objects of 250 bytes each.
    private func renamedTable() throws -> MigrationCase {
        let item = { (name: String, elementID: String) in
            """
            <entity name="\(name)" representedClassName="\(name)"\(elementID)>
                <attribute name="text" optional="YES" attributeType="String"/>
                <attribute name="count" optional="YES" attributeType="Integer 32" usesScalarValueType="NO"/>
            </entity>
            """
        }
        let bundle = makeBundle(
            "Things", try makeVersion("Things", item("Item", "")),
            try makeVersion("Things 2", item("Thing", #" elementID="Item""#)))
        let migration = try MigrationCase(bundle: bundle, seed: nil)
        let connection = try SQLiteConnection(path: migration.store, mode: .readWrite)
        try connection.execute(
            """
            WITH RECURSIVE n(i) AS (SELECT 1 UNION ALL SELECT i + 1 FROM n WHERE i < 30000)
            INSERT INTO "Item" (\(StoreColumn.pk), \(StoreColumn.entity), "text", "count")
            SELECT i, 'Item', printf('%.250c', 'x'), i FROM n
            """)
        return migration
    }

    @Test func aRebuiltTableOfMegabytesPassesThroughAFewHundredKilobytesOfCache() async throws {
        let migration = try renamedTable()
        let cached = CacheReading()
        var options = MigrationOptions()
        // After phases 1 and 2: the old table read and dropped, the new one written.
        options.hooks.afterStep = { database in cached.record(database.connection.pageCacheBytes) }
        try await migration.migrate(options)
        let bytes = try #require(cached.value)
        #expect(bytes > 0)
        // The step's own cache and the attached source's, not the 8 MiB of the table.
        #expect(bytes <= (PageCaches.stepKiB + PageCaches.sourceKiB) * 1024 + 64 * 1024)
        let store = try SQLiteConnection(path: migration.store, mode: .readOnly)
        #expect(try store.scalar(#"SELECT count(*) FROM "Thing""#) == .integer(30000))
    }
}

/// What the hook saw, from the migration's thread.
private final class CacheReading: @unchecked Sendable {
    private let lock = NSLock()
    private var bytes: Int?

    func record(_ value: Int) { lock.locked { bytes = value } }
    var value: Int? { lock.locked { bytes } }
}
