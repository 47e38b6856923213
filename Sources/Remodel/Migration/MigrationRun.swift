public import Foundation

/// A migration started with ``Migrator/start(storeAt:)-(String)``: its progress as an
/// `AsyncSequence` and as a `Foundation.Progress`, and its result.
public final class MigrationRun: Sendable {
    /// Every progress value, in order; finishes when the migration ends.
    public let progressUpdates: AsyncStream<MigrationProgress>
    /// The same progress for Foundation code: `fractionCompleted` follows the migration, and `cancel()` cancels it.
    public let progress: Progress
    private let task: Task<MigrationReport, any Error>
    private let cancellation: CancellationFlag

    init(migrator: Migrator, path: String) {
        let flag = CancellationFlag()
        let foundationProgress = Progress(totalUnitCount: 1_000_000)
        foundationProgress.isCancellable = true
        foundationProgress.cancellationHandler = { flag.cancel() }
        let (stream, continuation) = AsyncStream<MigrationProgress>.makeStream(bufferingPolicy: .unbounded)
        self.progressUpdates = stream
        self.progress = foundationProgress
        self.cancellation = flag
        let box = ProgressBox(foundationProgress)
        self.task = Task.detached {
            defer { continuation.finish() }
            return try await migrator.migrate(storeAt: path, cancellation: flag) { value in
                continuation.yield(value)
                box.update(value.fraction)
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

/// Lets the migration task update a `Foundation.Progress`.
private final class ProgressBox: @unchecked Sendable {
    private let progress: Progress
    init(_ progress: Progress) { self.progress = progress }
    func update(_ fraction: Double) {
        progress.completedUnitCount = Int64(fraction * Double(progress.totalUnitCount))
    }
}
