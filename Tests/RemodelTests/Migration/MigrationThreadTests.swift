import Foundation
import Testing

@testable import Remodel
@testable import RemodelModel

/// `Migrator.migrate` runs its work on a thread of its own: the awaiting task holds no thread of Swift's
/// cooperative pool, whose width is the number of cores.
struct MigrationThreadTests {
    /// More migrations than the pool has threads are all in phase 1 at once: each one's callback waits
    /// there until every one has arrived. Were each migration blocking a pool thread, the last ones
    /// could not start until the first ones finished, and the wait would time out. The time limit is
    /// long: other tests of the suite may hold the pool's threads for minutes before the last
    /// migration gets one to start on.
    @Test func moreMigrationsThanCoresRunAtOnce() async throws {
        let count = ProcessInfo.processInfo.activeProcessorCount + 1
        let cases = try (0..<count).map { _ in
            try MigrationCase(
                bundle: try MigrationFixtures.library(), seed: MigrationFixtures.path("Library", "seed.json"))
        }
        let barrier = Barrier(parties: count)
        let met = Collector<Bool>()
        let options = MigrationOptions(mappingsDirectory: MigrationFixtures.libraryMappings)
        let reports = try await withThrowingTaskGroup(of: MigrationReport.self) { group in
            for migration in cases {
                let (bundle, store) = (migration.bundle, migration.store)
                let first = Collector<Bool>()
                group.addTask {
                    try await Migrator(bundle: bundle, options: options).migrate(storeAt: store) { progress in
                        guard progress.phase == .instances, first.values.isEmpty else { return }
                        first.append(true)
                        met.append(barrier.arriveAndWait(timeout: 300))
                    }
                }
            }
            var reports: [MigrationReport] = []
            for try await report in group { reports.append(report) }
            return reports
        }
        #expect(reports.count == count && reports.allSatisfy { $0.targetVersion == "Library 3" })
        #expect(
            met.values == Array(repeating: true, count: count), "every migration was in phase 1 while the others were")
    }
}

/// Lets threads wait for each other.
private final class Barrier: @unchecked Sendable {
    // `arrived` is guarded by `condition`.
    private let condition = NSCondition()
    private let parties: Int
    private var arrived = 0

    init(parties: Int) { self.parties = parties }

    /// Waits until `parties` threads have arrived, or `timeout` seconds; returns whether they all did.
    func arriveAndWait(timeout: TimeInterval) -> Bool {
        condition.lock()
        defer { condition.unlock() }
        arrived += 1
        condition.broadcast()
        let deadline = Date(timeIntervalSinceNow: timeout)
        while arrived < parties {
            if !condition.wait(until: deadline) { return arrived >= parties }
        }
        return true
    }
}
