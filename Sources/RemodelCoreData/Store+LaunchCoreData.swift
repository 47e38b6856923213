internal import Foundation
public import Remodel

extension Store {
    /// The first launch of an app on a new platform, with the data its iOS or macOS build kept in Core
    /// Data: when there is no store at `path` yet and a Core Data store is at `coreDataStore`, imports
    /// it into a new store at `path` (``importCoreData(from:bundle:into:version:)``, which never writes
    /// the Core Data store), then launches as
    /// ``/Remodel/Store/launch(at:bundle:seed:options:progress:)-(String,_,_,_,_)`` does, migrating the new store to
    /// the current version. When a store is already at `path` (a later launch), or there is no Core Data store, this is
    /// that launch alone.
    ///
    /// For example:
    /// ```swift
    /// let (store, outcome, imported) = try await Store.launch(
    ///     at: "\(home)/notes.sqlite", bundle: bundle, importingCoreDataFrom: "\(backup)/Notes.sqlite"
    /// ) { progress in splash.update(progress.fraction) }
    /// if let imported { log(imported.description) }
    /// ```
    /// - Parameters:
    ///   - path: The app's Remodel store.
    ///   - bundle: The app's model, with every version from the one that wrote the Core Data store.
    ///   - coreDataStore: The Core Data store (`.sqlite`) the app's other build wrote.
    ///   - coreDataVersion: The version that wrote it, when Remodel cannot tell (two versions fit equally).
    ///   - options: How to migrate the imported store (mapping files, backup, validations).
    ///   - progress: Called with the migration's progress, if there is one.
    /// - Returns: The open store, what the launch did, and the import, when there was one.
    /// - Throws: ``/RemodelModel/RemodelError``: the import's refusals (nothing is then written at `path`) or the
    ///   launch's.
    public static func launch(
        at path: String, bundle: ModelBundle, importingCoreDataFrom coreDataStore: String,
        coreDataVersion: String? = nil,
        options: MigrationOptions = MigrationOptions(),
        progress: @escaping @Sendable (MigrationProgress) -> Void = { _ in }
    ) async throws(RemodelError) -> (Store, StoreLaunchOutcome, CoreDataImport?) {
        try await launch(
            at: path, bundle: bundle, importingCoreDataFrom: coreDataStore,
            importOptions: CoreDataImportOptions(version: coreDataVersion), options: options, progress: progress)
    }

    /// The first launch on a new platform as ``launch(at:bundle:importingCoreDataFrom:coreDataVersion:options:progress:)``,
    /// with `importOptions` for what the Core Data store may hold (missing external data files, links to
    /// objects it does not have); the import's result lists what was left out.
    ///
    /// For example:
    /// ```swift
    /// let (store, _, imported) = try await Store.launch(
    ///     at: path, bundle: bundle, importingCoreDataFrom: backup,
    ///     importOptions: CoreDataImportOptions(missingExternalData: .empty, danglingLinks: .drop))
    /// for link in imported?.droppedLinks ?? [] { log("left out: \(link)") }
    /// ```
    /// - Parameters:
    ///   - path: The app's Remodel store.
    ///   - bundle: The app's model, with every version from the one that wrote the Core Data store.
    ///   - coreDataStore: The Core Data store (`.sqlite`) the app's other build wrote.
    ///   - importOptions: The version that wrote it, when Remodel cannot tell, and what to do with what
    ///     a real store may hold.
    ///   - options: How to migrate the imported store.
    ///   - progress: Called with the migration's progress, if there is one.
    /// - Returns: The open store, what the launch did, and the import, when there was one.
    /// - Throws: ``/RemodelModel/RemodelError``: the import's refusals (nothing is then written at `path`) or the
    ///   launch's.
    public static func launch(
        at path: String, bundle: ModelBundle, importingCoreDataFrom coreDataStore: String,
        importOptions: CoreDataImportOptions,
        options: MigrationOptions = MigrationOptions(),
        progress: @escaping @Sendable (MigrationProgress) -> Void = { _ in }
    ) async throws(RemodelError) -> (Store, StoreLaunchOutcome, CoreDataImport?) {
        var imported: CoreDataImport?
        if !FileManager.default.fileExists(atPath: path), FileManager.default.fileExists(atPath: coreDataStore) {
            // The import is blocking SQLite work: on a thread of its own, not the cooperative pool's.
            let work = BackgroundThread { () throws(RemodelError) in
                try Store.importCoreData(from: coreDataStore, bundle: bundle, into: path, options: importOptions)
            }
            do {
                imported = try await work.value().get()
            } catch  where error.code == .incompatibleStore && FileManager.default.fileExists(atPath: path) {
                // Another process launching at the same time imported it first: launch the store it made.
                imported = nil
            }
        }
        let (store, outcome) = try await launch(at: path, bundle: bundle, options: options, progress: progress)
        return (store, outcome, imported)
    }
}
