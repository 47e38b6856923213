import Foundation

/// A migration's progress for code that awaits it on another task: every value in an `AsyncStream`, and
/// the fraction in a `Foundation.Progress` whose `cancel()` cancels the migration. ``MigrationRun`` and
/// ``StoreLaunch`` hand them out.
struct ProgressChannel: Sendable {
    let updates: AsyncStream<MigrationProgress>
    let progress: Progress
    let cancellation: CancellationFlag
    private let continuation: AsyncStream<MigrationProgress>.Continuation

    init() {
        let progress = Progress(totalUnitCount: 1_000_000)
        let flag = CancellationFlag(alsoCancelledWhen: { progress.isCancelled })
        progress.isCancellable = true
        progress.cancellationHandler = { flag.cancel() }
        (updates, continuation) = AsyncStream<MigrationProgress>.makeStream(bufferingPolicy: .unbounded)
        self.progress = progress
        self.cancellation = flag
    }

    /// Delivers a value to both.
    func report(_ value: MigrationProgress) {
        continuation.yield(value)
        progress.completedUnitCount = Int64(value.fraction * Double(progress.totalUnitCount))
    }

    /// Ends the stream; `done` fills the `Progress` (a launch that had nothing to migrate reported nothing).
    func finish(done: Bool) {
        if done { progress.completedUnitCount = progress.totalUnitCount }
        continuation.finish()
    }
}
