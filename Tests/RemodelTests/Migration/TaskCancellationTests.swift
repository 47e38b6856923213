import Foundation
import Testing

@testable import Remodel
@testable import RemodelModel

/// Cancelling the task that runs a migration stops it and leaves the store exactly as it was.
struct TaskCancellationTests {
    @Test func cancellingTheTaskMidwayLeavesTheStoreUntouched() async throws {
        let migration = try MigrationCase(bundle: try MigrationFixtures.library(), seed: nil)
        let connection = try SQLiteConnection(path: migration.store, mode: .readWrite)
        try connection.run(
            "WITH RECURSIVE n(i) AS (SELECT 1 UNION ALL SELECT i + 1 FROM n WHERE i < 40) INSERT INTO Person (_pk, _entity, firstName, lastName) SELECT i, 'Person', 'A', 'B' FROM n"
        )
        let before = try migration.snapshot()
        let events = Collector<MigrationProgress>()
        let options = MigrationOptions(mappingsDirectory: MigrationFixtures.libraryMappings, batchSize: 1)
        // The migration runs in a task of its own: cancelling the test's task would make Swift Testing
        // report the test as cancelled instead of checking anything.
        let bundle = migration.bundle
        let store = migration.store
        let request = CancelRequest()
        let task = Task { () async throws(RemodelError) -> MigrationReport in
            defer { request.migrationEnded() }
            return try await Migrator(bundle: bundle, options: options).migrate(storeAt: store) { progress in
                events.append(progress)
                if progress.phase == .instances, progress.completed > 0 { request.cancelAndWait() }
            }
        }
        #expect(await request.grant(to: task), "the migration reached phase 1")
        switch await task.result {
        case .success: Issue.record("the cancelled migration finished")
        case .failure(let error): #expect((error as? RemodelError)?.code == .cancelled)
        }
        #expect(events.values.allSatisfy { $0.phase == .planning || $0.phase == .instances })
        #expect(
            events.values.last.map { $0.phase == .instances && $0.completed > 0 } == true,
            "nothing is reported after the cancellation")
        #expect(try migration.snapshot() == before)
    }
}
