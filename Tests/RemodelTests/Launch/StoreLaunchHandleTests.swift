import Foundation
import Testing

@testable import Remodel
@testable import RemodelModel

/// `Store.startLaunch`: the launch in one call, with the migration's progress as an `AsyncSequence` and a
/// `Foundation.Progress`, then the open store.
@Suite struct StoreLaunchHandleTests {
    private func library() throws -> MigrationCase {
        try MigrationCase(bundle: try MigrationFixtures.library(), seed: MigrationFixtures.path("Library", "seed.json"))
    }

    /// An older store: every value of the migration arrives in order, the plan's two steps apart from the
    /// one pass, then the store opens at the current version with the migrated data.
    @Test func anOlderStoreIsMigratedWithItsProgressThenOpened() async throws {
        let migration = try library()
        let launch = Store.startLaunch(
            at: migration.store, bundle: migration.bundle,
            options: MigrationOptions(mappingsDirectory: MigrationFixtures.libraryMappings))
        var values: [MigrationProgress] = []
        for await value in launch.progressUpdates { values.append(value) }
        let (store, outcome) = try await launch.result
        guard case .migrated(let report) = outcome else {
            Issue.record("expected a migration, got \(outcome)")
            return
        }
        #expect(report.sourceVersion == "Library" && report.steps == 2)
        #expect(store.version.name == "Library 3")
        #expect(values.first?.phase == .planning && values.last?.phase == .finished && values.last?.fraction == 1)
        #expect(values.last.map { [$0.step, $0.steps, $0.pass, $0.passes] } == [2, 2, 1, 1])
        #expect(zip(values, values.dropFirst()).allSatisfy { $0.fraction <= $1.fraction })
        #expect(launch.progress.fractionCompleted == 1)
        expectSameText(try migration.export(), try MigrationFixtures.text("Library", "expected-3.json"))
    }

    /// A missing store is created and a current one opened: no migration, no progress values, the
    /// `Progress` full at the end.
    @Test func aMissingStoreIsCreatedThenACurrentOneOpened() async throws {
        let folder = try TemporaryFolder()
        let path = folder.file("user.sqlite")
        let bundle = try MigrationFixtures.library()
        for expected in [StoreLaunchOutcome.created, .opened] {
            let launch = Store.startLaunch(at: path, bundle: bundle)
            var values: [MigrationProgress] = []
            for await value in launch.progressUpdates { values.append(value) }
            let (store, outcome) = try await launch.result
            #expect(outcome == expected && values.isEmpty)
            #expect(store.version.name == "Library 3")
            #expect(launch.progress.fractionCompleted == 1)
        }
    }

    /// Cancelling the `Progress` in the middle of the migration (from phase 3's custom check) throws
    /// `cancelled` from the result and leaves the store and its folder as they were.
    @Test func cancellingTheProgressLeavesTheStore() async throws {
        let migration = try library()
        let before = try migration.snapshot()
        let launches = Collector<StoreLaunch>()
        var options = MigrationOptions(mappingsDirectory: MigrationFixtures.libraryMappings)
        options.validations = [
            { _ in
                while launches.values.isEmpty { usleep(1_000) }
                launches.values[0].progress.cancel()
                return []
            }
        ]
        let launch = Store.startLaunch(at: migration.store, bundle: migration.bundle, options: options)
        launches.append(launch)
        for await _ in launch.progressUpdates {}
        let error = await #expect(throws: RemodelError.self) { try await launch.result }
        #expect(error?.code == .cancelled)
        #expect(try migration.snapshot() == before)
    }

    /// A URL that is not a file's fails in the result, naming it; nothing is created.
    @Test func aURLThatIsNotAFilesFails() async throws {
        let launch = Store.startLaunch(
            at: try #require(URL(string: "https://example.com/library.sqlite")), bundle: try MigrationFixtures.library()
        )
        for await _ in launch.progressUpdates {}
        let error = await #expect(throws: RemodelError.self) { try await launch.result }
        #expect(error?.message.contains("is not a file URL") == true, "\(String(describing: error))")
    }
}
