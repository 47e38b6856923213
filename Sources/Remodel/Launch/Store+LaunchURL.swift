public import Foundation

extension Store {
    /// Opens an app's store at a file URL at launch; see ``launch(at:bundle:seed:options:progress:)-(String,_,_,_,_)``.
    ///
    /// For example:
    /// ```swift
    /// let support = try FileManager.default.url(for: .applicationSupportDirectory, in: .userDomainMask, appropriateFor: nil, create: true)
    /// let (store, outcome) = try await Store.launch(at: support.appendingPathComponent("Library.sqlite"), bundle: bundle)
    /// ```
    /// - Throws: ``/RemodelModel/RemodelError`` as the path-taking method does.
    public static func launch(
        at url: URL, bundle: ModelBundle, seed: URL? = nil, options: MigrationOptions = MigrationOptions(),
        progress: @escaping @Sendable (MigrationProgress) -> Void = { _ in }
    ) async throws(RemodelError) -> (Store, StoreLaunchOutcome) {
        try await launch(
            at: try url.filePath(), bundle: bundle, seed: try seed?.filePath(), options: options, progress: progress)
    }
}
