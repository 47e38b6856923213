import DiligenceRecords
import Foundation
import GRDB
import Remodel
import RemodelGRDB
import Testing

/// `RemodelGRDB`: launch (create, migrate, refuse), then a GRDB pool or queue on the store, checked.
struct LaunchDatabaseTests {
    let bundle: ModelBundle

    init() throws { bundle = try RecordsTestSupport.model("Models/Diligence.xcdatamodeld") }

    @Test func createsThenOpensAStoreThroughAPool() async throws {
        let folder = try RecordsTestSupport.folder()
        defer { try? FileManager.default.removeItem(at: folder) }
        let path = folder.appendingPathComponent("diligence.sqlite").path
        do {
            let (pool, outcome) = try await Store.launchPool(at: path, bundle: bundle, check: DiligenceSchema.check)
            #expect(outcome == .created)
            try await pool.write { db in
                // The entity `Task` is `TaskEntity`: an app's `Task { … }` keeps meaning Swift's.
                var task = TaskEntity(createdAt: Date(timeIntervalSince1970: 1_700_000_000), name: "Write")
                try task.insert(db)
                var session = FocusSession(start: Date(timeIntervalSince1970: 1_700_000_100), task: task.id)
                try session.insert(db)
                #expect(task.focusMinutes == 25 && task.mode == "pomodoro" && task.isArchived == false)
            }
            try pool.close()
        }
        let (pool, outcome) = try await Store.launchPool(at: path, bundle: bundle, check: DiligenceSchema.check)
        #expect(outcome == .opened)
        let journal = try await pool.read { db in try String.fetchOne(db, sql: "PRAGMA journal_mode") }
        #expect(journal == "wal")
        let sessions = try await pool.read { db in
            try TaskEntity.fetchAll(db).first.map { try $0.sessionsRequest.fetchCount(db) }
        }
        #expect(sessions == 1)
        try pool.close()
        // A store a pool left in WAL mode exports and launches as any other.
        let store = try Store.open(at: path, bundle: bundle)
        #expect(try store.exportJSONString().contains("\"Write\""))
    }

    @Test func migratesAnOlderStoreBeforeThePoolOpens() async throws {
        let folder = try RecordsTestSupport.folder()
        defer { try? FileManager.default.removeItem(at: folder) }
        let path = try RecordsTestSupport.seededStore(bundle, version: "Diligence", objects: 5, in: folder)
        let (queue, outcome) = try await Store.launchQueue(at: path, bundle: bundle, check: DiligenceSchema.check)
        guard case .migrated(let report) = outcome else {
            Issue.record("expected a migration, found \(outcome)")
            return
        }
        #expect(report.sourceVersion == "Diligence")
        #expect(try await queue.read { db in try TaskEntity.fetchCount(db) } == 5)
    }

    @Test func refusesAnotherModelsStoreUntouched() async throws {
        let folder = try RecordsTestSupport.folder()
        defer { try? FileManager.default.removeItem(at: folder) }
        let path = folder.appendingPathComponent("other.sqlite").path
        let library = try RecordsTestSupport.model("Models/Library.xcdatamodeld")
        _ = try Store.create(at: path, bundle: library)
        // A store of another model is refused by the launch itself, untouched.
        let before = try Data(contentsOf: URL(fileURLWithPath: path))
        await #expect(throws: RemodelError.self) {
            _ = try await Store.launchPool(at: path, bundle: bundle, check: DiligenceSchema.check)
        }
        #expect(try Data(contentsOf: URL(fileURLWithPath: path)) == before)
    }
}
