import Foundation
import Remodel

/// A fleet of stores being migrated, started by ``Remodel/Migrator/migrate(stores:jobs:options:progress:)``:
/// an `AsyncSequence` of one ``StoreMigrationResult`` per store, in the order the stores finish.
///
/// The stores are migrated on threads of their own (not Swift's cooperative pool: a migration blocks
/// on SQLite and `fsync`), `jobs` at a time, so memory grows with `jobs`, not with the fleet. Every
/// store gets exactly one result; the sequence ends after the last one. Stores the fleet did not
/// start (it stopped, or was cancelled) come last, as ``StoreMigrationResult/Outcome/skipped``.
///
/// Cancel with ``cancel()``, by cancelling the task iterating it, or by letting go of the sequence and
/// its iterators: the stores being migrated are left as they were and no other store is started.
public final class FleetMigration: AsyncSequence, Sendable {
    /// One store's result.
    public typealias Element = StoreMigrationResult

    /// The number of stores in the fleet (and of results the sequence yields, unless cancelled).
    public let count: Int
    private let results: AsyncStream<StoreMigrationResult>
    private let lifetime: Lifetime

    init(
        migrator: Migrator, paths: [String], jobs: Int, options: FleetOptions,
        progress: @escaping @Sendable (String, MigrationProgress) -> Void
    ) {
        count = paths.count
        let scheduler = FleetScheduler(count: paths.count, options: options)
        let cancellation = CancellationFlag()
        let (stream, continuation) = AsyncStream<StoreMigrationResult>.makeStream(bufferingPolicy: .unbounded)
        results = stream
        lifetime = Lifetime(scheduler: scheduler, cancellation: cancellation)
        continuation.onTermination = { termination in
            if case .cancelled = termination {
                scheduler.cancel()
                cancellation.cancel()
            }
        }
        let workers = WorkerCount(Swift.min(Swift.max(1, jobs), paths.count))
        guard !paths.isEmpty else {
            continuation.finish()
            return
        }
        for _ in 0..<workers.initial {
            let thread = Thread {
                while let index = scheduler.next() {
                    let path = paths[index]
                    let result = migrator.migrateInFleet(storeAt: path, cancellation: cancellation) {
                        progress(path, $0)
                    }
                    scheduler.finished(index, outcome: result.outcome)
                    continuation.yield(result)
                }
                guard workers.finishOne() else { return }
                let (unstarted, reason) = scheduler.unstarted()
                let target = migrator.options.targetVersion ?? migrator.bundle.currentVersion.name
                for index in unstarted {
                    continuation.yield(
                        StoreMigrationResult(
                            path: paths[index], outcome: .skipped, reason: reason, sourceVersion: nil,
                            targetVersion: target, steps: 0,
                            objects: nil, seconds: 0, date: Date(), error: nil, report: nil))
                }
                continuation.finish()
            }
            // As deep as a main thread's: expression checks recurse.
            thread.stackSize = 8 << 20
            thread.start()
        }
    }

    /// Starts no new store and cancels those being migrated, which are left as they were.
    public func cancel() {
        lifetime.cancel()
    }

    /// An iterator over the results; the fleet runs whether or not one is made.
    public func makeAsyncIterator() -> Iterator {
        Iterator(base: results.makeAsyncIterator(), lifetime: lifetime)
    }

    /// Iterates over the results; holding one keeps the fleet going.
    public struct Iterator: AsyncIteratorProtocol {
        var base: AsyncStream<StoreMigrationResult>.Iterator
        let lifetime: Lifetime

        /// The next store's result, or `nil` after the last one (or once the iterating task is cancelled).
        public mutating func next() async -> StoreMigrationResult? {
            await base.next()
        }
    }

    /// Cancels the fleet when the sequence and all its iterators are gone.
    final class Lifetime: Sendable {
        private let scheduler: FleetScheduler
        private let cancellation: CancellationFlag

        init(scheduler: FleetScheduler, cancellation: CancellationFlag) {
            self.scheduler = scheduler
            self.cancellation = cancellation
        }

        func cancel() {
            scheduler.cancel()
            cancellation.cancel()
        }

        deinit { cancel() }
    }

    /// The workers still running; the last one to finish ends the sequence.
    private final class WorkerCount: @unchecked Sendable {
        let initial: Int
        private let lock = NSLock()
        private var running: Int

        init(_ count: Int) {
            initial = count
            running = count
        }

        /// Counts one worker out; `true` for the last.
        func finishOne() -> Bool {
            lock.lock()
            defer { lock.unlock() }
            running -= 1
            return running == 0
        }
    }
}
