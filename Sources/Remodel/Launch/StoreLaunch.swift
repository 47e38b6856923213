public import Foundation

/// A launch started with ``Store/startLaunch(at:bundle:seed:options:)-(String,_,_,_)``: the migration's
/// progress, if the store needs one, as an `AsyncSequence` and as a `Foundation.Progress`, and then the open
/// store — one call for a splash screen that shows how far the migration is.
///
/// For example:
/// ```swift
/// let launch = Store.startLaunch(at: storePath, bundle: bundle, options: MigrationOptions(mappingsDirectory: mappings))
/// for await progress in launch.progressUpdates {
///     splash.update(progress.fraction, step: progress.step, of: progress.steps)
/// }
/// let (store, outcome) = try await launch.result
/// ```
public final class StoreLaunch: Sendable {
    /// Every progress value of the migration, in order; empty when the store needed none. Finishes when
    /// the launch's work is done.
    public let progressUpdates: AsyncStream<MigrationProgress>
    /// The same progress for Foundation code: `fractionCompleted` follows the migration (1 once the launch is
    /// done), and `cancel()` cancels it.
    public let progress: Progress
    /// The store's path, or why a URL gave none.
    private let path: Result<String, RemodelError>
    private let bundle: ModelBundle
    private let task: Task<Result<StoreLaunchOutcome, RemodelError>, Never>
    private let cancellation: CancellationFlag

    init(
        path: Result<String, RemodelError>, bundle: ModelBundle, seed: Result<String?, RemodelError>,
        options: MigrationOptions
    ) {
        let channel = ProgressChannel()
        self.progressUpdates = channel.updates
        self.progress = channel.progress
        self.cancellation = channel.cancellation
        self.path = path
        self.bundle = bundle
        self.task = Task.detached {
            do throws(RemodelError) {
                // The store it opens is for the task that awaits the result, which opens it there.
                let (_, outcome) = try await Store.prepareLaunch(
                    at: try path.get(), bundle: bundle, seed: try seed.get(), options: options, opensCurrent: false,
                    cancellation: channel.cancellation
                ) { value in
                    channel.report(value)
                }
                channel.finish(done: true)
                return .success(outcome)
            } catch {
                channel.finish(done: false)
                return .failure(error)
            }
        }
    }

    /// The open store and what the launch did, once its work is done; each call opens the store anew, on
    /// the calling task.
    ///
    /// For example:
    /// ```swift
    /// let (store, outcome) = try await launch.result
    /// if case .migrated(let report) = outcome { print("migrated from \(report.sourceVersion)") }
    /// ```
    /// - Throws: ``/RemodelModel/RemodelError`` as ``Store/launch(at:bundle:seed:options:progress:)-(String,_,_,_,_)``
    ///   does; ``/RemodelModel/RemodelError/Code/cancelled`` after ``cancel()``, the store then left as it was.
    public var result: (store: Store, outcome: StoreLaunchOutcome) {
        get async throws(RemodelError) {
            let outcome = try await task.value.get()
            return (try Store.open(at: try path.get(), bundle: bundle), outcome)
        }
    }

    /// Cancels the migration, if there is one; the store is left as it was.
    ///
    /// For example:
    /// ```swift
    /// cancelButton.action = { launch.cancel() }
    /// ```
    public func cancel() {
        cancellation.cancel()
        task.cancel()
    }
}

extension Store {
    /// Starts a launch (``launch(at:bundle:seed:options:progress:)-(String,_,_,_,_)``) in a task of its own and
    /// returns a handle with the migration's progress as an `AsyncSequence` and a `Foundation.Progress`, and the
    /// open store once done: the file is inspected once, then created, opened or migrated.
    ///
    /// For example:
    /// ```swift
    /// let launch = Store.startLaunch(at: "\(home)/\(user).sqlite", bundle: bundle, seed: defaultsPath)
    /// for await progress in launch.progressUpdates { print(progress.phase, progress.fraction) }
    /// let (store, outcome) = try await launch.result
    /// ```
    /// - Parameters:
    ///   - path: The store file.
    ///   - bundle: The app's model.
    ///   - seed: A JSON file (the export format) to fill a newly created store with.
    ///   - options: How to migrate an older store, and whether to migrate a newer one down.
    /// - Returns: The launch, under way.
    public static func startLaunch(
        at path: String, bundle: ModelBundle, seed: String? = nil, options: MigrationOptions = MigrationOptions()
    ) -> StoreLaunch {
        StoreLaunch(path: .success(path), bundle: bundle, seed: .success(seed), options: options)
    }

    /// Starts a launch of the store at a file URL; see ``startLaunch(at:bundle:seed:options:)-(String,_,_,_)``.
    ///
    /// For example:
    /// ```swift
    /// let launch = Store.startLaunch(at: supportURL.appendingPathComponent("Library.sqlite"), bundle: bundle)
    /// let (store, _) = try await launch.result
    /// ```
    /// - Parameters:
    ///   - url: The store file's URL.
    ///   - bundle: The app's model.
    ///   - seed: A JSON file (the export format) to fill a newly created store with.
    ///   - options: How to migrate an older store, and whether to migrate a newer one down.
    /// - Returns: The launch, under way; a URL that is not a file URL fails in ``StoreLaunch/result``.
    public static func startLaunch(
        at url: URL, bundle: ModelBundle, seed: URL? = nil, options: MigrationOptions = MigrationOptions()
    ) -> StoreLaunch {
        StoreLaunch(
            path: Result { () throws(RemodelError) in try url.filePath() }, bundle: bundle,
            seed: Result { () throws(RemodelError) in try seed?.filePath() }, options: options)
    }
}
