public import GRDB
public import Remodel

extension Store {
    /// Launches a store as ``/Remodel/Store/launch(at:bundle:seed:options:progress:)-(String,_,_,_,_)`` does — creates
    /// it when missing, migrates it when older, refuses a newer one untouched — then opens a GRDB `DatabasePool` on
    /// it and checks it with the generated schema's `check`.
    ///
    /// The pool is opened only once the migration is over and Remodel's own connection is closed, so a pool is
    /// never open on the store while it is migrated: Remodel's lock refuses to replace a store that another
    /// connection has open, and a pool switches the store to WAL mode, which Remodel reads and migrates as any
    /// other store (it leaves WAL mode just before the replace, and the next pool switches it back). Launch before
    /// any other connection to the store is opened, and close every pool before launching again.
    ///
    /// For example:
    /// ```swift
    /// let bundle = try ModelBundle(contentsOf: "Models/Library.xcdatamodeld")
    /// let (pool, outcome) = try await Store.launchPool(at: storePath, bundle: bundle, check: LibrarySchema.check)
    /// let books = try await pool.read { db in try Book.fetchAll(db) }
    /// ```
    /// - Parameters:
    ///   - path: The store file.
    ///   - bundle: The app's model.
    ///   - seed: A JSON file (the export format) to fill a newly created store with.
    ///   - options: How to migrate an older store.
    ///   - configuration: GRDB's configuration of the pool; a busy mode of `.immediateError` becomes a 5-second
    ///     timeout, as Remodel's own connections wait.
    ///   - check: The generated `<Model>Schema.check`, which refuses a store at another version than the records.
    ///   - progress: Called with the migration's progress, if there is one.
    /// - Returns: The pool and what the launch did.
    /// - Throws: ``/RemodelModel/RemodelError`` from the launch (the store is then as it was), GRDB's `DatabaseError`
    ///   when the pool cannot open, or the schema's `RecordError` when `check` refuses the store (the pool is closed).
    public static func launchPool(
        at path: String, bundle: ModelBundle, seed: String? = nil, options: MigrationOptions = MigrationOptions(),
        configuration: GRDB.Configuration = GRDB.Configuration(), check: @escaping @Sendable (Database) throws -> Void,
        progress: @escaping @Sendable (MigrationProgress) -> Void = { _ in }
    ) async throws -> (DatabasePool, StoreLaunchOutcome) {
        let outcome = try await launchAndClose(
            at: path, bundle: bundle, seed: seed, options: options, progress: progress)
        let pool = try DatabasePool(path: path, configuration: waiting(configuration))
        try await pool.read { db in try check(db) }
        return (pool, outcome)
    }

    /// Launches a store, then opens a GRDB `DatabaseQueue` on it and checks it: as
    /// ``launchPool(at:bundle:seed:options:configuration:check:progress:)``, with one connection (no WAL mode).
    ///
    /// For example:
    /// ```swift
    /// let (queue, _) = try await Store.launchQueue(at: storePath, bundle: bundle, check: LibrarySchema.check)
    /// try await queue.write { db in var tag = Tag(name: "poetry"); try tag.insert(db) }
    /// ```
    /// - Parameters:
    ///   - path: The store file.
    ///   - bundle: The app's model.
    ///   - seed: A JSON file (the export format) to fill a newly created store with.
    ///   - options: How to migrate an older store.
    ///   - configuration: GRDB's configuration of the queue (a busy mode of `.immediateError` becomes a 5-second
    ///     timeout).
    ///   - check: The generated `<Model>Schema.check`.
    ///   - progress: Called with the migration's progress, if there is one.
    /// - Returns: The queue and what the launch did.
    /// - Throws: ``/RemodelModel/RemodelError`` from the launch, GRDB's `DatabaseError`, or the schema's `RecordError`.
    public static func launchQueue(
        at path: String, bundle: ModelBundle, seed: String? = nil, options: MigrationOptions = MigrationOptions(),
        configuration: GRDB.Configuration = GRDB.Configuration(), check: @escaping @Sendable (Database) throws -> Void,
        progress: @escaping @Sendable (MigrationProgress) -> Void = { _ in }
    ) async throws -> (DatabaseQueue, StoreLaunchOutcome) {
        let outcome = try await launchAndClose(
            at: path, bundle: bundle, seed: seed, options: options, progress: progress)
        let queue = try DatabaseQueue(path: path, configuration: waiting(configuration))
        try await queue.read { db in try check(db) }
        return (queue, outcome)
    }

    /// Launches, and lets Remodel's connection go before anything else opens the store.
    private static func launchAndClose(
        at path: String, bundle: ModelBundle, seed: String?, options: MigrationOptions,
        progress: @escaping @Sendable (MigrationProgress) -> Void
    ) async throws(RemodelError) -> StoreLaunchOutcome {
        let (store, outcome) = try await Store.launch(
            at: path, bundle: bundle, seed: seed, options: options, progress: progress)
        withExtendedLifetime(store) {}
        return outcome
    }

    private static func waiting(_ configuration: GRDB.Configuration) -> GRDB.Configuration {
        var configuration = configuration
        if case .immediateError = configuration.busyMode { configuration.busyMode = .timeout(5) }
        return configuration
    }
}
