public import Foundation

/// A migration started with ``Migrator/start(storeAt:)-(String)``: its progress as an
/// `AsyncSequence` and as a `Foundation.Progress`, and its result.
///
/// For example:
/// ```swift
/// let run = migrator.start(storeAt: "library.sqlite")
/// for await progress in run.progressUpdates { print(progress.fraction) }
/// let report = try await run.result
/// ```
public final class MigrationRun: Sendable {
    /// Every progress value, in order; finishes when the migration ends.
    public let progressUpdates: AsyncStream<MigrationProgress>
    /// The same progress for Foundation code: `fractionCompleted` follows the migration, and `cancel()` cancels it.
    public let progress: Progress
    private let task: Task<MigrationReport, any Error>
    private let cancellation: CancellationFlag

    init(migrator: Migrator, path: String) {
        let channel = ProgressChannel()
        self.progressUpdates = channel.updates
        self.progress = channel.progress
        self.cancellation = channel.cancellation
        self.task = Task.detached {
            do {
                let report = try await migrator.migrate(storeAt: path, cancellation: channel.cancellation) { value in
                    channel.report(value)
                }
                channel.finish(done: true)
                return report
            } catch {
                channel.finish(done: false)
                throw error
            }
        }
    }

    /// The migration's report, or the error that stopped it.
    public var result: MigrationReport {
        get async throws { try await task.value }
    }

    /// Cancels the migration; the store is left as it was.
    public func cancel() {
        cancellation.cancel()
        task.cancel()
    }
}
