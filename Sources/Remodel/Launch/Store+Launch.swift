/// What ``Store/launch(at:bundle:seed:options:progress:)-(String,_,_,_,_)`` (or ``Store/openOrCreate(at:bundle:)``)
/// found and did.
public enum StoreLaunchOutcome: Sendable, Hashable {
    /// There was no store: it was created at the current version (with the seed data, if given).
    case created
    /// The store was at the current version: it was opened as it was.
    case opened
    /// The store was older (or newer, and ``MigrationOptions/downgrade`` let it go down): it was migrated to
    /// the current version, then opened (``MigrationReport/isDowngrade`` tells a downgrade).
    case migrated(MigrationReport)
    /// The store is older and must be migrated first (``Store/openOrCreate(at:bundle:)``, which does not
    /// migrate): nothing was opened or changed.
    case needsMigration(StoreInspection)
}

extension Store {
    /// Opens an app's store at launch, whatever is there: creates it when missing
    /// (with seed data, like an app's bundled defaults), migrates it when it is
    /// older (reporting progress), opens it when current, and refuses a store
    /// written by a newer app, another model's store or a file that is not a store,
    /// leaving that file untouched. Per-user stores are just separate paths.
    ///
    /// For example:
    /// ```swift
    /// let bundle = try ModelBundle(contentsOf: modelsURL.appendingPathComponent("Library.xcdatamodeld").path)
    /// let (store, outcome) = try await Store.launch(
    ///     at: "\(home)/\(user).sqlite", bundle: bundle, seed: defaultsURL.path,
    ///     options: MigrationOptions(mappingsDirectory: mappingsURL.path)
    /// ) { progress in
    ///     splash.update(progress.fraction)
    /// }
    /// if case .migrated(let report) = outcome { log("migrated from \(report.sourceVersion)") }
    /// ```
    /// - Parameters:
    ///   - path: The store file.
    ///   - bundle: The app's model.
    ///   - seed: A JSON file (the export format) to fill a newly created store with.
    ///   - options: How to migrate an older store (mapping files, backup, validations), and whether to
    ///     migrate a newer one down (``MigrationOptions/downgrade``; by default it is refused).
    ///   - progress: Called with the migration's progress, if there is one.
    /// - Returns: The open store and what was done.
    /// - Throws: ``RemodelError`` naming the file and what to do; the file is then unchanged. Its code tells
    ///   the cases apart: ``RemodelError/Code/newerStore`` (written by a newer app: ask the user to update),
    ///   ``RemodelError/Code/downgradeLosesData`` (a lossless downgrade would lose values, see ``DowngradePolicy``),
    ///   ``RemodelError/Code/otherModel``, ``RemodelError/Code/notAStore``, ``RemodelError/Code/editedVersion``,
    ///   or the migration's own errors.
    public static func launch(
        at path: String, bundle: ModelBundle, seed: String? = nil, options: MigrationOptions = MigrationOptions(),
        progress: @escaping @Sendable (MigrationProgress) -> Void = { _ in }
    ) async throws(RemodelError) -> (Store, StoreLaunchOutcome) {
        let inspection = try StoreInspector.inspect(path: path, bundle: bundle)
        switch inspection.state {
        case .missing:
            return (try Store.create(at: path, bundle: bundle, seed: seed), .created)
        case .current:
            return (try Store.open(at: path, bundle: bundle), .opened)
        case .older, .newer:
            if case .newer = inspection.state, options.downgrade == .refuse {
                throw inspection.refusal(or: .newerStore, path: path)
            }
            var migrationOptions = options
            migrationOptions.targetVersion = nil
            // What was found here stands for the migration's own look before its lock; the store it leaves is at the
            // version it reports, and is opened as that without being inspected again.
            let report = try await Migrator(bundle: bundle, options: migrationOptions).migrate(
                storeAt: path, inspected: inspection, cancellation: CancellationFlag(), observer: progress)
            let version = try bundle.loadVersion(named: report.targetVersion)
            return (
                Store(
                    path: path, bundle: bundle, version: version,
                    connection: try SQLiteConnection(path: path, mode: .readWrite)),
                .migrated(report)
            )
        default:
            throw inspection.refusal(or: .incompatibleStore, path: path)
        }
    }
}
