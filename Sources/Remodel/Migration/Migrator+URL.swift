public import Foundation

/// The migration API with file URLs where it takes paths.
extension Migrator {
    /// Plans the migration of the store at a file URL; see ``plan(storeAt:)-(String)``.
    ///
    /// For example:
    /// ```swift
    /// print(try migrator.plan(storeAt: storeURL).description)
    /// ```
    /// - Throws: ``/RemodelModel/RemodelError`` as the path-taking method does.
    public func plan(storeAt url: URL) throws(RemodelError) -> MigrationPlan {
        try plan(storeAt: try url.filePath())
    }

    /// Migrates the store at a file URL; see ``migrate(storeAt:progress:)-(String,_)``.
    ///
    /// For example:
    /// ```swift
    /// let report = try await migrator.migrate(storeAt: storeURL) { print($0.fraction) }
    /// ```
    /// - Throws: ``/RemodelModel/RemodelError`` as the path-taking method does.
    @discardableResult
    public func migrate(
        storeAt url: URL, progress: @escaping @Sendable (MigrationProgress) -> Void = { _ in }
    ) async throws(RemodelError) -> MigrationReport {
        try await migrate(storeAt: try url.filePath(), progress: progress)
    }

    /// Starts migrating the store at a file URL; see ``start(storeAt:)-(String)``.
    ///
    /// For example:
    /// ```swift
    /// let run = migrator.start(storeAt: storeURL)
    /// ```
    public func start(storeAt url: URL) -> MigrationRun {
        start(storeAt: url.path)
    }
}

extension MigrationOptions {
    /// Creates options whose mapping files are under a folder at a file URL (a URL that is not a file
    /// URL names no folder, and the migration infers every step).
    ///
    /// For example:
    /// ```swift
    /// let options = MigrationOptions(mappingsDirectory: Bundle.module.url(forResource: "Mappings", withExtension: nil)!)
    /// ```
    public init(
        mappingsDirectory: URL, targetVersion: String? = nil, keepBackup: Bool = false, batchSize: Int = 25_000,
        lockTimeoutMilliseconds: Int = 5_000, validations: [CustomValidation] = []
    ) {
        self.init(
            mappingsDirectory: mappingsDirectory.isFileURL ? mappingsDirectory.path : nil, targetVersion: targetVersion,
            keepBackup: keepBackup, batchSize: batchSize, lockTimeoutMilliseconds: lockTimeoutMilliseconds,
            validations: validations)
    }
}
